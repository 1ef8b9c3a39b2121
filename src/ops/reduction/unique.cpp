// Deduplicating, as ATen's CPU kernels do it. Each returns (values,
// inverse, counts); the number of values depends on the data, so outputs
// are sized at run time. Values compare with ==, so NaNs never equal each
// other (and -0 equals 0).
// - _unique2(self, sorted, return_inverse, return_counts): the distinct
//   elements in ascending order (sorted whatever `sorted` says), NaNs after
//   every number; each element's group (self's shape) and each group's
//   size, or empty tensors unless asked for.
// - unique_consecutive(self, return_inverse, return_counts, dim=None):
//   without a dim (or dim 0 of a 1-D tensor), each run of equal neighbours
//   in the flattened tensor becomes one element; inverse and counts as above.
// - unique_dim(self, dim, sorted, return_inverse, return_counts) and
//   unique_dim_consecutive(self, dim, return_inverse, return_counts): the
//   same over the slices along `dim` (all elements equal), unique_dim first
//   sorting the slices lexicographically (libstdc++'s std::sort, as ATen).
//   Inverse (one entry per slice) and counts are always computed. The
//   result is ATen's moveaxis view of the stacked slices, strides included.
#include <algorithm>
#include <numeric>

#include "ops/reduction/common.h"
#include "ops/reduction/gnu_order.h"
#include "ops/reduction/reduction.h"
#include "ops/shape_indexing.h"
#include "ops/views.h"

namespace pt2web {

namespace {

// Runs of equal neighbours in `order` (positions): each run's first
// position, its length, and every position's run.
struct Groups {
  std::vector<int64_t> first, counts, inverse;
};

template <typename Same>
Groups group_consecutive(const std::vector<int64_t>& order, Same same) {
  Groups g;
  g.inverse.resize(order.size());
  for (size_t k = 0; k < order.size(); ++k) {
    const int64_t i = order[k];
    if (k == 0 || !same(g.first.back(), i)) {
      g.first.push_back(i);
      g.counts.push_back(0);
    }
    ++g.counts.back();
    g.inverse[static_cast<size_t>(i)] = static_cast<int64_t>(g.first.size()) - 1;
  }
  return g;
}

std::vector<int64_t> positions(int64_t n) {
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), int64_t(0));
  return order;
}

Tensor int64_tensor(const std::vector<int64_t>& values, const Shape& shape) {
  Tensor t = Tensor::empty(DType::Int64, shape);
  std::copy(values.begin(), values.end(), t.data<int64_t>());
  return t;
}

// Pushes (each group's element of `flat`, inverse in `self`'s shape, counts),
// inverse and counts empty unless asked for: _unique2's and unique_consecutive's results.
void push_element_groups(OpCall& c, const Tensor& self, const Tensor& flat, const Groups& g, bool want_inverse,
                         bool want_counts) {
  const int64_t groups = static_cast<int64_t>(g.first.size());
  Tensor output = Tensor::empty(self.dtype(), {groups});
  visit_element_size(self.dtype(), [&](auto tag) {
    using U = typename decltype(tag)::type;
    for (int64_t k = 0; k < groups; ++k) output.data<U>()[k] = flat.data<U>()[g.first[k]];
  });
  c.push(output);
  c.push(want_inverse ? int64_tensor(g.inverse, self.sizes()) : Tensor::empty(DType::Int64, {0}));
  c.push(want_counts ? int64_tensor(g.counts, {groups}) : Tensor::empty(DType::Int64, {0}));
}

// The grouping of the flattened tensor's elements, in `order` (sorted or as they are).
Groups element_groups(const Tensor& flat, bool sort_first) {
  std::vector<int64_t> order = positions(flat.numel());
  Groups g;
  visit_dtype(flat.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = opmath_t<T>;
    const T* src = flat.data<T>();
    auto value = [&](int64_t i) { return static_cast<M>(src[i]); };
    if (sort_first)
      std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
        const bool nan_a = is_nan_value(value(a)), nan_b = is_nan_value(value(b));
        if (nan_a || nan_b) return !nan_a && nan_b;
        return value(a) < value(b);
      });
    g = group_consecutive(order, [&](int64_t a, int64_t b) { return value(a) == value(b); });
  });
  return g;
}

void unique2_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  const Tensor flat = self.contiguous();
  push_element_groups(c, self, flat, element_groups(flat, true), c.bool_arg(2), c.bool_arg(3));
}

// unique_consecutive over the flattened tensor.
void unique_runs(OpCall& c, const Tensor& self, bool want_inverse, bool want_counts) {
  const Tensor flat = self.contiguous();
  push_element_groups(c, self, flat, element_groups(flat, false), want_inverse, want_counts);
}

// The slices of `self` along `dim` as rows: a contiguous copy with dim moved
// first, and the permutation that moved it.
struct Slices {
  Tensor rows;                    // [len, width] elements, contiguous
  std::vector<int64_t> moved;     // moved[i] is the dim of self at position i
  int64_t len = 0, width = 0;
};

