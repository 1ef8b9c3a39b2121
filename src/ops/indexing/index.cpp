// Advanced indexing (x[idx], x[mask], x[idx] = v): index.Tensor,
// index_put(_), their _unsafe_ forms, and the mask ops masked_fill(_),
// masked_select, masked_scatter(_), nonzero/argwhere and take.
// gather/scatter/index_select/embedding live in scatter.cpp.
#include <algorithm>

#include "ops/indexing/indexing.h"
#include "ops/op_utils.h"
#include "ops/shape_indexing.h"
#include "ops/views.h"

namespace pt2web {

namespace {

// ---- the geometry of self[indices] -------------------------------------------

// Result element (o, m, i), in row-major order of the result, reads the self
// element at offset outer[o] + middle[m] + inner[i]: `middle` walks the
// broadcast index tensors, `outer`/`inner` the dims no tensor indexes.
struct IndexPlan {
  Shape result_shape;
  std::vector<int64_t> outer, middle, inner;
};

// Element offsets of every position of `dims` of t, in row-major order.
std::vector<int64_t> dim_offsets(const Tensor& t, const std::vector<int64_t>& dims) {
  Shape sizes, strides;
  for (int64_t d : dims) {
    sizes.push_back(t.sizes()[d]);
    strides.push_back(t.strides()[d]);
  }
  std::vector<int64_t> out;
  for_each_offsets<1>(sizes, {&strides}, [&](const std::array<int64_t, 1>& o) { out.push_back(o[0]); });
  return out;
}

// The coordinates (as int64 tensors, one per mask dim) of the true elements
// of a bool/uint8 mask, checked against the self dims it stands for.
std::vector<Tensor> mask_coordinates(const Tensor& self, const Tensor& mask, int64_t first_dim, const std::string& where) {
  for (int64_t j = 0; j < mask.dim(); ++j)
    if (first_dim + j >= self.dim() || mask.sizes()[j] != self.sizes()[first_dim + j])
      fail(ErrorCode::BadInput, where, "The shape of the mask ", shape_to_string(mask.sizes()), " at index ", j,
           " does not match the shape of the indexed tensor ", shape_to_string(self.sizes()), " at index ",
           first_dim + j);
  std::vector<std::vector<int64_t>> coords(mask.dim());
  std::vector<int64_t> pos(mask.dim(), 0);
  const Tensor m = mask.to(DType::Bool);
  const bool* data = m.data<bool>();
  for (int64_t k = 0; k < m.numel(); ++k) {
    if (data[k])
      for (int64_t j = 0; j < mask.dim(); ++j) coords[j].push_back(pos[j]);
    for (int64_t j = mask.dim() - 1; j >= 0; --j) {
      if (++pos[j] < mask.sizes()[j]) break;
      pos[j] = 0;
    }
  }
  std::vector<Tensor> out;
  for (const auto& c : coords) {
    Tensor t = Tensor::empty(DType::Int64, {static_cast<int64_t>(c.size())});
    std::copy(c.begin(), c.end(), t.data<int64_t>());
    out.push_back(t);
  }
  return out;
}

bool shapes_broadcast(const Shape& a, const Shape& b) {
  for (size_t i = 1; i <= std::min(a.size(), b.size()); ++i) {
    int64_t x = a[a.size() - i], y = b[b.size() - i];
    if (x != y && x != 1 && y != 1) return false;
  }
  return true;
}

IndexPlan plan_index(const Tensor& self, const std::vector<Tensor>& raw, const std::string& where) {
  if (static_cast<int64_t>(raw.size()) > self.dim())
    fail(ErrorCode::BadInput, where, "too many indices for tensor of dimension ", self.dim(), " (got ", raw.size(), ")");
  // One entry per self dim: an integer index tensor, or undefined (None).
  std::vector<Tensor> indices;
  for (const Tensor& t : raw) {
    if (!t.defined()) {
      indices.push_back(t);
    } else if (t.dtype() == DType::Bool || t.dtype() == DType::UInt8) {
      for (Tensor& c : mask_coordinates(self, t, static_cast<int64_t>(indices.size()), where)) indices.push_back(c);
    } else if (t.dtype() == DType::Int64 || t.dtype() == DType::Int32) {
      indices.push_back(t);
    } else {
      fail(ErrorCode::BadInput, where, "tensors used as indices must be long, int, byte or bool tensors");
    }
  }
  if (static_cast<int64_t>(indices.size()) > self.dim())
    fail(ErrorCode::BadInput, where, "too many indices for tensor of dimension ", self.dim(), " (got ", indices.size(), ")");
  indices.resize(self.dim());

  std::vector<int64_t> indexed, plain;
  Shape broadcast;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (!indices[d].defined()) {
      plain.push_back(d);
      continue;
    }
    const Shape& shape = indices[d].sizes();
    if (!indexed.empty() && !shapes_broadcast(broadcast, shape))
      fail(ErrorCode::BadInput, where, "shape mismatch: indexing tensors could not be broadcast together with shapes ",
           shape_to_string(broadcast), ", ", shape_to_string(shape));
    broadcast = indexed.empty() ? shape : broadcast_shapes(broadcast, shape);
    indexed.push_back(d);
  }

