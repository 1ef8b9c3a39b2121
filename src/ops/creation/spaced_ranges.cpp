// Factories beyond creation.cpp's: the tensor-argument overloads of linspace
// (through the Scalar one in the op table), logspace, tril_indices /
// triu_indices and empty_permuted. Options (dtype, layout, device,
// pin_memory) are read as in creation.cpp: dtype picks the element type,
// the others do not matter on this CPU-only runtime.
#include <cmath>

#include <algorithm>

#include "ops/elementwise.h"
#include "ops/creation/creation.h"
#include "ops/op_compose.h"
#include "ops/op_utils.h"
#include "ops/shape_indexing.h"
#include "ops/views.h"

namespace pt2web {

namespace {

// A start/end argument of the Tensor overloads: a 0-d tensor, read as a number.
Scalar endpoint(const OpCall& c, size_t index, const char* op) {
  const Value& v = c.arg(index);
  if (!v.is_tensor()) return c.scalar(index);
  const Tensor& start = c.arg(0).is_tensor() ? c.tensor(0) : Tensor();
  const Tensor& end = c.arg(1).is_tensor() ? c.tensor(1) : Tensor();
  if ((start.defined() && start.dim() != 0) || (end.defined() && end.dim() != 0))
    fail(ErrorCode::BadInput, c.where(), op, " only supports 0-dimensional start and end tensors, but got start with ",
         start.defined() ? start.dim() : 0, " dimension(s) and end with ", end.defined() ? end.dim() : 0,
         " dimension(s).");
  return tensor_to_scalar(v.tensor);
}

// linspace.Tensor_Tensor / Scalar_Tensor / Tensor_Scalar: the Scalar overload on the endpoints' values.
void linspace_tensor_op(OpCall& c) {
  std::vector<Value> args{arg(endpoint(c, 0, "linspace")), arg(endpoint(c, 1, "linspace"))};
  for (size_t i = 2; i < c.num_args(); ++i) args.push_back(c.arg(i));
  c.push(run_op1("aten::linspace.default", std::move(args)));
}

// logspace(start, end, steps, base): base ** (evenly spaced exponents). As in
// ATen, the first half of the exponents counts up from start and the second
// down from end (in double for floating dtypes, float for integral ones,
// whose results are truncated).
Tensor logspace(const OpCall& c, const Scalar& start, const Scalar& end, int64_t steps, double base,
                std::optional<DType> requested) {
  if (steps < 0) fail(ErrorCode::BadInput, c.where(), "number of steps must be non-negative");
  const DType dtype = requested.value_or(DType::Float32);
  if (dtype == DType::Bool) elementwise::fail_not_implemented_for(c, "logspace_cpu", dtype);
  if (is_complex(dtype)) fail(ErrorCode::Unsupported, c.where(), "complex logspace is not supported");
  Tensor out = Tensor::empty(dtype, {steps});
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using S = std::conditional_t<std::is_integral<T>::value, float, double>;
    auto as_T = [](const Scalar& s) {
      return s.kind == Scalar::Kind::Double ? convert_element<T>(s.d) : convert_element<T>(s.i);
    };
    T* dst = out.data<T>();
    if (steps == 1) {
      dst[0] = convert_element<T>(std::pow(base, start.to_double()));
      return;
    }
    const S lo = static_cast<S>(as_T(start)), hi = static_cast<S>(as_T(end)), b = static_cast<S>(base);
    const S step = static_cast<S>(hi - lo) / static_cast<S>(steps - 1);
    const int64_t halfway = steps / 2;
    for (int64_t i = 0; i < steps; ++i)
      dst[i] = convert_element<T>(i < halfway ? std::pow(b, lo + step * static_cast<S>(i))
                                              : std::pow(b, hi - step * static_cast<S>(steps - i - 1)));
  });
  return out;
}

void logspace_op(OpCall& c) {
  c.push(logspace(c, endpoint(c, 0, "logspace"), endpoint(c, 1, "logspace"), c.int_arg(2), c.double_arg(3),
                  c.optional_dtype(4)));
}

