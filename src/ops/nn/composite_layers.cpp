// Layer operators that ATen defines through other operators: bilinear
// (_trilinear on flattened inputs), _trilinear (inputs unsqueezed, multiplied
// and summed), channel_shuffle, rrelu (leaky_relu with the mean slope when
// not training), native_dropout_backward, _softmax_backward_data,
// _batch_norm_with_update(_functional) (batch norm in training mode),
// embedding_renorm(_), grid_sampler (the 2-D or 3-D sampler) and detach_.
//
// Errors: BadInput with ATen's messages for mismatched shapes; Unsupported
// for rrelu in training mode on a non-empty input (its slopes come from
// torch's random generator, which pt2web does not reproduce).
#include <algorithm>
#include <cmath>

#include "ops/nn/composite_math.h"
#include "ops/nn/nn.h"
#include "ops/op_utils.h"
#include "ops/views.h"
#include "util/error.h"

namespace pt2web {

namespace {

using namespace nn_math;

// _trilinear(i1, i2, i3, expand1, expand2, expand3, sumdim, unroll_dim):
// each input gets size-1 dims at its expand positions, the three multiply
// (broadcasting) and sumdim is summed out. 16-bit floats compute in float32
// and round once, as ATen's matrix products accumulate.
void trilinear_op(OpCall& c) {
  std::vector<Tensor> in = {c.tensor(0), c.tensor(1), c.tensor(2)};
  const int64_t total = in[0].dim() + static_cast<int64_t>(c.int_list(3).size());
  const DType dtype = in[0].dtype();
  for (size_t k = 0; k < 3; ++k) {
    std::vector<int64_t> expand = wrap_dims(c.int_list(3 + k), total);
    std::sort(expand.begin(), expand.end());
    if (in[k].dim() + static_cast<int64_t>(expand.size()) != total)
      fail(ErrorCode::BadInput, c.where(), "number of dimensions must match");
    Tensor t = in[k].dtype() == DType::Float16 || in[k].dtype() == DType::BFloat16 ? in[k].to(DType::Float32) : in[k];
    for (int64_t d : expand) t = unsqueeze_view(t, d);
    in[k] = t;
  }
  Tensor product = mul(mul(in[0], in[1]), in[2]);
  const std::vector<int64_t> sumdim = c.int_list(6);
  if (!sumdim.empty())
    product = run_op1("aten::sum.dim_IntList", {arg(product), arg(wrap_dims(sumdim, total)), Value::from_bool(false)});
  c.push(product.to(dtype));
}

// bilinear(input1, input2, weight, bias): y[..., o] = x1 W[o] x2 + b[o].
void bilinear_op(OpCall& c) {
  const Tensor& x1 = c.tensor(0);
  const Tensor& x2 = c.tensor(1);
  const Tensor& weight = c.tensor(2);
  const Tensor bias = c.optional_tensor(3);
  if (x1.dim() != x2.dim())
    fail(ErrorCode::BadInput, c.where(), "bilinear(): input dimensions do not match: got ", x1.dim(), " and ",
         x2.dim());
  if (x1.dim() == 0 || (bias.defined() && bias.dim() == 0))
    fail(ErrorCode::BadInput, c.where(), "bilinear(): inputs and bias must have at least one dimension");
  for (int64_t d = 0; d + 1 < x1.dim(); ++d)
    if (x1.size(d) != x2.size(d))
      fail(ErrorCode::BadInput, c.where(), "bilinear(): input batch dimensions do not match: got ", x1.size(d),
           " and ", x2.size(d));
  if (weight.dim() != 3 || x1.size(-1) != weight.size(1))
    fail(ErrorCode::BadInput, c.where(), "bilinear(): input1 size does not match weight size: got ", x1.size(-1),
         " but expected ", weight.dim() == 3 ? weight.size(1) : -1);
  if (x2.size(-1) != weight.size(2))
    fail(ErrorCode::BadInput, c.where(), "bilinear(): input2 size does not match weight size: got ", x2.size(-1),
         " but expected ", weight.size(2));
  if (bias.defined() && bias.size(-1) != weight.size(0))
    fail(ErrorCode::BadInput, c.where(), "bilinear(): bias size does not match weight size: got ", bias.size(-1),
         " but expected ", weight.size(0));
  Shape out_shape(x1.sizes().begin(), x1.sizes().end() - 1);
  out_shape.push_back(weight.size(0));
  const Tensor a = reshape(x1, {-1, x1.size(-1)});
  const Tensor b = reshape(x2, {-1, x2.size(-1)});
  Tensor out = run_op1("aten::_trilinear.default",
                       {arg(a), arg(weight), arg(b), arg(std::vector<int64_t>{1, 3}), arg(std::vector<int64_t>{0}),
                        arg(std::vector<int64_t>{1, 2}), arg(std::vector<int64_t>{2, 3})});
  out = reshape(out, out_shape);
  c.push(bias.defined() ? add(out, bias) : out);
}

// channel_shuffle(self, groups): channels [g, c/g] become [c/g, g].
void channel_shuffle_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  const int64_t groups = c.int_arg(1);
  if (self.dim() <= 2)
    fail(ErrorCode::BadInput, c.where(), "channel_shuffle expects input to have at least 3 dimensions, but got input "
         "with sizes ", shape_to_string(self.sizes()));
  if (groups <= 0)
    fail(ErrorCode::BadInput, c.where(), "Number of groups to divide channels in must be positive. Value of groups:",
         groups);
  const int64_t channels = self.size(1);
  if (channels % groups != 0)
    fail(ErrorCode::BadInput, c.where(), "Number of channels must be divisible by groups. Got ", channels,
         " channels and ", groups, " groups.");
  Shape split = {self.size(0), groups, channels / groups};
  split.insert(split.end(), self.sizes().begin() + 2, self.sizes().end());
  std::vector<int64_t> order(split.size());
  for (size_t d = 0; d < order.size(); ++d) order[d] = static_cast<int64_t>(d);
  std::swap(order[1], order[2]);
  const Tensor shuffled = permute_view(reshape(self, split), order).contiguous();
  c.push(reshape(shuffled, self.sizes()).clone());
}

// rrelu and rrelu_with_noise_functional when not training: leaky_relu with
// the slope (lower + upper) / 2; `noise` is returned unchanged.
Tensor rrelu_eval(const OpCall& c, const Tensor& self, const Scalar& lower, const Scalar& upper, bool training) {
  if (lower.to_double() > upper.to_double())
    fail(ErrorCode::BadInput, c.where(), "Lower bound should be less than or equal to the upper bound");
  if (training) {
    if (self.numel() != 0)
      fail(ErrorCode::Unsupported, c.where(),
           "rrelu with training=True draws its slopes from torch's random generator, which pt2web does not "
           "reproduce");
    return self.clone();
  }
  const double slope = (lower.to_double() + upper.to_double()) / 2;
  return run_op1("aten::leaky_relu.default", {arg(self), arg(slope)});
}

void rrelu_op(OpCall& c) { c.push(rrelu_eval(c, c.tensor(0), c.scalar(1), c.scalar(2), c.bool_arg(3))); }

void rrelu_with_noise_functional_op(OpCall& c) {
  c.push(rrelu_eval(c, c.tensor(0), c.scalar(2), c.scalar(3), c.bool_arg(4)));
  c.push(c.tensor(1).clone());
}

// native_dropout_backward(grad, mask, scale) = grad * mask * scale.
void native_dropout_backward_op(OpCall& c) { c.push(mul(mul(c.tensor(0), c.tensor(1)), c.double_arg(2))); }

// _softmax_backward_data(grad, output, dim, input_dtype):
// output * grad - output * sum(output * grad, dim), in input_dtype.
void softmax_backward_data_op(OpCall& c) {
  const Tensor& grad = c.tensor(0);
  const Tensor& output = c.tensor(1);
  const Tensor product = mul(grad, output);
  const Tensor result = sub(product, mul(output, sum_dim(product, c.int_arg(2), true)));
  const DType input_dtype = *c.optional_dtype(3);
  c.push(grad.dtype() != input_dtype ? result.to(input_dtype) : result.contiguous());
}

// _batch_norm_with_update: training-mode batch norm updating the running
// stats in place; the fourth output is cuDNN's reserve (empty on CPU).
void batch_norm_with_update_op(OpCall& c) {
  std::vector<Value> out = run_op("aten::_native_batch_norm_legit.default",
                                  {c.arg(0), c.arg(1), c.arg(2), c.arg(3), c.arg(4), Value::from_bool(true), c.arg(5),
                                   c.arg(6)});
  for (Value& v : out) c.outputs.push_back(std::move(v));
  c.push(Tensor::empty(DType::UInt8, {0}));
}

// _batch_norm_with_update_functional: the same with the new running stats
// returned instead of written.
void batch_norm_with_update_functional_op(OpCall& c) {
  std::vector<Value> out = run_op("aten::_native_batch_norm_legit_functional.default",
                                  {c.arg(0), c.arg(1), c.arg(2), c.arg(3), c.arg(4), Value::from_bool(true), c.arg(5),
                                   c.arg(6)});
  for (size_t k = 0; k < 3; ++k) c.outputs.push_back(out[k]);
  c.push(Tensor::empty(DType::UInt8, {0}));
  c.outputs.push_back(out[3]);
  c.outputs.push_back(out[4]);
}

// Rescales in place each row of `weight` named by `indices` whose
// norm_type-norm exceeds max_norm, to max_norm / (norm + 1e-7) of itself.
void renorm_rows(const OpCall& c, const Tensor& weight, const Tensor& indices, double max_norm, double norm_type) {
  if (weight.dim() != 2)
    fail(ErrorCode::BadInput, c.where(), "Expected 2-dimensional tensor, but got ", weight.dim(), "-dimensional tensor");
  if (indices.dtype() != DType::Int64 && indices.dtype() != DType::Int32)
    fail(ErrorCode::BadInput, c.where(), "Expected tensor for argument #2 'indices' to have one of the following scalar "
         "types: Long, Int; but got ", dtype_name(indices.dtype()));
  if (!is_floating(weight.dtype()))
    fail(ErrorCode::BadInput, c.where(), "embedding_renorm: weight must be floating point, got ",
         dtype_name(weight.dtype()));
  std::vector<int64_t> rows(static_cast<size_t>(indices.numel()));
  for (size_t k = 0; k < rows.size(); ++k) rows[k] = indices.item_as_int(static_cast<int64_t>(k));
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  for (int64_t r : rows) {
    if (r < -weight.size(0) || r >= weight.size(0))
      fail(ErrorCode::BadInput, c.where(), "index ", r, " is out of bounds for dimension 0 with size ", weight.size(0));
    const Tensor row = select_view(weight, 0, r);
    const double norm = run_op1("aten::norm.Scalar", {arg(row), arg(norm_type)}).item_as_double();
    if (!(norm > max_norm)) continue;
    const double scale = max_norm / (norm + 1e-7);
    row.copy_from(mul(row, scale));
  }
}

void embedding_renorm_inplace_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  renorm_rows(c, self, c.tensor(1), c.double_arg(2), c.double_arg(3));
  c.push(self);
}

