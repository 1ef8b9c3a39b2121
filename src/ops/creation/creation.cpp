// Tensor creation: full/zeros/ones/empty (+ _like, new_*, _strided),
// scalar_tensor, arange, linspace, eye, and fill/fill_/zero_.
//
// Factory ops take ATen's `dtype, layout, device, pin_memory` options: dtype
// picks the element type (ATen's defaults otherwise), only the strided layout
// exists here, and device/pin_memory do not matter on this CPU-only runtime.
// "empty" tensors are zero-filled, which is one of the values ATen may return.
#include <cmath>
#include <limits>

#include "ops/elementwise.h"
#include "ops/creation/creation.h"
#include "ops/op_utils.h"
#include "ops/shape_indexing.h"
#include "tensor/storage_size.h"
#include "tensor/strided_extent.h"

namespace pt2web {

namespace {

// The serialized torch.layout and torch.memory_format values.
constexpr int64_t kStridedLayout = 7;
enum MemoryFormat : int64_t { kContiguous = 1, kChannelsLast = 2, kChannelsLast3d = 3, kPreserve = 4 };

void check_layout(const OpCall& c, size_t index) {
  const Value& v = c.arg(index);
  if (v.kind == Value::Kind::Layout && v.i != kStridedLayout)
    fail(ErrorCode::Unsupported, c.where(), "only the strided layout is supported (got layout ", v.i, ")");
}

void check_sizes(const OpCall& c, const std::vector<int64_t>& sizes) {
  for (int64_t s : sizes)
    if (s < 0)
      fail(ErrorCode::BadInput, c.where(), "Trying to create tensor with negative dimension ", s, ": ",
           shape_to_string(sizes));
}

// Channels-last strides: the channel dim (1) varies fastest, then W, H, (D), N.
Shape channels_last_strides(const OpCall& c, const Shape& sizes, size_t rank) {
  if (sizes.size() != rank)
    fail(ErrorCode::BadInput, c.where(), "required rank ", rank, " tensor to use channels_last", rank == 5 ? "_3d" : "",
         " format");
  Shape strides(rank);
  int64_t stride = 1;
  strides[1] = stride;
  stride *= std::max<int64_t>(sizes[1], 1);
  for (size_t d = rank - 1; d >= 2; --d) {
    strides[d] = stride;
    stride *= std::max<int64_t>(sizes[d], 1);
  }
  strides[0] = stride;
  return strides;
}

// A zero-filled tensor in the requested memory format; `like` (when given)
// is the tensor whose strides preserve_format (or no format) keeps.
Tensor allocate(const OpCall& c, const Shape& sizes, DType dtype, size_t format_index, const Tensor* like) {
  check_sizes(c, sizes);
  const Value& v = c.arg(format_index);
  int64_t format = v.is_none() ? (like ? kPreserve : kContiguous) : v.i;
  if (format == kPreserve) return like ? empty_like_preserving(*like, dtype) : Tensor::empty(dtype, sizes);
  if (format == kChannelsLast || format == kChannelsLast3d) {
    Shape strides = channels_last_strides(c, sizes, format == kChannelsLast ? 4 : 5);
    auto storage = Storage::allocate(storage_bytes(shape_numel(sizes), dtype));
    return Tensor(std::move(storage), dtype, sizes, strides, 0);
  }
  return Tensor::empty(dtype, sizes);
}

// The dtype torch.full infers from its fill value: bool, int64 or float32.
DType fill_value_dtype(const Scalar& s) {
  switch (s.kind) {
    case Scalar::Kind::Bool: return DType::Bool;
    case Scalar::Kind::Int: return DType::Int64;
    case Scalar::Kind::Double: return DType::Float32;
  }
  return DType::Float32;
}

Scalar int_scalar(int64_t v) {
  Scalar s;
  s.kind = Scalar::Kind::Int;
  s.i = v;
  s.d = static_cast<double>(v);
  return s;
}

// ---- full / zeros / ones / empty ---------------------------------------------

// Arguments: (size, [fill,] dtype, layout, device, pin_memory[, memory_format]).
template <int Value_>
void constant_op(OpCall& c) {
  constexpr bool kHasFill = Value_ < 0;  // full: the value is an argument
  const size_t dtype_index = kHasFill ? 2 : 1;
  Scalar value = kHasFill ? c.scalar(1) : int_scalar(Value_);
  DType dtype = c.optional_dtype(dtype_index).value_or(kHasFill ? fill_value_dtype(value) : DType::Float32);
  check_layout(c, dtype_index + 1);
  std::vector<int64_t> sizes = c.int_list(0);
  check_sizes(c, sizes);
  Tensor out = Tensor::empty(dtype, sizes);
  if (Value_ != 0) fill_scalar(out, value, c.where());
  c.push(out);
}

void empty_op(OpCall& c) {
  check_layout(c, 2);
  c.push(allocate(c, c.int_list(0), c.optional_dtype(1).value_or(DType::Float32), 5, nullptr));
}

// Arguments: (self, [fill,] dtype, layout, device, pin_memory, memory_format).
// Value_ >= 0 is the constant; -1 reads the fill argument; -2 leaves zeros (empty_like).
template <int Value_>
void like_op(OpCall& c) {
  constexpr bool kHasFill = Value_ == -1;
  const size_t dtype_index = kHasFill ? 2 : 1;
  const Tensor& self = c.tensor(0);
  check_layout(c, dtype_index + 1);
  Tensor out = allocate(c, self.sizes(), c.optional_dtype(dtype_index).value_or(self.dtype()), dtype_index + 4, &self);
  if (kHasFill) fill_scalar(out, c.scalar(1), c.where());
  else if (Value_ > 0) fill_scalar(out, int_scalar(Value_), c.where());
  c.push(out);
}

// Arguments: (self, size, [fill,] dtype, ...): self only lends its dtype.
template <int Value_>
void new_op(OpCall& c) {
  constexpr bool kHasFill = Value_ == -1;
  const size_t dtype_index = kHasFill ? 3 : 2;
  check_layout(c, dtype_index + 1);
  std::vector<int64_t> sizes = c.int_list(1);
  check_sizes(c, sizes);
  Tensor out = Tensor::empty(c.optional_dtype(dtype_index).value_or(c.tensor(0).dtype()), sizes);
  if (kHasFill) fill_scalar(out, c.scalar(2), c.where());
  else if (Value_ > 0) fill_scalar(out, int_scalar(Value_), c.where());
  c.push(out);
}

// empty_strided(size, stride) and new_empty_strided(self, size, stride):
// storage just large enough for the strided view.
Tensor strided_tensor(const OpCall& c, const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides,
                      DType dtype) {
  check_sizes(c, sizes);
  for (int64_t stride : strides)
    if (stride < 0) fail(ErrorCode::BadInput, c.where(), "negative strides are not supported: ", shape_to_string(strides));
  if (sizes.size() != strides.size())
    fail(ErrorCode::BadInput, c.where(), "mismatch in length of strides and shape");
  const std::optional<int64_t> reach = strided_extent(sizes, strides);
  if (!reach)
    fail(ErrorCode::OutOfMemory, c.where(), "the storage for sizes ", shape_to_string(sizes), " and strides ",
         shape_to_string(strides), " has more than 2^63 elements");
  const int64_t extent = *reach;
  auto storage = Storage::allocate(storage_bytes(extent, dtype));
  return Tensor(std::move(storage), dtype, sizes, strides, 0);
}

void empty_strided_op(OpCall& c) {
  check_layout(c, 3);
  c.push(strided_tensor(c, c.int_list(0), c.int_list(1), c.optional_dtype(2).value_or(DType::Float32)));
}

void new_empty_strided_op(OpCall& c) {
  check_layout(c, 4);
  c.push(strided_tensor(c, c.int_list(1), c.int_list(2), c.optional_dtype(3).value_or(c.tensor(0).dtype())));
}

// scalar_tensor ignores the number's kind: without a dtype it is float32.
void scalar_tensor_op(OpCall& c) {
  check_layout(c, 2);
  c.push(checked_scalar_tensor(c.scalar(0), c.optional_dtype(1).value_or(DType::Float32), c.where()));
}

// ---- arange / linspace / eye ---------------------------------------------------

// ATen's arange: integer arguments give int64 unless a dtype is given, any
// float argument float32. Integral dtypes step in int64 (the arguments
// truncated), floating ones in double. The length is ceil((end-start)/step),
// computed on the truncated integers for int64 and on the arguments as
// doubles for every other dtype.
Tensor arange_tensor(const OpCall& c, const Scalar& start, const Scalar& end, const Scalar& step, size_t dtype_index) {
  check_layout(c, dtype_index + 1);
  bool integral_args = start.kind != Scalar::Kind::Double && end.kind != Scalar::Kind::Double &&
                       step.kind != Scalar::Kind::Double;
  DType dtype = c.optional_dtype(dtype_index).value_or(integral_args ? DType::Int64 : DType::Float32);
  if (dtype == DType::Bool) elementwise::fail_not_implemented_for(c, "arange_cpu", dtype);
  const bool integral = is_integral(dtype);
  int64_t size = 0;
  if (integral) {
    int64_t s0 = start.to_int(), s1 = end.to_int(), st = step.to_int();
    if (st == 0) fail(ErrorCode::BadInput, c.where(), "step must be nonzero");
    if (!((st > 0 && s1 >= s0) || (st < 0 && s1 <= s0)))
      fail(ErrorCode::BadInput, c.where(), "upper bound and larger bound inconsistent with step sign");
    if (dtype == DType::Int64) {
      // ceil(|s1 - s0| / |st|) in unsigned arithmetic: the difference of two
      // int64 values, and so the length, can pass int64's range.
      const uint64_t distance = st > 0 ? static_cast<uint64_t>(s1) - static_cast<uint64_t>(s0)
                                       : static_cast<uint64_t>(s0) - static_cast<uint64_t>(s1);
      const uint64_t stride = st > 0 ? static_cast<uint64_t>(st) : 0 - static_cast<uint64_t>(st);
      const uint64_t length = distance / stride + (distance % stride != 0 ? 1 : 0);
      if (length > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        fail(ErrorCode::BadInput, c.where(), "invalid size, possible overflow?");
      size = static_cast<int64_t>(length);
    } else {
      size = saturating_cast<int64_t>(std::ceil((end.to_double() - start.to_double()) / step.to_double()));
    }
  } else {
    double s0 = start.to_double(), s1 = end.to_double(), st = step.to_double();
    if (st == 0) fail(ErrorCode::BadInput, c.where(), "step must be nonzero");
    if (!std::isfinite(s0) || !std::isfinite(s1))
      fail(ErrorCode::BadInput, c.where(), "unsupported range: ", s0, " -> ", s1);
    if (!((st > 0 && s1 >= s0) || (st < 0 && s1 <= s0)))
      fail(ErrorCode::BadInput, c.where(), "upper bound and larger bound inconsistent with step sign");
    double size_d = std::ceil((s1 - s0) / st);
    if (!(size_d >= 0 && size_d <= 9.2e18)) fail(ErrorCode::BadInput, c.where(), "invalid size, possible overflow?");
    size = static_cast<int64_t>(size_d);
  }
  Tensor out = Tensor::empty(dtype, {size});
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* dst = out.data<T>();
    if constexpr (std::is_integral<T>::value) {
      // Every value lies between start and end, but st * i alone may not fit
      // int64: step in unsigned (modular) arithmetic, exact for what fits.
      const uint64_t s0 = static_cast<uint64_t>(start.to_int()), st = static_cast<uint64_t>(step.to_int());
      for (int64_t i = 0; i < size; ++i) dst[i] = static_cast<T>(static_cast<int64_t>(s0 + st * static_cast<uint64_t>(i)));
    } else {
      double s0 = start.to_double(), st = step.to_double();
      for (int64_t i = 0; i < size; ++i) dst[i] = convert_element<T>(s0 + st * static_cast<double>(i));
    }
  });
  return out;
}

void arange_op(OpCall& c) { c.push(arange_tensor(c, int_scalar(0), c.scalar(0), int_scalar(1), 1)); }
void arange_start_op(OpCall& c) { c.push(arange_tensor(c, c.scalar(0), c.scalar(1), int_scalar(1), 2)); }
void arange_step_op(OpCall& c) { c.push(arange_tensor(c, c.scalar(0), c.scalar(1), c.scalar(2), 3)); }

// linspace: the first half counts up from start, the second half down from
// end (as ATen does, so both ends are exact). Integral dtypes step in double
// from the truncated end points; floating ones in their own precision.
void linspace_op(OpCall& c) {
  check_layout(c, 4);
  int64_t steps = c.int_arg(2);
  if (steps < 0) fail(ErrorCode::BadInput, c.where(), "number of steps must be non-negative");
  DType dtype = c.optional_dtype(3).value_or(DType::Float32);
  if (dtype == DType::Bool) elementwise::fail_not_implemented_for(c, "linspace_cpu", dtype);
  Scalar start = c.scalar(0), end = c.scalar(1);
  Tensor out = Tensor::empty(dtype, {steps});
  if (steps == 1) fill_scalar(out, start, c.where());
  if (steps <= 1) {
    c.push(out);
    return;
  }
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using S = std::conditional_t<std::is_integral<T>::value, double, opmath_t<T>>;
    auto as_T = [](const Scalar& s) {
      return s.kind == Scalar::Kind::Double ? convert_element<T>(s.d) : convert_element<T>(s.i);
    };
    const S lo = static_cast<S>(as_T(start)), hi = static_cast<S>(as_T(end));
    S step = (hi - lo) / static_cast<S>(steps - 1);
    if constexpr (!std::is_integral<T>::value) step = static_cast<S>(convert_element<T>(step));  // rounded to T
    const int64_t halfway = steps / 2;
    T* dst = out.data<T>();
    for (int64_t i = 0; i < steps; ++i)
      dst[i] = convert_element<T>(i < halfway ? lo + step * static_cast<S>(i)
                                              : hi - step * static_cast<S>(steps - i - 1));
  });
  c.push(out);
}

