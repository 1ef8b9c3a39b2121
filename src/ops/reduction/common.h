// Shared machinery of the reduction and scan family (reduction/*.cpp): rearranging an input so that each output element's inputs
// (or each line along one dim) form one contiguous row, plus the small
// numeric helpers (NaN tests, accumulator types) the kernels agree on.
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "ops/op_utils.h"
#include "ops/views.h"

namespace pt2web {

// The input of a reduction, copied so that the elements folded into output
// element i are row i of a contiguous [outer, inner] block.
struct ReduceRows {
  Tensor rows;
  int64_t outer = 1;
  int64_t inner = 1;
  Shape out_shape;                // keepdim applied
  std::vector<int64_t> dims;      // wrapped, sorted reduced dims (empty for a 0-d input)
};

// `dims` as the op received it: empty means every dim (ATen's legacy rule for
// int[1]? / int[1] dim lists). The copy is converted to `dtype`.
ReduceRows make_reduce_rows(const Tensor& x, const std::vector<int64_t>& dims, bool keepdim, DType dtype,
                            const std::string& where);

// max/min/amax/argmax have no identity: ATen rejects reducing an empty dim.
void check_reduction_has_identity_or_data(const Tensor& x, const std::vector<int64_t>& wrapped_dims,
                                          bool all_dims, const std::string& where);

// out[i] = f(row i, inner) for every row; f returns something convertible to O.
template <typename T, typename O, typename F>
Tensor map_rows(const ReduceRows& r, DType out_dtype, F&& f) {
  Tensor out = Tensor::empty(out_dtype, r.out_shape);
  const T* src = r.rows.data<T>();
  O* dst = out.data<O>();
  for (int64_t i = 0; i < r.outer; ++i) dst[i] = convert_element<O>(f(src + i * r.inner, r.inner));
  return out;
}

// The lines of `x` along one dim: a contiguous copy (converted to `dtype`)
// with that dim moved last, so line i is [i * len, (i + 1) * len).
struct Lines {
  Tensor data;
  int64_t count = 1;
  int64_t len = 1;
  std::vector<int64_t> order;  // the permutation that moved `dim` last
};

Lines make_lines(const Tensor& x, int64_t dim, DType dtype, const std::string& where);

// A new tensor laid out like `lines.data` but with each line `new_len` long.
Tensor empty_like_lines(const Lines& lines, DType dtype, int64_t new_len);

// Undoes make_lines' permutation on a result laid out like its data (the
// last dim may have another length); returns a contiguous tensor.
Tensor restore_line_order(const Tensor& moved, const Lines& lines);

template <typename M>
inline bool is_nan_value(M v) {
  if constexpr (std::is_floating_point<M>::value) return std::isnan(v);
  else return false;
}

// The type sums and scans accumulate in: double for every floating type
// (ATen's CPU accumulation type for float is double; for 16-bit floats
// accumulating wider only removes rounding), uint64 for integers (wraps like
// two's complement), bool for bool.
template <typename T>
using sum_acc_t = std::conditional_t<
    is_floating_type_v<T>, double,
    std::conditional_t<std::is_same<T, bool>::value, bool, uint64_t>>;

template <typename Acc, typename T>
inline Acc to_acc(T v) {
  if constexpr (std::is_same<Acc, uint64_t>::value) return static_cast<uint64_t>(static_cast<int64_t>(v));
  else return convert_element<Acc>(v);
}

template <typename T, typename Acc>
inline T from_acc(Acc v) {
  if constexpr (std::is_same<Acc, uint64_t>::value && !std::is_same<T, bool>::value) return static_cast<T>(v);
  else return convert_element<T>(v);
}

// int64 for integer and bool inputs, else the input's dtype: the default
// result dtype of sum, prod, cumsum and cumprod.
inline DType sum_result_dtype(DType input, std::optional<DType> requested) {
  if (requested) return *requested;
  return is_integral(input) || input == DType::Bool ? DType::Int64 : input;
}

}  // namespace pt2web