void embedding_renorm_op(OpCall& c) {
  const Tensor out = c.tensor(0).clone();
  renorm_rows(c, out, c.tensor(1), c.double_arg(2), c.double_arg(3));
  c.push(out);
}

// grid_sampler: grid_sampler_2d for 4-d inputs, grid_sampler_3d for 5-d.
void grid_sampler_op(OpCall& c) {
  const Tensor& input = c.tensor(0);
  const Tensor& grid = c.tensor(1);
  if ((input.dim() != 4 && input.dim() != 5) || input.dim() != grid.dim())
    fail(ErrorCode::BadInput, c.where(), "grid_sampler(): expected 4D or 5D input and grid with same number of "
         "dimensions, but got input with sizes ", shape_to_string(input.sizes()), " and grid with sizes ",
         shape_to_string(grid.sizes()));
  forward_to(c, input.dim() == 4 ? "aten::grid_sampler_2d.default" : "aten::grid_sampler_3d.default");
}

// detach_: autograd bookkeeping only; the tensor is returned as it is.
void detach_inplace_op(OpCall& c) { c.push(c.tensor(0)); }

}  // namespace

void register_composite_layer_ops(OpTable& t) {
  t.add("aten::_trilinear(Tensor i1, Tensor i2, Tensor i3, int[] expand1, int[] expand2, int[] expand3, int[] sumdim, "
        "int unroll_dim=1) -> Tensor",
        trilinear_op);
  t.add("aten::bilinear(Tensor input1, Tensor input2, Tensor weight, Tensor? bias=None) -> Tensor", bilinear_op);
  t.add("aten::channel_shuffle(Tensor self, SymInt groups) -> Tensor", channel_shuffle_op);
  t.add("aten::rrelu(Tensor self, Scalar lower=0.125, Scalar upper=0.3333333333333333, bool training=False, "
        "Generator? generator=None) -> Tensor",
        rrelu_op);
  t.add("aten::rrelu_with_noise_functional(Tensor self, Tensor noise, Scalar lower=0.125, Scalar "
        "upper=0.3333333333333333, bool training=False, Generator? generator=None) -> (Tensor, Tensor noise_out)",
        rrelu_with_noise_functional_op);
  t.add("aten::native_dropout_backward(Tensor grad_output, Tensor mask, float scale) -> Tensor",
        native_dropout_backward_op);
  t.add("aten::_softmax_backward_data(Tensor grad_output, Tensor output, int dim, ScalarType input_dtype) -> Tensor",
        softmax_backward_data_op);
  t.add("aten::_batch_norm_with_update(Tensor input, Tensor? weight, Tensor? bias, Tensor(a!) running_mean, "
        "Tensor(b!) running_var, float momentum, float eps) -> (Tensor, Tensor, Tensor, Tensor)",
        batch_norm_with_update_op);
  t.add("aten::_batch_norm_with_update_functional(Tensor input, Tensor? weight, Tensor? bias, Tensor running_mean, "
        "Tensor running_var, float momentum, float eps) -> (Tensor, Tensor, Tensor, Tensor, Tensor running_mean_out, "
        "Tensor running_var_out)",
        batch_norm_with_update_functional_op);
  t.add("aten::embedding_renorm_(Tensor(a!) self, Tensor indices, float max_norm, float norm_type) -> Tensor(a!)",
        embedding_renorm_inplace_op);
  t.add("aten::embedding_renorm(Tensor self, Tensor indices, float max_norm, float norm_type) -> Tensor",
        embedding_renorm_op);
  t.add("aten::grid_sampler(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners) "
        "-> Tensor",
        grid_sampler_op);
  t.add("aten::detach_(Tensor(a!) self) -> Tensor(a!)", detach_inplace_op);
}

}  // namespace pt2web
