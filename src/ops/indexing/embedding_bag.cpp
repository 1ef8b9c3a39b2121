// embedding_bag: sums, means or maxima of bags of embedding rows
// (nn.EmbeddingBag / F.embedding_bag). Bags are given by `offsets` into the
// 1-d `indices`; indices equal to padding_idx are skipped.
//
// The four results are those of ATen's CPU forward (_embedding_bag_cpu_impl):
//   output       [bags, D] in weight's dtype (empty bags give 0)
//   offset2bag   the bag of every index; left empty ([0]) for mode sum on
//                ATen's "fast path" (float32/16-bit weight, no padding_idx)
//   bag_size     indices per bag (minus skipped padding) for mean and max;
//                zeros for sum
//   max_indices  for max the winning row per bag and feature (0 for empty
//                bags); otherwise a copy of bag_size
// Sum and mean add rows either straight from offsets (the fast path) or bag
// by bag through offset2bag. The two differ in which indices the last bag
// covers when include_last_offset is set and offsets[-1] < len(indices): the
// fast path stops at offsets[-1], the other runs to the end (bag_size always
// counts to the end). Sums run in float for the 16-bit weights (one rounding,
// then a second for mean's division) and in the weight's type otherwise.
#include <vector>

#include "ops/indexing/indexing.h"
#include "ops/op_utils.h"