  IndexPlan plan;
  if (indexed.empty()) {
    plan.result_shape = self.sizes();
    plan.outer = dim_offsets(self, plain);
    plan.middle = {0};
    plan.inner = {0};
    return plan;
  }
  // Index tensors on adjacent dims put the result dims in their place;
  // otherwise the result dims come first (numpy's rule).
  bool adjacent = indexed.back() - indexed.front() + 1 == static_cast<int64_t>(indexed.size());
  std::vector<int64_t> before, after;
  for (int64_t d : plain) (adjacent && d < indexed.front() ? before : after).push_back(d);
  for (int64_t d : before) plan.result_shape.push_back(self.sizes()[d]);
  plan.result_shape.insert(plan.result_shape.end(), broadcast.begin(), broadcast.end());
  for (int64_t d : after) plan.result_shape.push_back(self.sizes()[d]);
  plan.outer = dim_offsets(self, before);
  plan.inner = dim_offsets(self, after);
  plan.middle.assign(static_cast<size_t>(shape_numel(broadcast)), 0);
  for (int64_t d : indexed) {
    std::vector<int64_t> values = read_indices(expand_view(indices[d], broadcast), true, where);
    for (size_t b = 0; b < values.size(); ++b)
      plan.middle[b] += wrap_index(values[b], self.sizes()[d], d, where) * self.strides()[d];
  }
  return plan;
}

// Calls f(self_offset, k) for the k-th result element.
template <typename F>
void walk_plan(const IndexPlan& plan, F&& f) {
  int64_t k = 0;
  for (int64_t o : plan.outer)
    for (int64_t m : plan.middle)
      for (int64_t i : plan.inner) f(o + m + i, k++);
}

// ---- index / index_put -----------------------------------------------------------

void index_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  IndexPlan plan = plan_index(self, c.tensor_list(1), c.where());
  Tensor out = Tensor::empty(self.dtype(), plan.result_shape);
  visit_element_size(self.dtype(), [&](auto tag) {
    using U = typename decltype(tag)::type;
    const U* src = self.data<U>();
    U* dst = out.data<U>();
    walk_plan(plan, [&](int64_t offset, int64_t k) { dst[k] = src[offset]; });
  });
  c.push(out);
}

// Writes values (broadcast to the indexing result) into target[indices];
// accumulate adds instead, so repeated indices all count.
void index_put_into(const OpCall& c, const Tensor& target, const std::vector<Tensor>& indices, const Tensor& values,
                    bool accumulate) {
  if (values.dtype() != target.dtype())
    fail(ErrorCode::BadInput, c.where(), "Index put requires the source and destination dtypes match, got ",
         dtype_name(target.dtype()), " for the destination and ", dtype_name(values.dtype()), " for the source.");
  IndexPlan plan = plan_index(target, indices, c.where());
  if (!is_expandable_to(values.sizes(), plan.result_shape))
    fail(ErrorCode::BadInput, c.where(), "shape mismatch: value tensor of shape ", shape_to_string(values.sizes()),
         " cannot be broadcast to indexing result of shape ", shape_to_string(plan.result_shape));
  Tensor v = expand_view(values, plan.result_shape).clone();  // also a private copy if values alias target
  if (!accumulate) {
    visit_element_size(target.dtype(), [&](auto tag) {
      using U = typename decltype(tag)::type;
      U* dst = target.data<U>();
      const U* src = v.data<U>();
      walk_plan(plan, [&](int64_t offset, int64_t k) { dst[offset] = src[k]; });
    });
    return;
  }
  visit_dtype(target.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = opmath_t<T>;
    T* dst = target.data<T>();
    const T* src = v.data<T>();
    walk_plan(plan, [&](int64_t offset, int64_t k) {
      dst[offset] = convert_element<T>(static_cast<M>(dst[offset]) + static_cast<M>(src[k]));
    });
  });
}

void index_put_op(OpCall& c) {
  Tensor out = c.tensor(0).clone();
  index_put_into(c, out, c.tensor_list(1), c.tensor(2), c.bool_arg(3));
  c.push(out);
}

