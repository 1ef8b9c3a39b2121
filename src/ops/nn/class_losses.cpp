// Classification losses over a class dimension: nll_loss_nd and the
// nll_loss / nll_loss2d (+ _forward, with total_weight) kernels ATen
// dispatches it to (one computation, each overload with its rank checks),
// cross_entropy_loss (log_softmax then nll_loss_nd, or the soft-target and
// label-smoothing forms of ATen's native/LossNLL.cpp), multi_margin_loss and
// multilabel_margin_loss (ATen's CPU kernels: float32/float64 only).
//
// nll: input [C] or [N, C, d...], target [] or [N, d...] of class indices;
// each position loses -weight[t] * input[n, t, ...], ignore_index loses 0;
// mean divides the sum by the summed weights of the targets (NaN when every
// target is ignored). Sums accumulate in the element's compute type.
#include <algorithm>
#include <cmath>
#include <vector>

#include "ops/nn/composite_math.h"
#include "ops/nn/nn.h"
#include "ops/op_utils.h"
#include "ops/views.h"
#include "util/error.h"

namespace pt2web {

namespace {

using namespace nn_math;

std::vector<int64_t> class_targets(const OpCall& c, const Tensor& target) {
  if (target.dtype() != DType::Int64 && target.dtype() != DType::UInt8)
    fail(ErrorCode::BadInput, c.where(), "expected scalar type Long but found ", dtype_name(target.dtype()));
  std::vector<int64_t> out(static_cast<size_t>(target.numel()));
  const Tensor t = target.to(DType::Int64);
  const int64_t* p = t.data<int64_t>();
  std::copy(p, p + out.size(), out.begin());
  return out;
}

// The per-class weights as doubles (all 1 when absent), checked against C.
std::vector<double> class_weights(const OpCall& c, const Tensor& weight, int64_t classes) {
  if (!weight.defined()) return std::vector<double>(static_cast<size_t>(classes), 1.0);
  if (weight.dim() > 1 || weight.numel() != classes)
    fail(ErrorCode::BadInput, c.where(), "weight tensor should be defined either for all ", classes,
         " classes or no classes but got weight tensor of shape: ", shape_to_string(weight.sizes()));
  std::vector<double> w(static_cast<size_t>(classes));
  for (int64_t k = 0; k < classes; ++k) w[k] = weight.item_as_double(k);
  return w;
}

// The shape checks of nll_loss_nd and of the nll_loss / nll_loss2d kernels.
void check_nll_shapes(const OpCall& c, const Tensor& input, const Tensor& target) {
  if (input.dim() < 1) fail(ErrorCode::BadInput, c.where(), "Expected 1 or more dimensions (got ", input.dim(), ")");
  if (input.dim() == 1) {
    if (target.dim() > 1)
      fail(ErrorCode::BadInput, c.where(), "0D or 1D target tensor expected, multi-target not supported");
    if (target.dim() == 1 && target.size(0) != 1)
      fail(ErrorCode::BadInput, c.where(), "size mismatch (got input: ", shape_to_string(input.sizes()),
           ", target: ", shape_to_string(target.sizes()), ")");
    return;
  }
  if (target.dim() < 1 || input.size(0) != target.size(0))
    fail(ErrorCode::BadInput, c.where(), "Expected input batch_size (", input.size(0), ") to match target batch_size (",
         target.dim() < 1 ? 0 : target.size(0), ").");
  const Shape spatial(input.sizes().begin() + 2, input.sizes().end());
  const Shape target_rest(target.sizes().begin() + 1, target.sizes().end());
  if (spatial != target_rest) {
    Shape expected{input.size(0)};
    expected.insert(expected.end(), spatial.begin(), spatial.end());
    fail(ErrorCode::BadInput, c.where(), "Expected target size ", shape_to_string(expected), ", got ",
         shape_to_string(target.sizes()));
  }
}

// The loss and the summed weight of the kept targets (ATen's total_weight:
// 0 for reduction none over a batch, as its kernels leave it).
struct NllOutputs {
  Tensor output, total_weight;
};

// The nll computation shared by every overload; shapes already checked.
NllOutputs nll_forward(const OpCall& c, const Tensor& input, const Tensor& target, const Tensor& weight,
                       int64_t reduction, int64_t ignore_index) {
  if (!is_floating(input.dtype()))
    fail(ErrorCode::BadInput, c.where(), "nll_loss: input must be floating point, got ", dtype_name(input.dtype()));
  const int64_t classes = input.dim() == 1 ? input.size(0) : input.size(1);
  const int64_t batch = input.dim() == 1 ? 1 : input.size(0);
  const int64_t inner = input.dim() <= 2 ? 1 : shape_numel(Shape(input.sizes().begin() + 2, input.sizes().end()));
  const std::vector<int64_t> t = class_targets(c, target);
  const std::vector<double> w = class_weights(c, weight, classes);
  NllOutputs out;
  visit_floating_dtype(input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = opmath_t<T>;
    const Tensor x = input.contiguous();
    const T* px = x.data<T>();
    Tensor losses = Tensor::empty(input.dtype(), target.sizes());
    T* pl = losses.data<T>();
    M total = M(0), total_weight = M(0);
    for (int64_t n = 0; n < batch; ++n)
      for (int64_t i = 0; i < inner; ++i) {
        const int64_t pos = n * inner + i;
        const int64_t cls = t[pos];
        if (cls == ignore_index) {
          pl[pos] = T(0);
          continue;
        }
        if (cls < 0 || cls >= classes) fail(ErrorCode::BadInput, c.where(), "Target ", cls, " is out of bounds.");
        const M wk = static_cast<M>(w[cls]);
        const M loss = -wk * static_cast<M>(px[(n * classes + cls) * inner + i]);
        pl[pos] = convert_element<T>(loss);
        total += loss;
        total_weight += wk;
      }
    const bool per_position = reduction == kReductionNone && input.dim() >= 2;
    out.total_weight =
        Tensor::scalar(input.dtype(), per_position ? 0.0 : static_cast<double>(convert_element<T>(total_weight)));
    if (reduction == kReductionNone) {
      out.output = losses;
      return;
    }
    const M value = reduction == kReductionMean ? total / total_weight : total;
    out.output = Tensor::scalar(input.dtype(), static_cast<double>(convert_element<T>(value)));
  });
  return out;
}

NllOutputs nll_of_call(const OpCall& c) {
  return nll_forward(c, c.tensor(0), c.tensor(1), c.optional_tensor(2), c.int_arg(3), c.int_arg(4));
}

// nll_loss_nd(self, target, weight, reduction, ignore_index): any rank.
void nll_loss_nd_op(OpCall& c) {
  check_nll_shapes(c, c.tensor(0), c.tensor(1));
  c.push(nll_of_call(c).output);
}

// nll_loss / nll_loss_forward: input [C] or [N, C] only.
void check_nll_1d_2d(const OpCall& c) {
  const Tensor& input = c.tensor(0);
  if (input.dim() < 1 || input.dim() > 2) fail(ErrorCode::BadInput, c.where(), "input tensor should be 1D or 2D");
  check_nll_shapes(c, input, c.tensor(1));
}

// nll_loss2d / nll_loss2d_forward: input [N, C, H, W], target [N, H, W] only.
void check_nll_2d(const OpCall& c) {
  const Tensor& input = c.tensor(0);
  const Tensor& target = c.tensor(1);
  if (target.dim() != 3)
    fail(ErrorCode::BadInput, c.where(),
         "only batches of spatial targets supported (3D tensors) but got targets of dimension: ", target.dim());
  if (input.dim() != 4)
    fail(ErrorCode::BadInput, c.where(),
         "only batches of spatial inputs supported (4D tensors), but got input of dimension: ", input.dim());
  check_nll_shapes(c, input, target);
}

void nll_loss_op(OpCall& c) {
  check_nll_1d_2d(c);
  c.push(nll_of_call(c).output);
}

void nll_loss_forward_op(OpCall& c) {
  check_nll_1d_2d(c);
  NllOutputs out = nll_of_call(c);
  c.push(out.output);
  c.push(out.total_weight);
}

void nll_loss2d_op(OpCall& c) {
  check_nll_2d(c);
  c.push(nll_of_call(c).output);
}

void nll_loss2d_forward_op(OpCall& c) {
  check_nll_2d(c);
  NllOutputs out = nll_of_call(c);
  c.push(out.output);
  c.push(out.total_weight);
}

// The class weights viewed to broadcast along the class dim of input.
Tensor weight_along_classes(const Tensor& weight, int64_t rank, int64_t class_dim) {
  Shape shape(static_cast<size_t>(rank), 1);
  shape[class_dim] = weight.numel();
  return reshape(weight, shape);
}

// cross_entropy with class probabilities as target (same shape as input).
Tensor soft_cross_entropy(const OpCall& c, const Tensor& log_probs, const Tensor& target, const Tensor& weight,
                          int64_t reduction, double smoothing, int64_t class_dim) {
  const int64_t classes = log_probs.size(class_dim);
  if (!is_floating(target.dtype()))
    fail(ErrorCode::BadInput, c.where(), "Expected floating point type for target with class probabilities, got ",
         dtype_name(target.dtype()));
  if (weight.defined() && (weight.dim() != 1 || weight.numel() != classes))
    fail(ErrorCode::BadInput, c.where(), "cross_entropy: weight tensor should be defined either for all ", classes,
         " classes or no classes but got weight tensor of shape: ", shape_to_string(weight.sizes()));
  const Tensor soft_target = smoothing > 0 ? add(mul(target, 1.0 - smoothing), smoothing / classes) : target;
  Tensor input = log_probs;
  if (weight.defined()) input = mul(input, weight_along_classes(weight, input.dim(), class_dim));
  const Tensor product = mul(input, soft_target);
  if (reduction == kReductionSum) return neg(sum(product));
  if (reduction == kReductionNone) return neg(sum_dim(product, class_dim));
  if (input.numel() == 0) return run_op1("aten::fill.Scalar", {arg(sum(product)), arg(std::nan(""))});
  return div(neg(sum(product)), static_cast<double>(input.numel() / classes));
}

// The label-smoothing term added to nll for class-index targets.
Tensor smoothing_term(const Tensor& log_probs, const Tensor& target, const Tensor& weight, int64_t reduction,
                      int64_t ignore_index, int64_t class_dim) {
  const Tensor ignored = eq(target, static_cast<double>(ignore_index));
  Tensor smooth = weight.defined()
                      ? neg(sum_dim(mul(log_probs, weight_along_classes(weight, log_probs.dim(), class_dim)), class_dim))
                      : neg(sum_dim(log_probs, class_dim));
  smooth = run_op1("aten::masked_fill.Scalar", {arg(smooth), arg(ignored), arg(0.0)});
  if (reduction == kReductionSum) return sum(smooth);
  if (reduction != kReductionMean) return smooth;
  const Tensor kept = run_op1("aten::logical_not.default", {arg(ignored)});
  if (!weight.defined()) return div(sum(smooth), sum(kept));
  // The summed weights of the kept targets (ignored ones read class 0, then drop).
  const Tensor safe = run_op1("aten::masked_fill.Scalar", {arg(target), arg(ignored), arg(int64_t{0})});
  const Tensor picked = reshape(run_op1("aten::index_select.default", {arg(weight), arg(int64_t{0}),
                                                                       arg(reshape(safe, {-1}))}),
                                target.sizes());
  return div(sum(smooth), sum(mul(picked, kept)));
}

// cross_entropy_loss(self, target, weight, reduction, ignore_index, label_smoothing).
void cross_entropy_loss_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  const Tensor& target = c.tensor(1);
  const Tensor weight = c.optional_tensor(2);
  const int64_t reduction = c.int_arg(3);
  const int64_t ignore_index = c.int_arg(4);
  const double smoothing = c.double_arg(5);
  if (self.dim() < 1) fail(ErrorCode::BadInput, c.where(), "Expected 1 or more dimensions (got ", self.dim(), ")");
  if (!(smoothing >= 0.0 && smoothing <= 1.0))
    fail(ErrorCode::BadInput, c.where(), "label_smoothing must be between 0.0 and 1.0. Got: ", smoothing);
  const int64_t class_dim = self.dim() == 1 ? 0 : 1;
  const Tensor log_probs = run_op1("aten::_log_softmax.default", {arg(self), arg(class_dim), Value::from_bool(false)});
  if (self.sizes() == target.sizes()) {
    c.push(soft_cross_entropy(c, log_probs, target, weight, reduction, smoothing, class_dim));
    return;
  }
  const Tensor nll = run_op1("aten::nll_loss_nd.default",
                             {arg(log_probs), arg(target), c.arg(2), arg(reduction), arg(ignore_index)});
  if (smoothing <= 0) {
    c.push(nll);
    return;
  }
  const int64_t classes = self.size(class_dim);
  const Tensor smooth = smoothing_term(log_probs, target, weight, reduction, ignore_index, class_dim);
  c.push(add(mul(nll, 1.0 - smoothing), mul(smooth, smoothing / static_cast<double>(classes))));
}