namespace pt2web {

namespace {

enum class BagMode : int64_t { Sum = 0, Mean = 1, Max = 2 };

struct BagInputs {
  Tensor weight;              // [num_embeddings, D]
  std::vector<int64_t> indices;
  std::vector<int64_t> offsets;
  DType index_dtype = DType::Int64;  // of offset2bag, bag_size, max_indices
  BagMode mode = BagMode::Sum;
  Tensor per_sample_weights;  // undefined when absent
  bool include_last_offset = false;
  int64_t padding_idx = -1;   // negative: none
  bool requires_grad = true;  // _embedding_bag (true) or _embedding_bag_forward_only
  int64_t num_bags() const { return static_cast<int64_t>(offsets.size()) - (include_last_offset ? 1 : 0); }
};

std::vector<int64_t> read_index_tensor(const Tensor& t) {
  const Tensor as_long = t.to(DType::Int64);
  const int64_t* p = as_long.data<int64_t>();
  return std::vector<int64_t>(p, p + as_long.numel());
}

// ATen's check_arguments (after promoting indices and offsets to one type).
void check_bag_arguments(const OpCall& c, const Tensor& weight, const Tensor& indices, const Tensor& offsets,
                         BagInputs& in) {
  if (indices.dim() != 1 && indices.dim() != 2)
    fail(ErrorCode::BadInput, c.where(), "input has to be a 1D or 2D Tensor, but got Tensor of dimension ",
         indices.dim());
  if (indices.dim() == 2)
    fail(ErrorCode::Unsupported, c.where(), "2-d indices (F.embedding_bag flattens them before calling this op)");
  if (offsets.dim() != 1)
    fail(ErrorCode::BadInput, c.where(), "offsets has to be a 1D Tensor, but got Tensor of dimension ",
         offsets.dim());
  const DType common = promote_types(indices.dtype(), offsets.dtype());
  if (common != DType::Int64 && common != DType::Int32)
    fail(ErrorCode::BadInput, c.where(),
         "embedding_bag: expected indices and offsets of scalar type Long or Int, but got ",
         dtype_name(indices.dtype()), " and ", dtype_name(offsets.dtype()));
  const DType w = weight.dtype();
  if (w != DType::Float16 && w != DType::BFloat16 && w != DType::Float32 && w != DType::Float64)
    fail(ErrorCode::BadInput, c.where(),
         "embedding_bag: expected weight of scalar type Half, BFloat16, Float or Double, but got ", dtype_name(w));
  if (weight.dim() != 2)
    fail(ErrorCode::BadInput, c.where(), "embedding_bag: weight has to be a 2D Tensor, but got Tensor of dimension ",
         weight.dim());
  in.index_dtype = common;
  in.indices = read_index_tensor(indices);
  in.offsets = read_index_tensor(offsets);
  const int64_t n = static_cast<int64_t>(in.indices.size());
  if (!in.offsets.empty()) {
    if (in.offsets.front() != 0)
      fail(ErrorCode::BadInput, c.where(),
           "offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from position 0. "
           "However, got ",
           in.offsets.front());
    if (in.offsets.back() > n)
      fail(ErrorCode::BadInput, c.where(), "offsets[-1] can not be greater than input's length ", n,
           " but got offsets[-1] of ", in.offsets.back());
  }
  const Tensor& psw = in.per_sample_weights;
  if (psw.defined()) {
    if (in.mode != BagMode::Sum)
      fail(ErrorCode::BadInput, c.where(), "embedding_bag: per_sample_weights only supported with mode='sum'");
    if (psw.dtype() != w)
      fail(ErrorCode::BadInput, c.where(), "embedding_bag: expected per_sample_weights of dtype ", dtype_name(w),
           " but got ", dtype_name(psw.dtype()));
    if (psw.dim() != 1 || psw.numel() != n)
      fail(ErrorCode::BadInput, c.where(), "embedding_bag: per_sample_weights must be 1-d with one weight per index, ",
           "got shape ", shape_to_string(psw.sizes()));
  }
  if (in.include_last_offset && in.offsets.empty())
    fail(ErrorCode::BadInput, c.where(), "include_last_offset: number of offset should be at least 1");
  if (in.mode != BagMode::Sum && in.mode != BagMode::Mean && in.mode != BagMode::Max)
    fail(ErrorCode::BadInput, c.where(), "embedding_bag: mode must be 0 (sum), 1 (mean) or 2 (max), got ",
         static_cast<int64_t>(in.mode));
}

// ATen adds rows straight from offsets (is_fast_path_index_select[_scale]) when this holds.
bool is_fast_path(const BagInputs& in) {
  const DType w = in.weight.dtype();
  const bool float_weight = w == DType::Float32 || w == DType::Float16 || w == DType::BFloat16;
  const bool unit_stride = in.weight.size(1) <= 1 || in.weight.strides()[1] == 1;
  const bool psw_ok = !in.per_sample_weights.defined() || in.per_sample_weights.numel() <= 1 ||
                      in.per_sample_weights.strides()[0] == 1;
  return float_weight && unit_stride && psw_ok && in.padding_idx < 0;
}

// Bag of every index: count bag starts, then a running sum (ATen's make_offset2bag).
std::vector<int64_t> offset2bag_of(const OpCall& c, const BagInputs& in) {
  const int64_t n = static_cast<int64_t>(in.indices.size());
  std::vector<int64_t> starts(n + 1, 0);
  for (int64_t b = 0; b < in.num_bags(); ++b) {
    const int64_t o = in.offsets[b];
    if (o < 0 || o > n)
      fail(ErrorCode::BadInput, c.where(), "embedding_bag: offset ", o, " of bag ", b, " is out of range for ", n,
           " indices");
    ++starts[o];
  }
  starts[0] -= 1;
  std::vector<int64_t> bags(n);
  int64_t running = 0;
  for (int64_t i = 0; i < n; ++i) bags[i] = running += starts[i];
  return bags;
}

// Indices per bag: offset differences, the last bag running to the end.
std::vector<int64_t> bag_sizes_of(const BagInputs& in) {
  const int64_t bags = in.num_bags(), n = static_cast<int64_t>(in.indices.size());
  std::vector<int64_t> sizes(bags);
  for (int64_t b = 0; b + 1 < bags; ++b) sizes[b] = in.offsets[b + 1] - in.offsets[b];
  if (bags > 0) sizes[bags - 1] = n - in.offsets[bags - 1];
  return sizes;
}

void check_index(const OpCall& c, int64_t idx, int64_t num_embeddings) {
  if (idx < 0 || idx >= num_embeddings)
    fail(ErrorCode::BadInput, c.where(),
         "embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be ", idx);
}

// The index list for one of the integer outputs.
Tensor index_tensor(const std::vector<int64_t>& values, const Shape& shape, DType dtype) {
  Tensor t = Tensor::empty(DType::Int64, shape);
  std::copy(values.begin(), values.end(), t.data<int64_t>());
  return t.to(dtype);
}

// Sum and mean: accumulate rows (times per-sample weights) into their bags.
// `bag_of(i)` names index i's bag, or -1 when the fast path leaves it out.
template <typename T, typename BagOf>
std::vector<opmath_t<T>> sum_rows(const OpCall& c, const BagInputs& in, BagOf&& bag_of,
                                  std::vector<int64_t>& bag_size) {
  using M = opmath_t<T>;
  const int64_t D = in.weight.size(1), rows = in.weight.size(0);
  const Shape& ws = in.weight.strides();
  const T* w = in.weight.data<T>();
  Tensor psw = in.per_sample_weights.defined() ? in.per_sample_weights.contiguous() : Tensor();
  const T* scale = psw.defined() ? psw.data<T>() : nullptr;
  std::vector<M> acc(static_cast<size_t>(in.num_bags() * D), M(0));
  for (size_t i = 0; i < in.indices.size(); ++i) {
    const int64_t bag = bag_of(static_cast<int64_t>(i));
    if (bag < 0) continue;
    const int64_t idx = in.indices[i];
    check_index(c, idx, rows);
    if (idx == in.padding_idx) {
      if (bag < static_cast<int64_t>(bag_size.size())) --bag_size[bag];
      continue;
    }
    const T* row = w + idx * ws[0];
    M* dst = acc.data() + bag * D;
    if (scale) {
      const M s = static_cast<M>(scale[i]);
      for (int64_t d = 0; d < D; ++d) dst[d] += static_cast<M>(row[d * ws[1]]) * s;
    } else {
      for (int64_t d = 0; d < D; ++d) dst[d] += static_cast<M>(row[d * ws[1]]);
    }
  }
  return acc;
}

template <typename T>
Tensor sum_or_mean(const OpCall& c, const BagInputs& in, bool fast, const std::vector<int64_t>& bags,
                   std::vector<int64_t>& bag_size) {
  using M = opmath_t<T>;
  const int64_t D = in.weight.size(1), num_bags = in.num_bags(), n = static_cast<int64_t>(in.indices.size());
  std::vector<int64_t> fast_bags;
  if (fast) {
    // Bag b covers [offsets[b], offsets[b + 1]), the last one up to n unless include_last_offset.
    fast_bags.assign(n, -1);
    for (int64_t b = 0; b < num_bags; ++b) {
      const int64_t end = b + 1 < static_cast<int64_t>(in.offsets.size()) ? in.offsets[b + 1] : n;
      for (int64_t i = in.offsets[b]; i < end && i < n; ++i) fast_bags[i] = b;
    }
  }
  const std::vector<int64_t>& owner = fast ? fast_bags : bags;
  std::vector<M> acc = sum_rows<T>(c, in, [&](int64_t i) { return owner[i]; }, bag_size);
  Tensor out = Tensor::empty(in.weight.dtype(), {num_bags, D});
  T* po = out.data<T>();
  for (int64_t b = 0; b < num_bags; ++b) {
    for (int64_t d = 0; d < D; ++d) {
      T v = convert_element<T>(acc[b * D + d]);
      if (in.mode == BagMode::Mean) {
        const M count = static_cast<M>(std::max<int64_t>(bag_size[b], 1));
        v = convert_element<T>(static_cast<M>(v) / count);
      }
      po[b * D + d] = v;
    }
  }
  return out;
}

// Max: per feature the largest row value of the bag (first one on ties and
// NaN stays only when first), with the row index that gave it.
template <typename T>
Tensor bag_max(const OpCall& c, const BagInputs& in, const std::vector<int64_t>& bags, std::vector<int64_t>& bag_size,
               std::vector<int64_t>& max_indices) {
  const int64_t D = in.weight.size(1), rows = in.weight.size(0), num_bags = in.num_bags();
  const Shape& ws = in.weight.strides();
  const T* w = in.weight.data<T>();
  Tensor out = Tensor::empty(in.weight.dtype(), {num_bags, D});
  T* po = out.data<T>();
  max_indices.assign(static_cast<size_t>(num_bags * D), 0);
  std::vector<bool> empty(num_bags, true);
  for (size_t i = 0; i < in.indices.size(); ++i) {
    const int64_t bag = bags[i], idx = in.indices[i];
    check_index(c, idx, rows);
    if (bag < 0) continue;  // no bags at all (empty offsets)
    if (idx == in.padding_idx) {
      --bag_size[bag];
      continue;
    }
    for (int64_t d = 0; d < D; ++d) {
      const T value = w[idx * ws[0] + d * ws[1]];
      T& current = po[bag * D + d];
      if (empty[bag] || static_cast<opmath_t<T>>(value) > static_cast<opmath_t<T>>(current)) {
        current = value;
        max_indices[bag * D + d] = idx;
      }
    }
    empty[bag] = false;
  }
  return out;
}

void embedding_bag_impl(OpCall& c, BagInputs& in, const Tensor& indices, const Tensor& offsets) {
  check_bag_arguments(c, in.weight, indices, offsets, in);
  const int64_t num_bags = in.num_bags(), D = in.weight.size(1);
  const bool fast = is_fast_path(in);
  const bool need_offset2bag = in.mode != BagMode::Sum || !fast;
  const std::vector<int64_t> bags = need_offset2bag ? offset2bag_of(c, in) : std::vector<int64_t>();
  // bag_size: counted for mean/max (and for sum when gradients are wanted,
  // though sum zeroes it again); otherwise just shaped like offsets.
  const bool counted = in.requires_grad || in.mode != BagMode::Sum;
  std::vector<int64_t> bag_size = counted ? bag_sizes_of(in) : std::vector<int64_t>(in.offsets.size(), 0);
  const Shape bag_shape{static_cast<int64_t>(bag_size.size())};
  std::vector<int64_t> max_indices;
  Tensor output;
  visit_floating_dtype(in.weight.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    output = in.mode == BagMode::Max ? bag_max<T>(c, in, bags, bag_size, max_indices)
                                     : sum_or_mean<T>(c, in, fast, bags, bag_size);
  });
  if (in.mode == BagMode::Sum) std::fill(bag_size.begin(), bag_size.end(), 0);
  const Shape max_shape = in.mode == BagMode::Max ? Shape{num_bags, D} : bag_shape;
  if (in.mode != BagMode::Max) max_indices = bag_size;
  c.push(output);
  c.push(index_tensor(bags, {static_cast<int64_t>(bags.size())}, in.index_dtype));
  c.push(index_tensor(bag_size, bag_shape, in.index_dtype));
  c.push(index_tensor(max_indices, max_shape, in.index_dtype));
}

// Arguments shared by every overload: weight, indices, offsets,
// scale_grad_by_freq, mode, sparse, per_sample_weights, include_last_offset.
BagInputs common_inputs(const OpCall& c) {
  BagInputs in;
  in.weight = c.tensor(0);
  in.mode = static_cast<BagMode>(c.int_arg(4));
  in.per_sample_weights = c.optional_tensor(6);
  in.include_last_offset = c.bool_arg(7);
  return in;
}

// _embedding_bag / _embedding_bag_forward_only: padding_idx is used as given
// (negative means none).
template <bool RequiresGrad>
void embedding_bag_internal_op(OpCall& c) {
  BagInputs in = common_inputs(c);
  in.padding_idx = c.int_arg(8);
  in.requires_grad = RequiresGrad;
  embedding_bag_impl(c, in, c.tensor(1), c.tensor(2));
}

// embedding_bag / embedding_bag.padding_idx (the composite ops): padding_idx
// must lie in [-num_embeddings, num_embeddings) and wraps. They run the
// _embedding_bag form (the one torch picks when the weight requires grad).
template <bool HasPaddingIdx>
void embedding_bag_op(OpCall& c) {
  BagInputs in = common_inputs(c);
  std::optional<int64_t> padding = HasPaddingIdx ? c.optional_int(8) : std::nullopt;
  if (padding) {
    const int64_t rows = in.weight.dim() >= 1 ? in.weight.size(0) : 0;
    if (*padding < -rows || *padding >= rows)
      fail(ErrorCode::BadInput, c.where(), "padding_idx must be within the number of embeddings, -", rows,
           " through ", rows - 1, ", but got ", *padding);
    in.padding_idx = *padding < 0 ? *padding + rows : *padding;
  }
  embedding_bag_impl(c, in, c.tensor(1), c.tensor(2));
}

}  // namespace

