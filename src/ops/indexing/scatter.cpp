// Indexing along one dimension: index_select, embedding, one_hot, gather, the
// scatter family (scatter, scatter_add, scatter_reduce, and in-place forms),
// and index_add/index_copy/index_fill (+ in-place forms).
//
// In-place forms compute the functional result and write it back into self,
// so a source that aliases self is read before anything is overwritten;
// index_add_ and index_copy_ with a source apart from self write into self
// directly (only the indexed slices).
#include <algorithm>
#include <cmath>

#include "ops/indexing/indexing.h"
#include "ops/op_utils.h"
#include "ops/shape_indexing.h"
#include "ops/views.h"

namespace pt2web {

namespace {

// Pushes self after writing `result` into it (the in-place forms); a result
// that is self already is pushed as it is.
void push_in_place(OpCall& c, const Tensor& result) {
  const Tensor& self = c.tensor(0);
  const bool is_self = result.storage() == self.storage() && result.storage_offset() == self.storage_offset() &&
                       result.sizes() == self.sizes() && result.strides() == self.strides();
  c.push(is_self ? self : assign_in_place(self, result));
}

// ---- index_select / embedding ---------------------------------------------------

// Indices into a dim of `size`; these ops do not wrap negative values.
std::vector<int64_t> checked_positions(const Tensor& index, int64_t size, const std::string& where) {
  std::vector<int64_t> idx = read_indices(index, true, where);
  for (int64_t i : idx)
    if (i < 0 || i >= size)
      fail(ErrorCode::BadInput, where, "index out of range in self: index ", i, " is outside [0, ", size, ")");
  return idx;
}

Tensor index_select_tensor(const Tensor& self, int64_t dim, const Tensor& index, const std::string& where) {
  if (index.dim() > 1) fail(ErrorCode::BadInput, where, "index_select(): Index is supposed to be a vector");
  if (index.dtype() != DType::Int64 && index.dtype() != DType::Int32)
    fail(ErrorCode::BadInput, where, "index_select(): Expected dtype int32 or int64 for index");
  dim = wrap_dim(dim, self.dim());
  if (self.dim() == 0) {
    if (index.numel() != 1)
      fail(ErrorCode::BadInput, where, "index_select(): Index to scalar can have only 1 value, got ", index.numel(),
           " value(s)");
    checked_positions(index, 1, where);
    return self.clone();
  }
  std::vector<std::vector<int64_t>> maps;
  for (int64_t s : self.sizes()) maps.push_back(identity_map(s));
  maps[dim] = checked_positions(index, self.sizes()[dim], where);
  return gather_by_dim_maps(self, maps);
}

void index_select_op(OpCall& c) { c.push(index_select_tensor(c.tensor(0), c.int_arg(1), c.tensor(2), c.where())); }

// embedding: rows of weight picked by indices (any shape); padding_idx,
// scale_grad_by_freq and sparse only affect gradients.
void embedding_op(OpCall& c) {
  const Tensor& weight = c.tensor(0);
  const Tensor& indices = c.tensor(1);
  if (indices.dtype() != DType::Int64 && indices.dtype() != DType::Int32)
    fail(ErrorCode::BadInput, c.where(), "Expected tensor for argument #1 'indices' to have one of the following scalar "
         "types: Long, Int; but got ", dtype_name(indices.dtype()), " instead (while checking arguments for embedding)");
  if (weight.dim() != 2) fail(ErrorCode::BadInput, c.where(), "'weight' must be 2-D");
  Tensor rows = index_select_tensor(weight, 0, reshape(indices, {-1}), c.where());
  Shape shape = indices.sizes();
  shape.push_back(weight.sizes()[1]);
  c.push(reshape(rows, shape));
}

// one_hot: int64 [..., num_classes] with a 1 at each input value;
// num_classes = -1 means one more than the largest value.
void one_hot_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  int64_t classes = c.int_arg(1);
  if (self.dtype() != DType::Int64)
    fail(ErrorCode::BadInput, c.where(), "one_hot is only applicable to index tensor of type LongTensor.");
  std::vector<int64_t> values = read_indices(self, false, c.where());
  if (classes == -1) {
    if (values.empty()) fail(ErrorCode::BadInput, c.where(), "Can not infer total number of classes from empty tensor.");
    classes = *std::max_element(values.begin(), values.end()) + 1;
  }
  for (int64_t v : values) {
    if (v < 0) fail(ErrorCode::BadInput, c.where(), "Class values must be non-negative.");
    if (v >= classes) fail(ErrorCode::BadInput, c.where(), "Class values must be smaller than num_classes.");
  }
  Shape shape = self.sizes();
  shape.push_back(classes);
  Tensor out = Tensor::empty(DType::Int64, shape);
  int64_t* dst = out.data<int64_t>();
  for (size_t k = 0; k < values.size(); ++k) dst[static_cast<int64_t>(k) * classes + values[k]] = 1;
  c.push(out);
}

// ---- gather / scatter -------------------------------------------------------------

// Calls f(self_offset, other_offset) for every position of index, where
// self_offset is the position with its `dim` coordinate replaced by the index
// value there, and other_offset the same position in `other` (the source of a
// scatter or the result of a gather). Scalars count as 1-d of size 1.
template <typename F>
void walk_index(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& other, const std::string& where,
                F&& f) {
  Tensor s = as_nonempty_dim(self), ix = as_nonempty_dim(index), o = as_nonempty_dim(other);
  Shape self_strides = s.strides();
  self_strides[dim] = 0;
  const int64_t size = s.sizes()[dim], stride = s.strides()[dim];
  const int64_t* idx = ix.data<int64_t>();
  for_each_offsets<3>(ix.sizes(), {&self_strides, &ix.strides(), &o.strides()}, [&](const std::array<int64_t, 3>& p) {
    int64_t v = idx[p[1]];
    if (v < 0 || v >= size)
      fail(ErrorCode::BadInput, where, "index ", v, " is out of bounds for dimension ", dim, " with size ", size);
    f(p[0] + v * stride, p[2]);
  });
}

int64_t size_or_one(const Tensor& t, int64_t d) { return t.dim() == 0 ? 1 : t.sizes()[d]; }

void check_index_dtype(const Tensor& index, const char* op, const std::string& where) {
  if (index.dtype() != DType::Int64)
    fail(ErrorCode::BadInput, where, op, "(): Expected dtype int64 for index");
}

void gather_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  const Tensor& index = c.tensor(2);
  const int64_t dim = wrap_dim(c.int_arg(1), self.dim());
  check_index_dtype(index, "gather", c.where());
  Tensor out = Tensor::empty(self.dtype(), index.sizes());
  if (index.numel() == 0) {
    c.push(out);
    return;
  }
  const int64_t rank = std::max<int64_t>(self.dim(), 1);
  if (std::max<int64_t>(index.dim(), 1) != rank)
    fail(ErrorCode::BadInput, c.where(), "Index tensor must have the same number of dimensions as input tensor");
  for (int64_t d = 0; d < rank; ++d)
    if (d != dim && size_or_one(index, d) > size_or_one(self, d))
      fail(ErrorCode::BadInput, c.where(), "Size does not match at dimension ", d, " expected index ",
           shape_to_string(index.sizes()), " to be no larger than self ", shape_to_string(self.sizes()),
           " apart from dimension ", dim);
  visit_element_size(self.dtype(), [&](auto tag) {
    using U = typename decltype(tag)::type;
    const U* src = self.data<U>();
    U* dst = out.data<U>();
    walk_index(self, dim, index, out, c.where(), [&](int64_t s, int64_t o) { dst[o] = src[s]; });
  });
  c.push(out);
}