// Frames and classes of the margin losses' input: [C] or [N, C] (or a 0-d input, one class).
struct MarginShape {
  int64_t frames, classes;
};

MarginShape margin_shape(const OpCall& c, const Tensor& input) {
  const int64_t nd = input.dim();
  if (!((nd == 2 && input.size(1) != 0) || (nd == 1 && input.size(0) != 0) || nd == 0))
    fail(ErrorCode::BadInput, c.where(), "Expected non-empty vector or matrix with optional 0-dim batch size, but got: ",
         shape_to_string(input.sizes()));
  if (input.dtype() != DType::Float32 && input.dtype() != DType::Float64)
    fail(ErrorCode::BadInput, c.where(), "not implemented for '", dtype_name(input.dtype()), "'");
  return {nd <= 1 ? 1 : input.size(0), nd == 0 ? 1 : input.size(nd - 1)};
}

// Frame losses reduced as ATen: none keeps [frames] (a 0-d result when
// `scalar_when_none`), mean divides the sum by the frames.
template <typename T>
Tensor reduce_frames(const std::vector<T>& losses, int64_t reduction, DType dtype, bool scalar_when_none) {
  if (reduction == kReductionNone) {
    Tensor out = Tensor::empty(dtype, scalar_when_none ? Shape{} : Shape{static_cast<int64_t>(losses.size())});
    std::copy(losses.begin(), losses.end(), out.data<T>());
    return out;
  }
  T total = T(0);
  for (T v : losses) total += v;
  if (reduction == kReductionMean) total /= static_cast<T>(losses.size());
  return Tensor::scalar(dtype, static_cast<double>(total));
}