Slices slices_along(const Tensor& self, int64_t dim) {
  Slices s;
  s.moved.push_back(dim);
  for (int64_t d = 0; d < self.dim(); ++d)
    if (d != dim) s.moved.push_back(d);
  s.rows = permute_view(self, s.moved).contiguous();
  s.len = self.sizes()[dim];
  s.width = s.len == 0 ? 0 : self.numel() / s.len;
  return s;
}

// unique_dim and unique_dim_consecutive.
void unique_slices(OpCall& c, const Tensor& self, int64_t dim_arg, bool sort_first) {
  const std::string where = c.where();
  if (self.dim() == 0) fail(ErrorCode::BadInput, where, "dim ", dim_arg, " is out of range for a 0-d tensor");
  const int64_t dim = wrap_dim(dim_arg, self.dim(), where.c_str());
  if (self.numel() == 0) {
    const auto zero_dims = std::count(self.sizes().begin(), self.sizes().end(), int64_t(0));
    if (zero_dims != 1)
      fail(ErrorCode::BadInput, where, "Number of zero sized dimensions is more than one, so unique cannot be applied");
    if (self.sizes()[dim] != 0)
      fail(ErrorCode::BadInput, where, "There are 0 sized dimensions, and they aren't selected, so unique cannot be applied");
  }
  Slices s = slices_along(self, dim);
  std::vector<int64_t> order = positions(s.len);
  Groups g;
  visit_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = opmath_t<T>;
    const T* rows = s.rows.data<T>();
    auto at = [&](int64_t row, int64_t i) { return static_cast<M>(rows[row * s.width + i]); };
    if (sort_first) {
      gnu_order::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
        for (int64_t i = 0; i < s.width; ++i) {
          if (at(a, i) < at(b, i)) return true;
          if (at(a, i) > at(b, i)) return false;
        }
        return false;
      });
    }
    auto equal_rows = [&](int64_t a, int64_t b) {
      for (int64_t i = 0; i < s.width; ++i)
        if (!(at(a, i) == at(b, i))) return false;
      return true;
    };
    g = group_consecutive(order, equal_rows);
  });
  const std::vector<int64_t>& kept = g.first;
  Shape stacked_sizes;
  for (int64_t d : s.moved) stacked_sizes.push_back(self.sizes()[d]);
  stacked_sizes[0] = static_cast<int64_t>(kept.size());
  Tensor stacked = Tensor::empty(self.dtype(), stacked_sizes);
  const size_t row_bytes = static_cast<size_t>(s.width) * element_size(self.dtype());
  const auto* from = static_cast<const uint8_t*>(s.rows.raw_data());
  auto* to = static_cast<uint8_t*>(stacked.raw_data());
  for (size_t g = 0; g < kept.size(); ++g)
    std::copy_n(from + static_cast<size_t>(kept[g]) * row_bytes, row_bytes, to + g * row_bytes);
  std::vector<int64_t> restore(s.moved.size());
  for (size_t i = 0; i < s.moved.size(); ++i) restore[static_cast<size_t>(s.moved[i])] = static_cast<int64_t>(i);
  c.push(permute_view(stacked, restore));
  c.push(int64_tensor(g.inverse, {s.len}));
  c.push(int64_tensor(g.counts, {static_cast<int64_t>(g.counts.size())}));
}

// unique_consecutive(self, return_inverse, return_counts, dim)
void unique_consecutive_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  const std::optional<int64_t> dim = c.optional_int(3);
  if (!dim || (self.dim() == 1 && wrap_dim(*dim, 1, c.where().c_str()) == 0)) {
    unique_runs(c, self, c.bool_arg(1), c.bool_arg(2));
    return;
  }
  unique_slices(c, self, *dim, false);
}

// unique_dim(self, dim, sorted, return_inverse, return_counts)
void unique_dim_op(OpCall& c) { unique_slices(c, c.tensor(0), c.int_arg(1), true); }

// unique_dim_consecutive(self, dim, return_inverse, return_counts)
void unique_dim_consecutive_op(OpCall& c) { unique_slices(c, c.tensor(0), c.int_arg(1), false); }

}  // namespace

void register_unique_ops(OpTable& t) {
  t.add("aten::_unique2(Tensor self, bool sorted=True, bool return_inverse=False, bool return_counts=False) -> "
        "(Tensor, Tensor, Tensor)",
        unique2_op);
  t.add("aten::unique_consecutive(Tensor self, bool return_inverse=False, bool return_counts=False, int? dim=None) -> "
        "(Tensor, Tensor, Tensor)",
        unique_consecutive_op);
  t.add("aten::unique_dim(Tensor self, int dim, bool sorted=True, bool return_inverse=False, "
        "bool return_counts=False) -> (Tensor, Tensor, Tensor)",
        unique_dim_op);
  t.add("aten::unique_dim_consecutive(Tensor self, int dim, bool return_inverse=False, bool return_counts=False) -> "
        "(Tensor, Tensor, Tensor)",
        unique_dim_consecutive_op);
}

}  // namespace pt2web
