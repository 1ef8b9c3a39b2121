// Indexing operators that ATen defines through other indexing operators,
// run through the op table (ops/op_compose.h): index_reduce (scatter_reduce
// with the index spread over source's shape), put (index_put on the
// flattened tensor), take_along_dim (gather after broadcasting),
// nonzero_static / nonzero_numpy (nonzero, padded or split),
// _unsafe_masked_index / _unsafe_masked_index_put_accumulate (clamped
// indices, masked values) and repeat_interleave (index_select with repeated
// positions).
#include <algorithm>

#include "ops/indexing/indexing.h"
#include "ops/op_compose.h"
#include "ops/op_utils.h"
#include "ops/shape_indexing.h"
#include "ops/views.h"

namespace pt2web {

namespace {

Tensor int64_tensor(const Shape& shape, const std::vector<int64_t>& values) {
  Tensor t = Tensor::empty(DType::Int64, shape);
  std::copy(values.begin(), values.end(), t.data<int64_t>());
  return t;
}

// index_reduce(self, dim, index, source, reduce, include_self): slice
// index[i] of self along dim combines with slice i of source.
void index_reduce_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  const Tensor& index = c.tensor(2);
  const Tensor& source = c.tensor(3);
  const std::string reduce = c.string_arg(4);
  if (reduce != "prod" && reduce != "mean" && reduce != "amax" && reduce != "amin")
    fail(ErrorCode::BadInput, c.where(), "index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got ",
         reduce, ".");
  const int64_t dim = wrap_dim(c.int_arg(1), self.dim());
  if (index.dim() > 1)
    fail(ErrorCode::BadInput, c.where(), "index_reduce_(): Index is supposed to be a vector");
  if (index.dtype() != DType::Int64 && index.dtype() != DType::Int32)
    fail(ErrorCode::BadInput, c.where(), "index_reduce_(): Expected dtype int32/int64 for index but got: ",
         dtype_name(index.dtype()));
  if (self.dtype() != source.dtype())
    fail(ErrorCode::BadInput, c.where(), "index_reduce_(): self (", dtype_name(self.dtype()), ") and source (",
         dtype_name(source.dtype()), ") must have the same scalar type");
  if (self.dim() != source.dim() && !(self.dim() <= 1 && source.dim() <= 1))
    fail(ErrorCode::BadInput, c.where(), "index_reduce_(): self and source must have the same number of dimensions");
  const Tensor src = as_nonempty_dim(source);
  const int64_t slices = src.sizes()[dim];
  if (index.numel() != slices)
    fail(ErrorCode::BadInput, c.where(), "index_reduce_(): Number of indices (", index.numel(),
         ") should be equal to source.size(dim) (", slices, ")");
  const Tensor target = as_nonempty_dim(self);
  for (int64_t d = 0; d < target.dim(); ++d)
    if (d != dim && target.sizes()[d] != src.sizes()[d])
      fail(ErrorCode::BadInput, c.where(), "index_reduce_(): source slice shape ", shape_to_string(src.sizes()),
           " does not match self's ", shape_to_string(target.sizes()), " outside dim ", dim);
  const std::vector<int64_t> idx = read_indices(index, true, c.where());
  for (int64_t i : idx)
    if (i < 0 || i >= target.sizes()[dim]) fail(ErrorCode::BadInput, c.where(), "index out of range in self");
  // The index along dim, the same for every position of the other dims.
  Shape along(src.dim(), 1);
  along[dim] = slices;
  Tensor spread = expand_view(int64_tensor(along, idx), src.sizes());
  Tensor out = run_op1("aten::scatter_reduce.two",
                       {arg(target), arg(dim), arg(spread), arg(src), Value::from_string(reduce), c.arg(5)});
  c.push(reshape(out, self.sizes()));
}

// put(self, index, source, accumulate): self flattened, written at the
// (possibly negative) flat positions.
void put_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  const Tensor& index = c.tensor(1);
  const Tensor& source = c.tensor(2);
  if (index.dtype() != DType::Int64)
    fail(ErrorCode::BadInput, c.where(), "put_(): Expected a long tensor for index, but got ", dtype_name(index.dtype()));
  if (self.dtype() != source.dtype())
    fail(ErrorCode::BadInput, c.where(), "put_(): self and source expected to have the same dtype, but got self.dtype = ",
         dtype_name(self.dtype()), " and source.dtype = ", dtype_name(source.dtype()));
  if (index.numel() != source.numel())
    fail(ErrorCode::BadInput, c.where(),
         "put_(): Expected source and index to have the same number of elements, but got source.numel() = ",
         source.numel(), ", index.numel() = ", index.numel());
  const int64_t n = self.numel();
  for (int64_t i : read_indices(index, false, c.where()))
    if (i < -n || i >= n)
      fail(ErrorCode::BadInput, c.where(), "out of range: tried to access index ", i, " on a tensor of ", n,
           " elements.");
  const Value flat_index = Value::from_optional_tensors({reshape(index, {-1})});
  Tensor out = run_op1("aten::index_put.default",
                       {arg(reshape(self, {-1})), flat_index, arg(reshape(source, {-1})), c.arg(3)});
  c.push(reshape(out, self.sizes()));
}