// ATen's scatter_shape_check (src undefined for the value forms).
void check_scatter(const OpCall& c, const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                   const char* op) {
  check_index_dtype(index, op, c.where());
  if (src.defined() && src.dtype() != self.dtype())
    fail(ErrorCode::BadInput, c.where(), op, "(): Expected self.dtype to be equal to src.dtype");
  if (index.numel() == 0) return;
  const int64_t rank = std::max<int64_t>(self.dim(), 1);
  if (std::max<int64_t>(index.dim(), 1) != rank)
    fail(ErrorCode::BadInput, c.where(), "Index tensor must have the same number of dimensions as self tensor");
  if (src.defined() && std::max<int64_t>(src.dim(), 1) != rank)
    fail(ErrorCode::BadInput, c.where(), "Index tensor must have the same number of dimensions as src tensor");
  bool wrong = false;
  for (int64_t d = 0; d < rank; ++d) {
    if (d != dim && size_or_one(index, d) > size_or_one(self, d)) wrong = true;
    if (src.defined() && size_or_one(index, d) > size_or_one(src, d)) wrong = true;
  }
  if (wrong)
    fail(ErrorCode::BadInput, c.where(), "Expected index ", shape_to_string(index.sizes()), " to be no larger than self ",
         shape_to_string(self.sizes()), " apart from dimension ", dim,
         src.defined() ? " and to be no larger size than src " + shape_to_string(src.sizes()) : std::string());
}

