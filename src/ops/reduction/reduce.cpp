// Reductions and scans. This file holds the shared row/line layout helpers
// and the additive reductions: sum, nansum, mean, prod, any, all,
// count_nonzero. The rest of the family lives in minmax.cpp
// (max/min/arg*), stats.cpp (var/std/norms/logsumexp),
// scan.cpp (cumsum/cumprod/cummax), sort.cpp
// (sort/argsort/topk) and softmax.cpp.
#include "ops/complex/complex.h"
#include "ops/complex/complex_arithmetic.h"
#include "ops/reduction/reduction.h"
#include "ops/reduction/common.h"

namespace pt2web {

ReduceRows make_reduce_rows(const Tensor& x, const std::vector<int64_t>& dims, bool keepdim, DType dtype,
                            const std::string& where) {
  ReduceRows r;
  const int64_t rank = x.dim();
  std::vector<bool> reduced(static_cast<size_t>(rank), false);
  if (rank == 0) {
    for (int64_t d : dims) wrap_dim(d, 0, where.c_str());  // only 0 and -1 are valid
  } else {
    r.dims = wrap_dims(dims, rank, where.c_str());
    for (int64_t d : r.dims) reduced[d] = true;
  }
  std::vector<int64_t> order;
  for (int64_t d = 0; d < rank; ++d) {
    if (reduced[d]) {
      if (keepdim) r.out_shape.push_back(1);
      continue;
    }
    order.push_back(d);
    r.out_shape.push_back(x.sizes()[d]);
    r.outer *= x.sizes()[d];
  }
  for (int64_t d : r.dims) {
    order.push_back(d);
    r.inner *= x.sizes()[d];
  }
  r.rows = permute_view(x, order).to(dtype);
  return r;
}

void check_reduction_has_identity_or_data(const Tensor& x, const std::vector<int64_t>& wrapped_dims,
                                          bool all_dims, const std::string& where) {
  if (x.numel() != 0) return;
  if (all_dims)
    fail(ErrorCode::BadInput, where,
         "Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the "
         "'dim' argument.");
  for (int64_t d : wrapped_dims)
    if (x.sizes()[d] == 0) fail(ErrorCode::BadInput, where, "Expected reduction dim ", d, " to have non-zero size.");
}

Lines make_lines(const Tensor& x, int64_t dim, DType dtype, const std::string& where) {
  Lines l;
  const int64_t rank = x.dim();
  const int64_t d = wrap_dim(dim, rank, where.c_str());
  if (rank == 0) {
    l.data = x.to(dtype);
    return l;
  }
  for (int64_t i = 0; i < rank; ++i)
    if (i != d) l.order.push_back(i);
  l.order.push_back(d);
  l.data = permute_view(x, l.order).to(dtype);
  l.len = x.sizes()[d];
  l.count = 1;
  for (int64_t i = 0; i < rank; ++i)
    if (i != d) l.count *= x.sizes()[i];
  return l;
}

Tensor empty_like_lines(const Lines& lines, DType dtype, int64_t new_len) {
  Shape shape = lines.data.sizes();
  if (!shape.empty()) shape.back() = new_len;
  return Tensor::empty(dtype, shape);
}

Tensor restore_line_order(const Tensor& moved, const Lines& lines) {
  if (lines.order.empty()) return moved;
  std::vector<int64_t> inverse(lines.order.size());
  for (size_t i = 0; i < lines.order.size(); ++i) inverse[lines.order[i]] = static_cast<int64_t>(i);
  return permute_view(moved, inverse).contiguous();
}

namespace {

// The dims of a `int[1]? dim` argument: None and [] both mean every dim.
std::vector<int64_t> dims_arg(const OpCall& c, size_t index) {
  auto dims = c.optional_int_list(index);
  return dims ? *dims : std::vector<int64_t>{};
}

// Sum of one row in the wide accumulator; SkipNaN gives nansum.
template <bool SkipNaN, typename T>
T sum_row(const T* p, int64_t n) {
  using Acc = sum_acc_t<T>;
  Acc acc = Acc(0);
  for (int64_t i = 0; i < n; ++i) {
    if constexpr (SkipNaN && is_floating_type_v<T>)
      if (std::isnan(convert_element<double>(p[i]))) continue;
    if constexpr (std::is_same<Acc, bool>::value) acc = acc || static_cast<bool>(p[i]);
    else acc += to_acc<Acc>(p[i]);
  }
  return from_acc<T>(acc);
}

template <bool SkipNaN>
Tensor sum_impl(const Tensor& x, const std::vector<int64_t>& dims, bool keepdim, std::optional<DType> dtype,
                const std::string& where) {
  if (is_complex(x.dtype()) && SkipNaN) fail(ErrorCode::BadInput, where, "nansum does not support complex inputs");
  if (is_complex(x.dtype()))
    return reduce_complex_parts(x, dims, [&](const Tensor& parts, const std::vector<int64_t>& d) {
      return sum_impl<SkipNaN>(parts, d, keepdim, dtype ? std::optional<DType>(complex_to_real_dtype(*dtype)) : dtype, where);
    });
  DType out_dtype = sum_result_dtype(x.dtype(), dtype);
  ReduceRows r = make_reduce_rows(x, dims, keepdim, out_dtype, where);
  Tensor out;
  visit_dtype(out_dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    out = map_rows<T, T>(r, out_dtype, [](const T* p, int64_t n) { return sum_row<SkipNaN>(p, n); });
  });
  return out;
}

void sum_all(OpCall& c) { c.push(sum_impl<false>(c.tensor(0), {}, false, c.optional_dtype(1), c.where())); }
void sum_dims(OpCall& c) {
  c.push(sum_impl<false>(c.tensor(0), dims_arg(c, 1), c.bool_arg(2), c.optional_dtype(3), c.where()));
}
void nansum_op(OpCall& c) {
  c.push(sum_impl<true>(c.tensor(0), dims_arg(c, 1), c.bool_arg(2), c.optional_dtype(3), c.where()));
}

// mean needs a floating result; it sums in double and divides before the one
// rounding to the output type (ATen also sums 16-bit floats in float32).
Tensor mean_impl(const Tensor& x, const std::vector<int64_t>& dims, bool keepdim, std::optional<DType> dtype,
                 const std::string& where) {
  if (is_complex(x.dtype()))
    return reduce_complex_parts(x, dims, [&](const Tensor& parts, const std::vector<int64_t>& d) {
      return mean_impl(parts, d, keepdim, dtype ? std::optional<DType>(complex_to_real_dtype(*dtype)) : dtype, where);
    });
  DType out_dtype = dtype ? *dtype : x.dtype();
  if (!is_floating(out_dtype))
    fail(ErrorCode::BadInput, where, "mean(): could not infer output dtype. ",
         dtype ? "Optional dtype" : "Input dtype", " must be either a floating point or complex dtype. Got: ",
         dtype_name(out_dtype));
  ReduceRows r = make_reduce_rows(x, dims, keepdim, out_dtype, where);
  Tensor out;
  visit_floating_dtype(out_dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    out = map_rows<T, T>(r, out_dtype, [](const T* p, int64_t n) {
      double acc = 0.0;
      for (int64_t i = 0; i < n; ++i) acc += convert_element<double>(p[i]);
      return convert_element<T>(acc / static_cast<double>(n));
    });
  });
  return out;
}