void index_put_inplace_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  index_put_into(c, self, c.tensor_list(1), c.tensor(2), c.bool_arg(3));
  c.push(self);
}

// ---- masks ------------------------------------------------------------------------

void check_bool_mask(const OpCall& c, const Tensor& mask, const char* op) {
  if (mask.dtype() != DType::Bool)
    fail(ErrorCode::BadInput, c.where(), op, " only supports boolean masks, but got mask with dtype ",
         dtype_name(mask.dtype()));
}

Scalar masked_fill_value(const OpCall& c) {
  if (!c.arg(2).is_tensor()) return c.scalar(2);
  const Tensor& v = c.tensor(2);
  if (v.dim() != 0)
    fail(ErrorCode::BadInput, c.where(), "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with ",
         v.dim(), " dimension(s).");
  return tensor_to_scalar(v);
}

// target[mask] = value, with mask broadcast to target's shape.
void masked_fill_into(const OpCall& c, const Tensor& target, const Tensor& mask, const Scalar& value) {
  if (!is_expandable_to(mask.sizes(), target.sizes()))
    fail(ErrorCode::BadInput, c.where(), "the mask of shape ", shape_to_string(mask.sizes()),
         " cannot be broadcast to the shape ", shape_to_string(target.sizes()));
  Tensor fill = checked_scalar_tensor(value, target.dtype(), c.where());
  Shape mask_strides = broadcast_strides(mask, target.sizes());
  visit_element_size(target.dtype(), [&](auto tag) {
    using U = typename decltype(tag)::type;
    U* dst = target.data<U>();
    const bool* m = mask.data<bool>();
    const U v = *fill.data<U>();
    for_each_offsets<2>(target.sizes(), {&target.strides(), &mask_strides}, [&](const std::array<int64_t, 2>& o) {
      if (m[o[1]]) dst[o[0]] = v;
    });
  });
}

void masked_fill_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  const Tensor& mask = c.tensor(1);
  check_bool_mask(c, mask, "masked_fill_");
  Scalar value = masked_fill_value(c);
  Tensor out = expand_view(self, broadcast_shapes(self.sizes(), mask.sizes())).clone();
  masked_fill_into(c, out, mask, value);
  c.push(out);
}

void masked_fill_inplace_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  check_bool_mask(c, c.tensor(1), "masked_fill_");
  masked_fill_into(c, self, c.tensor(1), masked_fill_value(c));
  c.push(self);
}

void masked_select_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  const Tensor& mask = c.tensor(1);
  if (mask.dtype() != DType::Bool) fail(ErrorCode::BadInput, c.where(), "masked_select: expected BoolTensor for mask");
  Shape shape = broadcast_shapes(self.sizes(), mask.sizes());
  Shape self_strides = broadcast_strides(self, shape), mask_strides = broadcast_strides(mask, shape);
  std::vector<int64_t> picked;
  const bool* m = mask.data<bool>();
  for_each_offsets<2>(shape, {&self_strides, &mask_strides}, [&](const std::array<int64_t, 2>& o) {
    if (m[o[1]]) picked.push_back(o[0]);
  });
  Tensor out = Tensor::empty(self.dtype(), {static_cast<int64_t>(picked.size())});
  visit_element_size(self.dtype(), [&](auto tag) {
    using U = typename decltype(tag)::type;
    const U* src = self.data<U>();
    U* dst = out.data<U>();
    for (size_t k = 0; k < picked.size(); ++k) dst[k] = src[picked[k]];
  });
  c.push(out);
}

// target's masked positions, in row-major order, take source's elements in order.
void masked_scatter_into(const OpCall& c, const Tensor& target, const Tensor& mask, const Tensor& source) {
  if (mask.dtype() != DType::Bool) fail(ErrorCode::BadInput, c.where(), "masked_scatter_ only supports boolean masks");
  if (source.dtype() != target.dtype())
    fail(ErrorCode::BadInput, c.where(), "masked_scatter: expected self and source to have same dtypes but got ",
         dtype_name(target.dtype()), " and ", dtype_name(source.dtype()));
  if (!is_expandable_to(mask.sizes(), target.sizes()))
    fail(ErrorCode::BadInput, c.where(), "the mask of shape ", shape_to_string(mask.sizes()),
         " cannot be broadcast to the shape ", shape_to_string(target.sizes()));
  Tensor src = source.clone();  // row-major order, and safe if source aliases target
  Shape mask_strides = broadcast_strides(mask, target.sizes());
  const bool* m = mask.data<bool>();
  visit_element_size(target.dtype(), [&](auto tag) {
    using U = typename decltype(tag)::type;
    U* dst = target.data<U>();
    const U* s = src.data<U>();
    int64_t next = 0;
    for_each_offsets<2>(target.sizes(), {&target.strides(), &mask_strides}, [&](const std::array<int64_t, 2>& o) {
      if (!m[o[1]]) return;
      if (next >= src.numel())
        fail(ErrorCode::BadInput, c.where(), "Number of elements of source < number of ones in mask");
      dst[o[0]] = s[next++];
    });
  });
}