Tensor eye_tensor(const OpCall& c, int64_t n, int64_t m, size_t dtype_index) {
  check_layout(c, dtype_index + 1);
  if (n < 0) fail(ErrorCode::BadInput, c.where(), "n must be greater or equal to 0, got ", n);
  if (m < 0) fail(ErrorCode::BadInput, c.where(), "m must be greater or equal to 0, got ", m);
  Tensor out = Tensor::empty(c.optional_dtype(dtype_index).value_or(DType::Float32), {n, m});
  if (out.numel() > 0) diagonal_view(out, 0, 0, 1, c.where()).copy_from(Tensor::scalar(out.dtype(), 1.0));
  return out;
}

void eye_op(OpCall& c) { c.push(eye_tensor(c, c.int_arg(0), c.int_arg(0), 1)); }
void eye_m_op(OpCall& c) { c.push(eye_tensor(c, c.int_arg(0), c.int_arg(1), 2)); }

// ---- fill / zero -----------------------------------------------------------------

Scalar fill_value(const OpCall& c) {
  if (!c.arg(1).is_tensor()) return c.scalar(1);
  const Tensor& v = c.tensor(1);
  if (v.dim() != 0)
    fail(ErrorCode::BadInput, c.where(), "fill_ only supports 0-dimension value tensor but got tensor with ", v.dim(),
         " dimensions.");
  return tensor_to_scalar(v);
}