void mean_all(OpCall& c) { c.push(mean_impl(c.tensor(0), {}, false, c.optional_dtype(1), c.where())); }
void mean_dims(OpCall& c) {
  c.push(mean_impl(c.tensor(0), dims_arg(c, 1), c.bool_arg(2), c.optional_dtype(3), c.where()));
}

// Products multiply in the compute type itself (float for 16-bit floats),
// so overflow to inf happens where it does in ATen; integers wrap.
template <typename T>
T prod_row(const T* p, int64_t n) {
  if constexpr (std::is_same<T, bool>::value) {
    for (int64_t i = 0; i < n; ++i)
      if (!p[i]) return false;
    return true;
  } else if constexpr (is_floating_type_v<T>) {
    opmath_t<T> acc = 1;
    for (int64_t i = 0; i < n; ++i) acc *= static_cast<opmath_t<T>>(p[i]);
    return convert_element<T>(acc);
  } else {
    uint64_t acc = 1;
    for (int64_t i = 0; i < n; ++i) acc *= to_acc<uint64_t>(p[i]);
    return from_acc<T>(acc);
  }
}

Tensor prod_impl(const Tensor& x, const std::vector<int64_t>& dims, bool keepdim, std::optional<DType> dtype,
                 const std::string& where) {
  DType out_dtype = sum_result_dtype(x.dtype(), dtype);
  ReduceRows r = make_reduce_rows(x, dims, keepdim, out_dtype, where);
  Tensor out;
  visit_dtype(out_dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    out = map_rows<T, T>(r, out_dtype, [](const T* p, int64_t n) { return prod_row(p, n); });
  });
  return out;
}