// multi_margin_loss(self, target, p, margin, weight, reduction): per frame,
// the sum over classes d != y of max(0, margin - x[y] + x[d])^p * w[y], over C.
void multi_margin_loss_op(OpCall& c) {
  const Tensor& input = c.tensor(0);
  const Tensor& target = c.tensor(1);
  const int64_t p = c.scalar(2).to_int();
  const double margin = c.scalar(3).to_double();
  const int64_t reduction = c.int_arg(5);
  if (p != 1 && p != 2) fail(ErrorCode::BadInput, c.where(), "only p == 1 and p == 2 supported");
  const MarginShape s = margin_shape(c, input);
  if (target.dim() > 1 || target.numel() != s.frames)
    fail(ErrorCode::BadInput, c.where(), "inconsistent target size, expected ", s.frames, " but got ",
         shape_to_string(target.sizes()));
  const Tensor weight = c.optional_tensor(4);
  if (weight.defined() && (weight.dim() > 1 || weight.numel() != s.classes))
    fail(ErrorCode::BadInput, c.where(), "inconsistent weight size, expected ", s.classes, " but got ",
         shape_to_string(weight.sizes()));
  const std::vector<int64_t> t = class_targets(c, target);
  visit_floating_dtype(input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same<T, float>::value || std::is_same<T, double>::value) {
      const Tensor x = input.contiguous();
      const Tensor w = weight.defined() ? weight.to(input.dtype()) : Tensor();
      const T* px = x.data<T>();
      std::vector<T> losses(static_cast<size_t>(s.frames));
      for (int64_t n = 0; n < s.frames; ++n) {
        const int64_t y = t[n];
        if (y < 0 || y >= s.classes) fail(ErrorCode::BadInput, c.where(), "target out of range");
        const T* row = px + n * s.classes;
        T sum_n = T(0);
        for (int64_t d = 0; d < s.classes; ++d) {
          if (d == y) continue;
          const T z = static_cast<T>(margin) - row[y] + row[d];
          if (!(z > 0)) continue;
          T h = p == 1 ? z : z * z;
          if (w.defined()) h *= w.data<T>()[y];
          sum_n += h;
        }
        losses[n] = sum_n / static_cast<T>(s.classes);
      }
      c.push(reduce_frames(losses, reduction, input.dtype(), target.dim() == 0));
    }
  });
}

