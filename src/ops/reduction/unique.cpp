// _unique2(self, sorted, return_inverse, return_counts): the distinct
// elements of self in ascending order (ATen's CPU kernel sorts whatever
// `sorted` says), each element's position among them (self's shape, or an
// empty tensor unless asked for) and how often each occurs (likewise). NaNs
// never equal each other, so each is its own entry, after every number.
// The output's length depends on the data: it is sized at run time.
#include <algorithm>
#include <numeric>

#include "ops/reduction/common.h"
#include "ops/shape_indexing.h"
#include "ops/reduction/reduction.h"

namespace pt2web {

namespace {

void unique2_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  const bool want_inverse = c.bool_arg(2), want_counts = c.bool_arg(3);
  const Tensor flat = self.contiguous();
  const int64_t n = flat.numel();
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), int64_t(0));
  std::vector<int64_t> inverse(static_cast<size_t>(n)), first_of_group, counts;
  visit_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = opmath_t<T>;
    const T* src = flat.data<T>();
    auto value = [&](int64_t i) { return static_cast<M>(src[i]); };
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      const bool nan_a = is_nan_value(value(a)), nan_b = is_nan_value(value(b));
      if (nan_a || nan_b) return !nan_a && nan_b;
      return value(a) < value(b);
    });
    for (int64_t k = 0; k < n; ++k) {
      const int64_t i = order[k];
      if (k == 0 || !(value(order[k - 1]) == value(i))) {
        first_of_group.push_back(i);
        counts.push_back(0);
      }
      ++counts.back();
      inverse[i] = static_cast<int64_t>(first_of_group.size()) - 1;
    }
  });
  const int64_t groups = static_cast<int64_t>(first_of_group.size());
  Tensor output = Tensor::empty(self.dtype(), {groups});
  visit_element_size(self.dtype(), [&](auto tag) {
    using U = typename decltype(tag)::type;
    for (int64_t g = 0; g < groups; ++g) output.data<U>()[g] = flat.data<U>()[first_of_group[g]];
  });
  Tensor inverse_out = Tensor::empty(DType::Int64, want_inverse ? self.sizes() : Shape{0});
  if (want_inverse) std::copy(inverse.begin(), inverse.end(), inverse_out.data<int64_t>());
  Tensor counts_out = Tensor::empty(DType::Int64, {want_counts ? groups : 0});
  if (want_counts) std::copy(counts.begin(), counts.end(), counts_out.data<int64_t>());
  c.push(output);
  c.push(inverse_out);
  c.push(counts_out);
}

}  // namespace

void register_unique_ops(OpTable& t) {
  t.add("aten::_unique2(Tensor self, bool sorted=True, bool return_inverse=False, bool return_counts=False) -> "
        "(Tensor, Tensor, Tensor)",
        unique2_op);
}

}  // namespace pt2web