// tril_indices / triu_indices(row, col, offset): [2, N] coordinates of the
// lower (upper) triangle of a row x col matrix, row by row.
template <bool Lower>
void triangle_indices_op(OpCall& c) {
  const int64_t rows = c.int_arg(0), cols = c.int_arg(1), offset = c.int_arg(2);
  if (rows < 0) fail(ErrorCode::BadInput, c.where(), "row must be non-negative, got", rows);
  if (cols < 0) fail(ErrorCode::BadInput, c.where(), "col must be non-negative, got", cols);
  const DType dtype = c.optional_dtype(3).value_or(DType::Int64);
  if (dtype != DType::Int64 && dtype != DType::Int32)
    elementwise::fail_not_implemented_for(c, Lower ? "tril_indices" : "triu_indices", dtype);
  // Row i holds columns [first, last): j - i <= offset (lower) or >= offset (upper).
  // (The count is summed row by row, so rows are capped where that stays fast.)
  if (rows > (int64_t(1) << 26))
    fail(ErrorCode::Unsupported, c.where(), "more than 2^26 rows (", rows, ")");
  auto columns = [&](int64_t i) -> std::pair<int64_t, int64_t> {
    const long double edge = static_cast<long double>(i) + static_cast<long double>(offset);
    auto clamp = [&](long double v) { return static_cast<int64_t>(std::min<long double>(std::max<long double>(v, 0), cols)); };
    return Lower ? std::make_pair(int64_t(0), clamp(edge + 1)) : std::make_pair(clamp(edge), cols);
  };
  int64_t n = 0;
  for (int64_t i = 0; i < rows; ++i) {
    const auto [first, last] = columns(i);
    if (last > first && __builtin_add_overflow(n, last - first, &n))
      fail(ErrorCode::BadInput, c.where(), "more than 2^63 indices");
  }
  Tensor out = Tensor::empty(DType::Int64, {2, n});  // the size is checked here, before filling
  int64_t* row_out = out.data<int64_t>();
  int64_t* col_out = row_out + n;
  for (int64_t i = 0; i < rows; ++i) {
    const auto [first, last] = columns(i);
    for (int64_t j = first; j < last; ++j) {
      *row_out++ = i;
      *col_out++ = j;
    }
  }
  c.push(out.to(dtype));
}

// empty_permuted(size, physical_layout): dims laid out in memory in the
// order physical_layout lists them (zero-filled, one of the values ATen's
// uninitialized memory may hold).
void empty_permuted_op(OpCall& c) {
  const std::vector<int64_t> size = c.int_list(0), layout = c.int_list(1);
  if (size.size() != layout.size())
    fail(ErrorCode::BadInput, c.where(), "Number of dimensions in size does not match the length of the physical_layout");
  std::vector<bool> seen(size.size(), false);
  Shape physical;
  for (int64_t d : layout) {
    if (d < 0 || d >= static_cast<int64_t>(size.size()) || seen[d])
      fail(ErrorCode::BadInput, c.where(), "Dimension ", d, " appears multiple times in physical_layout");
    if (size[d] < 0)
      fail(ErrorCode::BadInput, c.where(), "Trying to create tensor with negative dimension ", size[d], ": ",
           shape_to_string(size));
    seen[d] = true;
    physical.push_back(size[d]);
  }
  std::vector<int64_t> inverse(layout.size());
  for (size_t i = 0; i < layout.size(); ++i) inverse[layout[i]] = static_cast<int64_t>(i);
  Tensor storage = Tensor::empty(c.optional_dtype(2).value_or(DType::Float32), physical);
  c.push(size.empty() ? storage : permute_view(storage, inverse));
}

}  // namespace

void register_spaced_range_ops(OpTable& t) {
  const std::string options = "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None";
  t.add("aten::linspace.Tensor_Tensor(Tensor start, Tensor end, int steps, *, " + options + ") -> Tensor",
        linspace_tensor_op);
  t.add("aten::linspace.Tensor_Scalar(Tensor start, Scalar end, int steps, *, " + options + ") -> Tensor",
        linspace_tensor_op);
  t.add("aten::linspace.Scalar_Tensor(Scalar start, Tensor end, int steps, *, " + options + ") -> Tensor",
        linspace_tensor_op);
  t.add("aten::logspace(Scalar start, Scalar end, int steps, float base=10.0, *, " + options + ") -> Tensor",
        logspace_op);
  t.add("aten::logspace.Tensor_Tensor(Tensor start, Tensor end, int steps, float base=10.0, *, " + options +
            ") -> Tensor",
        logspace_op);
  t.add("aten::logspace.Tensor_Scalar(Tensor start, Scalar end, int steps, float base=10.0, *, " + options +
            ") -> Tensor",
        logspace_op);
  t.add("aten::logspace.Scalar_Tensor(Scalar start, Tensor end, int steps, float base=10.0, *, " + options +
            ") -> Tensor",
        logspace_op);
  const std::string long_options =
      "ScalarType? dtype=long, Layout? layout=None, Device? device=None, bool? pin_memory=None";
  t.add("aten::tril_indices(int row, int col, int offset=0, *, " + long_options + ") -> Tensor",
        triangle_indices_op<true>);
  t.add("aten::triu_indices(int row, int col, int offset=0, *, " + long_options + ") -> Tensor",
        triangle_indices_op<false>);
  t.add("aten::empty_permuted(SymInt[] size, int[] physical_layout, *, " + options + ") -> Tensor", empty_permuted_op);
}

}  // namespace pt2web