void prod_all(OpCall& c) { c.push(prod_impl(c.tensor(0), {}, false, c.optional_dtype(1), c.where())); }
void prod_dim(OpCall& c) {
  c.push(prod_impl(c.tensor(0), {c.int_arg(1)}, c.bool_arg(2), c.optional_dtype(3), c.where()));
}

// any/all give bool, except that uint8 inputs keep uint8 (ATen keeps this for
// backward compatibility). NaN counts as true.
template <bool IsAll>
Tensor any_all_impl(const Tensor& x, const std::vector<int64_t>& dims, bool keepdim, const std::string& where) {
  DType out_dtype = x.dtype() == DType::UInt8 ? DType::UInt8 : DType::Bool;
  ReduceRows r = make_reduce_rows(x, dims, keepdim, x.dtype(), where);
  Tensor out;
  visit_dtype(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto reduce = [&](auto out_tag) {
      using O = typename decltype(out_tag)::type;
      out = map_rows<T, O>(r, out_dtype, [](const T* p, int64_t n) {
        for (int64_t i = 0; i < n; ++i)
          if (convert_element<bool>(p[i]) != IsAll) return !IsAll;
        return IsAll;
      });
    };
    if (out_dtype == DType::UInt8) reduce(TypeTag<uint8_t>{});
    else reduce(TypeTag<bool>{});
  });
  return out;
}

template <bool IsAll>
void any_all_all(OpCall& c) { c.push(any_all_impl<IsAll>(c.tensor(0), {}, false, c.where())); }
template <bool IsAll>
void any_all_dim(OpCall& c) { c.push(any_all_impl<IsAll>(c.tensor(0), {c.int_arg(1)}, c.bool_arg(2), c.where())); }
template <bool IsAll>
void any_all_dims(OpCall& c) { c.push(any_all_impl<IsAll>(c.tensor(0), dims_arg(c, 1), c.bool_arg(2), c.where())); }

Tensor count_nonzero_impl(const Tensor& x, const std::vector<int64_t>& dims, const std::string& where) {
  ReduceRows r = make_reduce_rows(x, dims, false, x.dtype(), where);
  Tensor out;
  visit_dtype(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    out = map_rows<T, int64_t>(r, DType::Int64, [](const T* p, int64_t n) {
      int64_t count = 0;
      for (int64_t i = 0; i < n; ++i) count += convert_element<bool>(p[i]) ? 1 : 0;
      return count;
    });
  });
  return out;
}

void count_nonzero_dims(OpCall& c) { c.push(count_nonzero_impl(c.tensor(0), c.int_list(1), c.where())); }
void count_nonzero_opt(OpCall& c) {
  auto dim = c.optional_int(1);
  c.push(count_nonzero_impl(c.tensor(0), dim ? std::vector<int64_t>{*dim} : std::vector<int64_t>{}, c.where()));
}

}  // namespace

void register_reduce_ops(OpTable& t) {
  t.add("aten::sum(Tensor self, *, ScalarType? dtype=None) -> Tensor", sum_all);
  t.add("aten::sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
        sum_dims);
  t.add("aten::nansum(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
        nansum_op);
  t.add("aten::mean(Tensor self, *, ScalarType? dtype=None) -> Tensor", mean_all);
  t.add("aten::mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
        mean_dims);
  t.add("aten::prod(Tensor self, *, ScalarType? dtype=None) -> Tensor", prod_all);
  t.add("aten::prod.dim_int(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
        prod_dim);
  t.add("aten::any(Tensor self) -> Tensor", any_all_all<false>);
  t.add("aten::any.dim(Tensor self, int dim, bool keepdim=False) -> Tensor", any_all_dim<false>);
  t.add("aten::any.dims(Tensor self, int[]? dim=None, bool keepdim=False) -> Tensor", any_all_dims<false>);
  t.add("aten::all(Tensor self) -> Tensor", any_all_all<true>);
  t.add("aten::all.dim(Tensor self, int dim, bool keepdim=False) -> Tensor", any_all_dim<true>);
  t.add("aten::all.dims(Tensor self, int[]? dim=None, bool keepdim=False) -> Tensor", any_all_dims<true>);
  t.add("aten::count_nonzero.dim_IntList(Tensor self, int[] dim) -> Tensor", count_nonzero_dims);
  t.add("aten::count_nonzero(Tensor self, int? dim=None) -> Tensor", count_nonzero_opt);
}

}  // namespace pt2web