// The source of a scatter: the src tensor, or the value argument as a
// tensor of self's dtype broadcast over index's positions.
Tensor scatter_source(const OpCall& c, const Tensor& self, const Tensor& index, size_t arg) {
  if (c.arg(arg).is_tensor()) return c.tensor(arg);
  Tensor v = checked_scalar_tensor(c.scalar(arg), self.dtype(), c.where());
  Shape sizes = as_nonempty_dim(index).sizes();
  return v.as_strided(sizes, Shape(sizes.size(), 0), 0);
}

enum class Reduce { None, Sum, Prod, Mean, Amax, Amin };

Reduce parse_scatter_reduce(const OpCall& c, const std::string& name) {
  if (name == "sum") return Reduce::Sum;
  if (name == "prod") return Reduce::Prod;
  if (name == "mean") return Reduce::Mean;
  if (name == "amax") return Reduce::Amax;
  if (name == "amin") return Reduce::Amin;
  fail(ErrorCode::BadInput, c.where(), "reduce argument must be either sum, prod, mean, amax or amin, got ", name);
}

Reduce parse_legacy_reduce(const OpCall& c, const std::string& name) {
  if (name == "add") return Reduce::Sum;
  if (name == "multiply") return Reduce::Prod;
  fail(ErrorCode::BadInput, c.where(), "reduce argument must be either add or multiply.");
}

// The value a reduction starts from when self's own value is left out.
template <typename M>
M reduce_identity(Reduce r) {
  switch (r) {
    case Reduce::Prod: return M(1);
    case Reduce::Amax:
      if constexpr (std::is_floating_point<M>::value) return -std::numeric_limits<M>::infinity();
      else return std::numeric_limits<M>::lowest();
    case Reduce::Amin:
      if constexpr (std::is_floating_point<M>::value) return std::numeric_limits<M>::infinity();
      else return std::numeric_limits<M>::max();
    default: return M(0);
  }
}

template <typename M>
M reduce_combine(Reduce r, M a, M b) {
  switch (r) {
    case Reduce::Prod: return static_cast<M>(a * b);
    case Reduce::Amax:
      if constexpr (std::is_floating_point<M>::value)
        if (std::isnan(b)) return b;
      return std::max(a, b);  // keeps a NaN already in a
    case Reduce::Amin:
      if constexpr (std::is_floating_point<M>::value)
        if (std::isnan(b)) return b;
      return std::min(a, b);
    default: return static_cast<M>(a + b);
  }
}

