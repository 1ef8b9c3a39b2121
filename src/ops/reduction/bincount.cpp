// bincount(self, weights=None, minlength=0): how often each non-negative
// integer of a 1-D integer tensor occurs, or the sum of the weights at its
// positions, in max(self) + 1 bins (at least minlength). As ATen's CPU
// kernel: without weights the counts are int64; float32 weights sum in
// float32, any other weights are converted to float64 and sum in float64;
// an empty input gives minlength int64 zeros, weights or not.
#include <limits>

#include "ops/reduction/common.h"
#include "ops/reduction/reduction.h"
#include "ops/shape_indexing.h"

namespace pt2web {

namespace {

void bincount_op(OpCall& c) {
  const std::string where = c.where();
  const Tensor& self = c.tensor(0);
  const Tensor weights = c.optional_tensor(1);
  const int64_t minlength = c.int_arg(2);
  if (!is_integral(self.dtype()))
    fail(ErrorCode::BadInput, where, "\"bincount_cpu\" not implemented for '", dtype_name(self.dtype()), "'");
  if (minlength < 0) fail(ErrorCode::BadInput, where, "minlength should be >= 0");
  if (self.dim() == 1 && self.numel() == 0) {
    c.push(Tensor::empty(DType::Int64, {minlength}));
    return;
  }
  const std::string not_counts = "bincount only supports 1-d non-negative integral inputs.";
  if (self.dim() != 1) fail(ErrorCode::BadInput, where, not_counts);
  const std::vector<int64_t> values = read_indices(self.to(DType::Int64), false, where);
  int64_t bins = minlength;
  for (int64_t v : values) {
    if (v < 0) fail(ErrorCode::BadInput, where, not_counts);
    // v + 1 bins hold v; at int64's largest value no memory could.
    if (v == std::numeric_limits<int64_t>::max())
      fail(ErrorCode::OutOfMemory, where, "bincount of the value ", v, " needs 2^63 bins");
    bins = std::max(bins, v + 1);
  }
  if (weights.defined() && (weights.dim() != 1 || weights.sizes()[0] != self.sizes()[0]))
    fail(ErrorCode::BadInput, where, "weights should be 1-d and have the same length as input");
  if (!weights.defined()) {
    Tensor counts = Tensor::empty(DType::Int64, {bins});
    for (int64_t v : values) ++counts.data<int64_t>()[v];
    c.push(counts);
    return;
  }
  const DType sum_dtype = weights.dtype() == DType::Float32 ? DType::Float32 : DType::Float64;
  const Tensor w = weights.to(sum_dtype);
  Tensor sums = Tensor::empty(sum_dtype, {bins});
  auto accumulate = [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* wp = w.data<T>();
    T* out = sums.data<T>();
    for (size_t i = 0; i < values.size(); ++i) out[values[i]] += wp[i];
  };
  if (sum_dtype == DType::Float32) accumulate(TypeTag<float>{});
  else accumulate(TypeTag<double>{});
  c.push(sums);
}

}  // namespace

void register_bincount_ops(OpTable& t) {
  t.add("aten::bincount(Tensor self, Tensor? weights=None, SymInt minlength=0) -> Tensor", bincount_op);
}

}  // namespace pt2web