void fill_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  Tensor out = empty_like_preserving(self, self.dtype());
  fill_scalar(out, fill_value(c), c.where());
  c.push(out);
}

void fill_inplace_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  fill_scalar(self, fill_value(c), c.where());
  c.push(self);
}

void zero_op(OpCall& c) { c.push(empty_like_preserving(c.tensor(0), c.tensor(0).dtype())); }

void zero_inplace_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  fill_scalar(self, int_scalar(0), c.where());
  c.push(self);
}

}  // namespace

void register_factory_ops(OpTable& t) {
  const std::string options = "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None";
  const std::string like = options + ", MemoryFormat? memory_format=None) -> Tensor";
  t.add("aten::full(SymInt[] size, Scalar fill_value, *, " + options + ") -> Tensor", constant_op<-1>);
  t.add("aten::zeros(SymInt[] size, *, " + options + ") -> Tensor", constant_op<0>);
  t.add("aten::ones(SymInt[] size, *, " + options + ") -> Tensor", constant_op<1>);
  t.add("aten::empty.memory_format(SymInt[] size, *, " + like, empty_op);
  t.add("aten::empty_strided(SymInt[] size, SymInt[] stride, *, " + options + ") -> Tensor", empty_strided_op);
  t.add("aten::full_like(Tensor self, Scalar fill_value, *, " + like, like_op<-1>);
  t.add("aten::zeros_like(Tensor self, *, " + like, like_op<0>);
  t.add("aten::ones_like(Tensor self, *, " + like, like_op<1>);
  t.add("aten::empty_like(Tensor self, *, " + like, like_op<-2>);
  t.add("aten::new_full(Tensor self, SymInt[] size, Scalar fill_value, *, " + options + ") -> Tensor", new_op<-1>);
  t.add("aten::new_zeros(Tensor self, SymInt[] size, *, " + options + ") -> Tensor", new_op<0>);
  t.add("aten::new_ones(Tensor self, SymInt[] size, *, " + options + ") -> Tensor", new_op<1>);
  t.add("aten::new_empty(Tensor self, SymInt[] size, *, " + options + ") -> Tensor", new_op<-2>);
  t.add("aten::new_empty_strided(Tensor self, SymInt[] size, SymInt[] stride, *, " + options + ") -> Tensor",
        new_empty_strided_op);
  t.add("aten::scalar_tensor(Scalar s, *, " + options + ") -> Tensor", scalar_tensor_op);
  t.add("aten::arange(Scalar end, *, " + options + ") -> Tensor", arange_op);
  t.add("aten::arange.start(Scalar start, Scalar end, *, " + options + ") -> Tensor", arange_start_op);
  t.add("aten::arange.start_step(Scalar start, Scalar end, Scalar step=1, *, " + options + ") -> Tensor",
        arange_step_op);
  t.add("aten::linspace(Scalar start, Scalar end, int steps, *, " + options + ") -> Tensor", linspace_op);
  t.add("aten::eye(SymInt n, *, " + options + ") -> Tensor", eye_op);
  t.add("aten::eye.m(SymInt n, SymInt m, *, " + options + ") -> Tensor", eye_m_op);
  t.add("aten::fill.Scalar(Tensor self, Scalar value) -> Tensor", fill_op);
  t.add("aten::fill.Tensor(Tensor self, Tensor value) -> Tensor", fill_op);
  t.add("aten::fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!)", fill_inplace_op);
  t.add("aten::fill_.Tensor(Tensor(a!) self, Tensor value) -> Tensor(a!)", fill_inplace_op);
  t.add("aten::zero(Tensor self) -> Tensor", zero_op);
  t.add("aten::zero_(Tensor(a!) self) -> Tensor(a!)", zero_inplace_op);
}

}  // namespace pt2web