// take_along_dim(self, indices, dim): gather along dim after broadcasting
// self and indices in every other dim; without dim, on the flattened self.
void take_along_dim_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  const Tensor& indices = c.tensor(1);
  if (indices.dtype() != DType::Int64)
    fail(ErrorCode::BadInput, c.where(), "torch.take_along_dim(): dtype of indices should be Long but got ",
         dtype_name(indices.dtype()));
  const auto given = c.optional_int(2);
  if (!given) {
    c.push(run_op1("aten::gather.default", {arg(reshape(self, {-1})), arg(int64_t(0)), arg(reshape(indices, {-1}))}));
    return;
  }
  if (self.dim() != indices.dim())
    fail(ErrorCode::BadInput, c.where(),
         "torch.take_along_dim(): input and indices should have the same number of dimensions, but got ", self.dim(),
         " dimensions for input, and ", indices.dim(), " dimensions for indices");
  const int64_t dim = wrap_dim(*given, self.dim());
  const Tensor s = as_nonempty_dim(self), i = as_nonempty_dim(indices);
  Shape self_sizes = s.sizes();
  self_sizes[dim] = i.sizes()[dim];
  const Shape shape = broadcast_shapes(self_sizes, i.sizes());
  Shape gathered_from = shape;
  gathered_from[dim] = s.sizes()[dim];
  Tensor out = run_op1("aten::gather.default",
                       {arg(expand_view(s, gathered_from)), arg(dim), arg(expand_view(i, shape))});
  c.push(self.dim() == 0 ? reshape(out, {}) : out);
}

// nonzero_static(self, size, fill_value): nonzero's rows, cut or padded
// with fill_value to exactly `size` rows.
void nonzero_static_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  const int64_t size = c.int_arg(1);
  if (size < 0)
    fail(ErrorCode::BadInput, c.where(), "nonzero_static: 'size' must be an non-negative integer, but got ", size);
  Tensor found = run_op1("aten::nonzero.default", {arg(self)});
  Tensor out = Tensor::empty(DType::Int64, {size, self.dim()});
  fill_scalar(out, Scalar{Scalar::Kind::Int, c.int_arg(2), 0.0}, c.where());
  const int64_t rows = std::min(size, found.size(0));
  if (rows > 0 && self.dim() > 0) slice_view(out, 0, 0, rows, 1).copy_from(slice_view(found, 0, 0, rows, 1));
  c.push(out);
}

// nonzero_numpy: one tensor of coordinates per dim (a 0-d input counts as 1-d).
void nonzero_numpy_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  Tensor found = run_op1("aten::nonzero.default", {arg(self.dim() == 0 ? reshape(self, {1}) : self)});
  c.outputs = run_op("aten::unbind.int", {arg(found), arg(int64_t(1))});
}

