#include "ops/op_utils.h"

#include <algorithm>

#include "ops/existing_dim.h"

namespace pt2web {

int64_t wrap_dim(int64_t dim, int64_t rank, const char* op) {
  int64_t r = rank == 0 ? 1 : rank;
  if (dim < -r || dim >= r)
    fail(ErrorCode::BadInput, op, "Dimension out of range (expected to be in range of [", -r, ", ", r - 1,
         "], but got ", dim, ")");
  return dim < 0 ? dim + r : dim;
}

int64_t existing_dim(const Tensor& t, int64_t dim, const std::string& where) {
  if (t.dim() == 0) fail(ErrorCode::BadInput, where, "dimension specified as ", dim, " but tensor has no dimensions");
  return wrap_dim(dim, t.dim(), where.c_str());
}

std::vector<int64_t> wrap_dims(const std::vector<int64_t>& dims, int64_t rank, const char* op) {
  std::vector<int64_t> out;
  if (dims.empty()) {
    for (int64_t d = 0; d < rank; ++d) out.push_back(d);
    return out;
  }
  for (int64_t d : dims) out.push_back(wrap_dim(d, rank, op));
  std::sort(out.begin(), out.end());
  if (std::adjacent_find(out.begin(), out.end()) != out.end())
    fail(ErrorCode::BadInput, op, "a dimension appears more than once in the list of dims");
  return out;
}

Tensor scalar_tensor(const Scalar& s, DType dtype) {
  if (is_complex(dtype)) return Tensor::scalar(dtype, s.to_double());
  Tensor t = Tensor::empty(dtype, {});
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (s.kind == Scalar::Kind::Double) *t.data<T>() = convert_element<T>(s.d);
    else *t.data<T>() = convert_element<T>(s.i);
  });
  return t;
}

Tensor assign_in_place(const Tensor& target, const Tensor& value) {
  target.copy_from(value);
  return target;
}

void repeat_single(std::vector<int64_t>& v, size_t n) {
  if (v.size() != 1) return;
  const int64_t value = v[0];
  v.assign(n, value);
}

}  // namespace pt2web