void register_embedding_bag_ops(OpTable& t) {
  t.add("aten::_embedding_bag(Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq=False, "
        "int mode=0, bool sparse=False, Tensor? per_sample_weights=None, bool include_last_offset=False, "
        "int padding_idx=-1) -> (Tensor, Tensor, Tensor, Tensor)",
        embedding_bag_internal_op<true>);
  t.add("aten::_embedding_bag_forward_only(Tensor weight, Tensor indices, Tensor offsets, "
        "bool scale_grad_by_freq=False, int mode=0, bool sparse=False, Tensor? per_sample_weights=None, "
        "bool include_last_offset=False, int padding_idx=-1) -> (Tensor, Tensor, Tensor, Tensor)",
        embedding_bag_internal_op<false>);
  t.add("aten::embedding_bag(Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq=False, "
        "int mode=0, bool sparse=False, Tensor? per_sample_weights=None, bool include_last_offset=False) "
        "-> (Tensor, Tensor, Tensor, Tensor)",
        embedding_bag_op<false>);
  t.add("aten::embedding_bag.padding_idx(Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq, "
        "int mode, bool sparse, Tensor? per_sample_weights, bool include_last_offset, int? padding_idx) "
        "-> (Tensor, Tensor, Tensor, Tensor)",
        embedding_bag_op<true>);
}

}  // namespace pt2web