// where(condition): ATen's one-argument where is nonzero_numpy.
void where_condition_op(OpCall& c) { forward_to(c, "aten::nonzero_numpy.default"); }

// Index tensors with every value clamped into [lo(size), size - 1] for the dim they index.
Value clamped_indices(const std::vector<Tensor>& indices, const Shape& sizes, bool allow_negative,
                      const std::string& where) {
  std::vector<Tensor> out;
  for (size_t k = 0; k < indices.size(); ++k) {
    if (!indices[k].defined()) {
      out.push_back(Tensor());
      continue;
    }
    const int64_t size = sizes.at(k), lo = allow_negative ? -size : 0;
    std::vector<int64_t> values = read_indices(indices[k], true, where);
    for (int64_t& v : values) v = std::max(lo, std::min(v, size - 1));
    out.push_back(int64_tensor(indices[k].sizes(), values));
  }
  return Value::from_optional_tensors(std::move(out));
}

void check_mask(const OpCall& c, const Tensor& mask) {
  if (mask.dtype() != DType::Bool)
    fail(ErrorCode::BadInput, c.where(), "_unsafe_masked_index found mask dtype ", dtype_name(mask.dtype()),
         " and expected bool");
}

// _unsafe_masked_index(self, mask, indices, fill): self[indices] (clamped
// into range) where mask is set, fill elsewhere.
void unsafe_masked_index_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  const Tensor& mask = c.tensor(1);
  check_mask(c, mask);
  const std::vector<Tensor> indices = c.tensor_list(2);
  // An empty self gives only fill values; indexing a stand-in with the
  // indexed dims of size >= 1 gives the result's shape.
  Tensor source = self;
  if (self.numel() == 0) {
    Shape sizes = self.sizes();
    for (size_t k = 0; k < indices.size() && k < sizes.size(); ++k)
      if (indices[k].defined()) sizes[k] = std::max<int64_t>(sizes[k], 1);
    source = Tensor::empty(self.dtype(), sizes);
  }
  Tensor picked = run_op1("aten::_unsafe_index.Tensor",
                          {arg(source), clamped_indices(indices, source.sizes(), false, c.where())});
  Tensor outside = run_op1("aten::logical_not.default", {arg(mask)});
  if (self.numel() == 0) outside = run_op1("aten::ones_like.default", {arg(outside)});
  c.push(run_op1("aten::masked_fill.Scalar", {arg(picked), arg(outside), c.arg(3)}));
}

// _unsafe_masked_index_put_accumulate(self, mask, indices, values): values
// (zero where mask is clear) added at the clamped indices.
void unsafe_masked_index_put_accumulate_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  const Tensor& mask = c.tensor(1);
  check_mask(c, mask);
  if (self.numel() == 0) {
    c.push(self.clone());
    return;
  }
  Tensor outside = run_op1("aten::logical_not.default", {arg(mask)});
  Tensor values = run_op1("aten::masked_fill.Scalar", {c.arg(3), arg(outside), Value::from_int(0)});
  c.push(run_op1("aten::_unsafe_index_put.default",
                 {arg(self), clamped_indices(c.tensor_list(2), self.sizes(), true, c.where()), arg(values),
                  Value::from_bool(true)}));
}

// The positions 0..counts.size()-1, position i repeated counts[i] times.
// The total is checked first and the tensor allocated through the storage
// checks, so huge counts are refused with OUT_OF_MEMORY, never attempted.
Tensor repeated_positions(const std::vector<int64_t>& counts, const std::string& where) {
  int64_t total = 0;
  for (int64_t count : counts) {
    if (count < 0) fail(ErrorCode::BadInput, where, "repeats can not be negative");
    if (__builtin_add_overflow(total, count, &total))
      fail(ErrorCode::OutOfMemory, where, "the repeated positions number more than 2^63");
  }
  Tensor positions = Tensor::empty(DType::Int64, {total});
  int64_t* out = positions.data<int64_t>();
  for (size_t i = 0; i < counts.size(); ++i) out = std::fill_n(out, counts[i], static_cast<int64_t>(i));
  return positions;
}