// self with src scattered into it along dim: assigned (Reduce::None) or
// combined with the values already there; include_self=false starts every
// written position from the reduction's identity; mean divides by the number
// of contributions (floor division for integers).
Tensor scatter_tensor(const OpCall& c, const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                      Reduce reduce, bool include_self) {
  Tensor out = self.clone();
  if (index.numel() == 0) return out;
  if (reduce == Reduce::None) {
    visit_element_size(out.dtype(), [&](auto tag) {
      using U = typename decltype(tag)::type;
      U* dst = out.data<U>();
      const U* s = src.data<U>();
      walk_index(out, dim, index, src, c.where(), [&](int64_t o, int64_t i) { dst[o] = s[i]; });
    });
    return out;
  }
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = opmath_t<T>;
    T* dst = out.data<T>();
    const T* s = src.data<T>();
    if (!include_self)
      walk_index(out, dim, index, src, c.where(),
                 [&](int64_t o, int64_t) { dst[o] = convert_element<T>(reduce_identity<M>(reduce)); });
    std::vector<int64_t> counts;
    if (reduce == Reduce::Mean) counts.assign(static_cast<size_t>(out.numel()), include_self ? 1 : 0);
    walk_index(out, dim, index, src, c.where(), [&](int64_t o, int64_t i) {
      dst[o] = convert_element<T>(reduce_combine<M>(reduce, static_cast<M>(dst[o]), static_cast<M>(s[i])));
      if (reduce == Reduce::Mean) ++counts[o];
    });
    if (reduce != Reduce::Mean) return;
    for (size_t k = 0; k < counts.size(); ++k) {
      M n = static_cast<M>(std::max<int64_t>(counts[k], 1));
      M v = static_cast<M>(dst[k]);
      if constexpr (std::is_floating_point<M>::value) {
        dst[k] = convert_element<T>(v / n);
      } else if constexpr (std::is_same<M, bool>::value) {
        dst[k] = v;
      } else {
        M q = static_cast<M>(v / n);
        if (v % n != 0 && v < 0) q = static_cast<M>(q - 1);  // floor
        dst[k] = q;
      }
    }
  });
  return out;
}

// (self, dim, index, src|value[, reduce]) -> the functional result.
Tensor scatter_from_call(const OpCall& c, Reduce reduce, bool include_self, const char* op) {
  const Tensor& self = c.tensor(0);
  const Tensor& index = c.tensor(2);
  int64_t dim = wrap_dim(c.int_arg(1), self.dim());
  Tensor src = c.arg(3).is_tensor() ? c.tensor(3) : Tensor();
  check_scatter(c, self, dim, index, src, op);
  return scatter_tensor(c, self, dim, index, scatter_source(c, self, index, 3), reduce, include_self);
}

template <bool InPlace>
void scatter_op(OpCall& c) {
  Tensor out = scatter_from_call(c, Reduce::None, true, "scatter");
  InPlace ? push_in_place(c, out) : c.push(out);
}

template <bool InPlace>
void scatter_legacy_reduce_op(OpCall& c) {
  Tensor out = scatter_from_call(c, parse_legacy_reduce(c, c.string_arg(4)), true, "scatter");
  InPlace ? push_in_place(c, out) : c.push(out);
}

template <bool InPlace>
void scatter_add_op(OpCall& c) {
  Tensor out = scatter_from_call(c, Reduce::Sum, true, "scatter_add");
  InPlace ? push_in_place(c, out) : c.push(out);
}

template <bool InPlace>
void scatter_reduce_op(OpCall& c) {
  Tensor out = scatter_from_call(c, parse_scatter_reduce(c, c.string_arg(4)), c.bool_arg(5), "scatter_reduce");
  InPlace ? push_in_place(c, out) : c.push(out);
}

// ---- index_add / index_copy / index_fill ------------------------------------------

// Checks of index_add/index_copy: a vector index with one entry per slice of
// source along dim, and source slices shaped like self's.
void check_index_source(const OpCall& c, const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                        const char* op) {
  if (index.dim() > 1) fail(ErrorCode::BadInput, c.where(), op, "(): Index is supposed to be a vector");
  if (self.dtype() != source.dtype())
    fail(ErrorCode::BadInput, c.where(), op, "(): self (", dtype_name(self.dtype()), ") and source (",
         dtype_name(source.dtype()), ") must have the same scalar type");
  Tensor s = as_nonempty_dim(self), src = as_nonempty_dim(source);
  bool same_slices = s.dim() == src.dim();
  for (int64_t d = 0; same_slices && d < s.dim(); ++d) same_slices = d == dim || s.sizes()[d] == src.sizes()[d];
  if (!same_slices) fail(ErrorCode::BadInput, c.where(), op, "(): Source/destination tensor must have same slice shapes.");
  if (index.numel() != src.sizes()[dim])
    fail(ErrorCode::BadInput, c.where(), op, "(): Number of indices (", index.numel(),
         ") should be equal to source.size(dim) (", src.sizes()[dim], ")");
}