// multilabel_margin_loss(self, target, reduction): target lists each
// frame's classes until the first -1; per frame, the sum over listed j and
// unlisted k of max(0, 1 - x[j] + x[k]), over C.
void multilabel_margin_loss_op(OpCall& c) {
  const Tensor& input = c.tensor(0);
  const Tensor& target = c.tensor(1);
  const MarginShape s = margin_shape(c, input);
  const bool consistent = input.dim() <= 1 ? target.dim() <= 1 && target.numel() == s.classes
                                           : target.dim() == 2 && target.size(0) == s.frames && target.size(1) == s.classes;
  if (!consistent)
    fail(ErrorCode::BadInput, c.where(), "inconsistent target size: ", shape_to_string(target.sizes()),
         " for input of size: ", shape_to_string(input.sizes()));
  const std::vector<int64_t> t = class_targets(c, target);
  for (int64_t v : t)
    if (v < -1 || v >= s.classes) fail(ErrorCode::BadInput, c.where(), "target out of range");
  visit_floating_dtype(input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same<T, float>::value || std::is_same<T, double>::value) {
      const Tensor x = input.contiguous();
      const T* px = x.data<T>();
      std::vector<T> losses(static_cast<size_t>(s.frames));
      std::vector<char> listed(static_cast<size_t>(s.classes));
      for (int64_t n = 0; n < s.frames; ++n) {
        const T* row = px + n * s.classes;
        const int64_t* labels = t.data() + n * s.classes;
        std::fill(listed.begin(), listed.end(), 0);
        for (int64_t j = 0; j < s.classes && labels[j] >= 0; ++j) listed[labels[j]] = 1;
        T sum_n = T(0);
        for (int64_t j = 0; j < s.classes && labels[j] >= 0; ++j)
          for (int64_t k = 0; k < s.classes; ++k) {
            if (listed[k]) continue;
            const T z = T(1) - row[labels[j]] + row[k];
            if (z > 0) sum_n += z;
          }
        losses[n] = sum_n / static_cast<T>(s.classes);
      }
      c.push(reduce_frames(losses, c.int_arg(2), input.dtype(), target.dim() <= 1));
    }
  });
}

}  // namespace