// repeat_interleave(self, repeats, dim): every slice along dim repeated
// (one count for all, or one per slice); without dim, on the flattened self.
Tensor repeat_slices(const OpCall& c, const Tensor& self, std::vector<int64_t> counts, std::optional<int64_t> dim) {
  const Tensor input = dim ? self : reshape(self, {-1});
  const int64_t d = dim ? wrap_dim(*dim, input.dim()) : 0;
  const int64_t len = input.dim() == 0 ? 1 : input.sizes()[d];
  repeat_single(counts, static_cast<size_t>(len));
  if (static_cast<int64_t>(counts.size()) != len)
    fail(ErrorCode::BadInput, c.where(), "repeats must have the same size as input along dim, but got repeats.size(0) = ",
         counts.size(), " and input.size(", d, ") = ", len);
  return run_op1("aten::index_select.default", {arg(input), arg(d), arg(repeated_positions(counts, c.where()))});
}

void repeat_interleave_int_op(OpCall& c) {
  c.push(repeat_slices(c, c.tensor(0), {c.int_arg(1)}, c.optional_int(2)));
}

std::vector<int64_t> repeat_counts(const OpCall& c, const Tensor& repeats) {
  if (repeats.dim() > 1)
    fail(ErrorCode::BadInput, c.where(), "repeat_interleave only accept 1D vector as repeat");
  if (repeats.dtype() != DType::Int64 && repeats.dtype() != DType::Int32)
    fail(ErrorCode::BadInput, c.where(), "repeats has to be Long or Int tensor");
  return read_indices(repeats, true, c.where());
}

void repeat_interleave_tensor_op(OpCall& c) {
  c.push(repeat_slices(c, c.tensor(0), repeat_counts(c, c.tensor(1)), c.optional_int(2)));
}

// repeat_interleave(repeats): the positions themselves.
void repeat_interleave_positions_op(OpCall& c) {
  const Tensor& repeats = c.tensor(0);
  if (repeats.dim() != 1) fail(ErrorCode::BadInput, c.where(), "repeat_interleave only accept 1D vector as repeat");
  c.push(repeated_positions(repeat_counts(c, repeats), c.where()).to(repeats.dtype()));
}

}  // namespace

void register_composite_indexing_ops(OpTable& t) {
  t.add("aten::index_reduce(Tensor self, int dim, Tensor index, Tensor source, str reduce, *, bool include_self=True) "
        "-> Tensor",
        index_reduce_op);
  t.add("aten::put(Tensor self, Tensor index, Tensor source, bool accumulate=False) -> Tensor", put_op);
  t.add("aten::take_along_dim(Tensor self, Tensor indices, int? dim=None) -> Tensor", take_along_dim_op);
  t.add("aten::nonzero_static(Tensor self, *, int size, int fill_value=-1) -> Tensor", nonzero_static_op);
  t.add("aten::nonzero_numpy(Tensor self) -> Tensor[]", nonzero_numpy_op);
  t.add("aten::where(Tensor condition) -> Tensor[]", where_condition_op);
  t.add("aten::_unsafe_masked_index(Tensor self, Tensor mask, Tensor?[] indices, Scalar fill) -> Tensor",
        unsafe_masked_index_op);
  t.add("aten::_unsafe_masked_index_put_accumulate(Tensor self, Tensor mask, Tensor?[] indices, Tensor values) -> "
        "Tensor",
        unsafe_masked_index_put_accumulate_op);
  t.add("aten::repeat_interleave.self_int(Tensor self, SymInt repeats, int? dim=None, *, SymInt? output_size=None) -> "
        "Tensor",
        repeat_interleave_int_op);
  t.add("aten::repeat_interleave.self_Tensor(Tensor self, Tensor repeats, int? dim=None, *, SymInt? output_size=None) "
        "-> Tensor",
        repeat_interleave_tensor_op);
  t.add("aten::repeat_interleave.Tensor(Tensor repeats, *, SymInt? output_size=None) -> Tensor",
        repeat_interleave_positions_op);
}

}  // namespace pt2web