// out.select(dim, idx[i]) = combine(that slice, source.select(dim, i)) for
// every i. `out` is a copy of self, or (in_place, when source does not share
// self's storage) self itself, so an in-place call on a large tensor (a KV
// cache row written per step) touches only the slices it writes. Every check
// runs before the first write.
template <typename Combine>
Tensor index_combine(const OpCall& c, const char* op, bool int32_ok, bool in_place, Combine combine) {
  const Tensor& self = c.tensor(0);
  const Tensor& index = c.tensor(2);
  const Tensor& source = c.tensor(3);
  int64_t dim = wrap_dim(c.int_arg(1), self.dim());
  if (index.dtype() != DType::Int64 && !(int32_ok && index.dtype() == DType::Int32))
    fail(ErrorCode::BadInput, c.where(), op, "(): Expected dtype int", int32_ok ? "32/int" : "", "64 for index");
  check_index_source(c, self, dim, index, source, op);
  const bool write_self = in_place && source.storage() != self.storage();
  Tensor out = write_self ? self : self.clone();
  Tensor dst = as_nonempty_dim(out), src = as_nonempty_dim(source);
  std::vector<int64_t> idx = checked_positions(index, dst.sizes()[dim], c.where());
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (size_t i = 0; i < idx.size(); ++i) {
      Tensor to = select_view(dst, dim, idx[i]), from = select_view(src, dim, static_cast<int64_t>(i));
      T* pd = to.data<T>();
      const T* ps = from.data<T>();
      for_each_offsets<2>(to.sizes(), {&to.strides(), &from.strides()}, [&](const std::array<int64_t, 2>& o) {
        pd[o[0]] = combine(pd[o[0]], ps[o[1]]);
      });
    }
  });
  return out;
}

template <bool InPlace>
void index_add_op(OpCall& c) {
  Scalar alpha = c.scalar(4);
  if (alpha.kind == Scalar::Kind::Double && !is_floating(c.tensor(0).dtype()) && alpha.d != 1.0)
    fail(ErrorCode::BadInput, c.where(), "For integral input tensors, argument alpha must not be a floating point number.");
  Tensor out = index_combine(c, "index_add_", true, InPlace, [&](auto a, auto b) {
    using T = decltype(a);
    using M = opmath_t<T>;
    M scale = alpha.kind == Scalar::Kind::Double ? static_cast<M>(alpha.d) : static_cast<M>(alpha.i);
    M add = alpha.to_double() == 1.0 ? static_cast<M>(b) : static_cast<M>(static_cast<M>(b) * scale);
    return convert_element<T>(static_cast<M>(a) + add);
  });
  InPlace ? push_in_place(c, out) : c.push(out);
}

template <bool InPlace>
void index_copy_op(OpCall& c) {
  Tensor out = index_combine(c, "index_copy_", false, InPlace, [](auto, auto b) { return b; });
  InPlace ? push_in_place(c, out) : c.push(out);
}

// index_fill: the slices at the (possibly negative) indices take one value.
template <bool InPlace>
void index_fill_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  const Tensor& index = c.tensor(2);
  int64_t dim = wrap_dim(c.int_arg(1), self.dim());
  if (index.dtype() != DType::Int64) fail(ErrorCode::BadInput, c.where(), "index_fill_(): Expected dtype int64 for index.");
  if (index.dim() > 1) fail(ErrorCode::BadInput, c.where(), "Index has to be a vector/scalar");
  Scalar value;
  if (c.arg(3).is_tensor()) {
    if (c.tensor(3).dim() != 0)
      fail(ErrorCode::BadInput, c.where(), "index_fill_ only supports a 0-dimensional value tensor, but got tensor with ",
           c.tensor(3).dim(), " dimension(s).");
    value = tensor_to_scalar(c.tensor(3));
  } else {
    value = c.scalar(3);
  }
  Tensor out = self.clone();
  Tensor dst = as_nonempty_dim(out);
  for (int64_t i : read_indices(index, false, c.where()))
    fill_scalar(select_view(dst, dim, wrap_index(i, dst.sizes()[dim], dim, c.where())), value, c.where());
  InPlace ? push_in_place(c, out) : c.push(out);
}

}  // namespace