void register_class_loss_ops(OpTable& t) {
  t.add("aten::nll_loss_nd(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, SymInt "
        "ignore_index=-100) -> Tensor",
        nll_loss_nd_op);
  t.add("aten::nll_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, SymInt ignore_index=-100) "
        "-> Tensor",
        nll_loss_op);
  t.add("aten::nll_loss2d(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, SymInt "
        "ignore_index=-100) -> Tensor",
        nll_loss2d_op);
  t.add("aten::nll_loss_forward(Tensor self, Tensor target, Tensor? weight, int reduction, SymInt ignore_index) -> "
        "(Tensor output, Tensor total_weight)",
        nll_loss_forward_op);
  t.add("aten::nll_loss2d_forward(Tensor self, Tensor target, Tensor? weight, int reduction, SymInt ignore_index) -> "
        "(Tensor output, Tensor total_weight)",
        nll_loss2d_forward_op);
  t.add("aten::cross_entropy_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, SymInt "
        "ignore_index=-100, float label_smoothing=0.) -> Tensor",
        cross_entropy_loss_op);
  t.add("aten::multi_margin_loss(Tensor self, Tensor target, Scalar p=1, Scalar margin=1, Tensor? weight=None, int "
        "reduction=1) -> Tensor",
        multi_margin_loss_op);
  t.add("aten::multilabel_margin_loss(Tensor self, Tensor target, int reduction=1) -> Tensor",
        multilabel_margin_loss_op);
}

}  // namespace pt2web