void masked_scatter_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  Tensor out = expand_view(self, broadcast_shapes(self.sizes(), c.tensor(1).sizes())).clone();
  masked_scatter_into(c, out, c.tensor(1), c.tensor(2));
  c.push(out);
}

void masked_scatter_inplace_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  masked_scatter_into(c, self, c.tensor(1), c.tensor(2));
  c.push(self);
}

// nonzero: [n, dim] int64 coordinates of the non-zero elements (NaN counts
// as non-zero), in row-major order.
void nonzero_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  const int64_t rank = self.dim();
  std::vector<int64_t> coords;
  std::vector<int64_t> pos(rank, 0);
  int64_t count = 0;
  visit_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = opmath_t<T>;
    const T* src = self.data<T>();
    for_each_offsets<1>(self.sizes(), {&self.strides()}, [&](const std::array<int64_t, 1>& o) {
      if (static_cast<M>(src[o[0]]) != M(0)) {
        coords.insert(coords.end(), pos.begin(), pos.end());
        ++count;
      }
      for (int64_t j = rank - 1; j >= 0; --j) {
        if (++pos[j] < self.sizes()[j]) break;
        pos[j] = 0;
      }
    });
  });
  Tensor out = Tensor::empty(DType::Int64, {count, rank});
  std::copy(coords.begin(), coords.end(), out.data<int64_t>());
  c.push(out);
}

// take: indexes self as if it were flattened; negative indices count from the end.
void take_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  const Tensor& index = c.tensor(1);
  if (index.dtype() != DType::Int64)
    fail(ErrorCode::BadInput, c.where(), "take(): Expected a long tensor for index, but got ", dtype_name(index.dtype()));
  std::vector<int64_t> idx = read_indices(index, false, c.where());
  const int64_t n = self.numel();
  if (n == 0 && !idx.empty()) fail(ErrorCode::BadInput, c.where(), "take(): tried to take from an empty tensor");
  Tensor flat = self.contiguous();
  Tensor out = Tensor::empty(self.dtype(), index.sizes());
  visit_element_size(self.dtype(), [&](auto tag) {
    using U = typename decltype(tag)::type;
    const U* src = flat.data<U>();
    U* dst = out.data<U>();
    for (size_t k = 0; k < idx.size(); ++k) {
      int64_t i = idx[k];
      if (i < -n || i >= n)
        fail(ErrorCode::BadInput, c.where(), "out of range: tried to access index ", i, " on a tensor of ", n,
             " elements.");
      dst[k] = src[i < 0 ? i + n : i];
    }
  });
  c.push(out);
}

}  // namespace

void register_index_ops(OpTable& t) {
  t.add("aten::index.Tensor(Tensor self, Tensor?[] indices) -> Tensor", index_op);
  t.add("aten::_unsafe_index.Tensor(Tensor self, Tensor?[] indices) -> Tensor", index_op);
  t.add("aten::index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor", index_put_op);
  t.add("aten::index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor(a!)",
        index_put_inplace_op);
  t.add("aten::_unsafe_index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor",
        index_put_op);
  t.add("aten::masked_fill.Scalar(Tensor self, Tensor mask, Scalar value) -> Tensor", masked_fill_op);
  t.add("aten::masked_fill.Tensor(Tensor self, Tensor mask, Tensor value) -> Tensor", masked_fill_op);
  t.add("aten::masked_fill_.Scalar(Tensor(a!) self, Tensor mask, Scalar value) -> Tensor(a!)", masked_fill_inplace_op);
  t.add("aten::masked_fill_.Tensor(Tensor(a!) self, Tensor mask, Tensor value) -> Tensor(a!)", masked_fill_inplace_op);
  t.add("aten::masked_select(Tensor self, Tensor mask) -> Tensor", masked_select_op);
  t.add("aten::masked_scatter(Tensor self, Tensor mask, Tensor source) -> Tensor", masked_scatter_op);
  t.add("aten::masked_scatter_(Tensor(a!) self, Tensor mask, Tensor source) -> Tensor(a!)", masked_scatter_inplace_op);
  t.add("aten::nonzero(Tensor self) -> Tensor", nonzero_op);
  t.add("aten::argwhere(Tensor self) -> Tensor", nonzero_op);
  t.add("aten::take(Tensor self, Tensor index) -> Tensor", take_op);
}

}  // namespace pt2web