void register_scatter_ops(OpTable& t) {
  t.add("aten::index_select(Tensor self, int dim, Tensor index) -> Tensor", index_select_op);
  t.add("aten::embedding(Tensor weight, Tensor indices, SymInt padding_idx=-1, bool scale_grad_by_freq=False, "
        "bool sparse=False) -> Tensor", embedding_op);
  t.add("aten::one_hot(Tensor self, int num_classes=-1) -> Tensor", one_hot_op);
  t.add("aten::gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor", gather_op);
  t.add("aten::scatter.src(Tensor self, int dim, Tensor index, Tensor src) -> Tensor", scatter_op<false>);
  t.add("aten::scatter.value(Tensor self, int dim, Tensor index, Scalar value) -> Tensor", scatter_op<false>);
  t.add("aten::scatter.reduce(Tensor self, int dim, Tensor index, Tensor src, *, str reduce) -> Tensor",
        scatter_legacy_reduce_op<false>);
  t.add("aten::scatter.value_reduce(Tensor self, int dim, Tensor index, Scalar value, *, str reduce) -> Tensor",
        scatter_legacy_reduce_op<false>);
  t.add("aten::scatter_.src(Tensor(a!) self, int dim, Tensor index, Tensor src) -> Tensor(a!)", scatter_op<true>);
  t.add("aten::scatter_.value(Tensor(a!) self, int dim, Tensor index, Scalar value) -> Tensor(a!)", scatter_op<true>);
  t.add("aten::scatter_.reduce(Tensor(a!) self, int dim, Tensor index, Tensor src, *, str reduce) -> Tensor(a!)",
        scatter_legacy_reduce_op<true>);
  t.add("aten::scatter_.value_reduce(Tensor(a!) self, int dim, Tensor index, Scalar value, *, str reduce) -> Tensor(a!)",
        scatter_legacy_reduce_op<true>);
  t.add("aten::scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor", scatter_add_op<false>);
  t.add("aten::scatter_add_(Tensor(a!) self, int dim, Tensor index, Tensor src) -> Tensor(a!)", scatter_add_op<true>);
  t.add("aten::scatter_reduce.two(Tensor self, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True) "
        "-> Tensor", scatter_reduce_op<false>);
  t.add("aten::scatter_reduce_.two(Tensor(a!) self, int dim, Tensor index, Tensor src, str reduce, *, "
        "bool include_self=True) -> Tensor(a!)", scatter_reduce_op<true>);
  t.add("aten::index_add(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor",
        index_add_op<false>);
  t.add("aten::index_add_(Tensor(a!) self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor(a!)",
        index_add_op<true>);
  t.add("aten::index_copy(Tensor self, int dim, Tensor index, Tensor source) -> Tensor", index_copy_op<false>);
  t.add("aten::index_copy_(Tensor(a!) self, int dim, Tensor index, Tensor source) -> Tensor(a!)", index_copy_op<true>);
  t.add("aten::index_fill.int_Scalar(Tensor self, int dim, Tensor index, Scalar value) -> Tensor", index_fill_op<false>);
  t.add("aten::index_fill.int_Tensor(Tensor self, int dim, Tensor index, Tensor value) -> Tensor", index_fill_op<false>);
  t.add("aten::index_fill_.int_Scalar(Tensor(a!) self, int dim, Tensor index, Scalar value) -> Tensor(a!)",
        index_fill_op<true>);
  t.add("aten::index_fill_.int_Tensor(Tensor(a!) self, int dim, Tensor index, Tensor value) -> Tensor(a!)",
        index_fill_op<true>);
}

}  // namespace pt2web
