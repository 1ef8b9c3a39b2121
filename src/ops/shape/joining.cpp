// Joining and splitting: cat/stack/hstack/vstack/dstack, split/chunk/
// tensor_split/unbind (views into the input, as in ATen), meshgrid, and the
// element rearrangements flip/roll/repeat/tile. Padding lives in joining_pad.cpp,
// copy_/*_scatter/tril/triu in joining_copy.cpp (this folder).
#include <algorithm>

#include "ops/shape/shape.h"
#include "ops/op_utils.h"
#include "ops/shape_indexing.h"
#include "ops/type_promotion.h"
#include "ops/views.h"
#include "tensor/storage_size.h"
#include "util/int_math.h"

namespace pt2web {

namespace {

// ---- cat / stack -----------------------------------------------------------

// ATen skips 1-d empty tensors in cat (a legacy rule), whatever their rank
// would have needed to be.
bool skipped_in_cat(const Tensor& t) { return t.dim() == 1 && t.numel() == 0; }

Tensor cat_tensors(const std::vector<Tensor>& tensors, int64_t dim, const std::string& where) {
  if (tensors.empty()) fail(ErrorCode::BadInput, where, "torch.cat(): expected a non-empty list of Tensors");
  ResultType promotion;
  const Tensor* ref = nullptr;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    if (t.dim() == 0)
      fail(ErrorCode::BadInput, where, "zero-dimensional tensor (at position ", i, ") cannot be concatenated");
    promotion.add(t);
    if (!ref && !skipped_in_cat(t)) ref = &t;
  }
  DType dtype = promotion.get();
  if (!ref) return Tensor::empty(dtype, tensors[0].sizes());
  dim = wrap_dim(dim, ref->dim());
  Shape shape = ref->sizes();
  shape[dim] = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    if (skipped_in_cat(t)) continue;
    if (t.dim() != ref->dim())
      fail(ErrorCode::BadInput, where, "Tensors must have same number of dimensions: got ", ref->dim(), " and ", t.dim());
    for (int64_t d = 0; d < t.dim(); ++d)
      if (d != dim && t.sizes()[d] != shape[d])
        fail(ErrorCode::BadInput, where, "Sizes of tensors must match except in dimension ", dim, ". Expected size ",
             shape[d], " but got size ", t.sizes()[d], " for tensor number ", i, " in the list.");
    shape[dim] += t.sizes()[dim];
  }
  Tensor out = Tensor::empty(dtype, shape);
  int64_t offset = 0;
  for (const Tensor& t : tensors) {
    if (skipped_in_cat(t)) continue;
    int64_t n = t.sizes()[dim];
    if (n > 0 && t.numel() > 0) slice_view(out, dim, offset, offset + n, 1).copy_from(t);
    offset += n;
  }
  return out;
}

void cat_op(OpCall& c) { c.push(cat_tensors(c.tensor_list(0), c.int_arg(1), c.where())); }

void stack_op(OpCall& c) {
  std::vector<Tensor> tensors = c.tensor_list(0);
  if (tensors.empty()) fail(ErrorCode::BadInput, c.where(), "stack expects a non-empty TensorList");
  for (size_t i = 1; i < tensors.size(); ++i)
    if (tensors[i].sizes() != tensors[0].sizes())
      fail(ErrorCode::BadInput, c.where(), "stack expects each tensor to be equal size, but got ",
           shape_to_string(tensors[0].sizes()), " at entry 0 and ", shape_to_string(tensors[i].sizes()), " at entry ", i);
  int64_t dim = wrap_dim(c.int_arg(1), tensors[0].dim() + 1);
  for (Tensor& t : tensors) t = unsqueeze_view(t, dim);
  c.push(cat_tensors(tensors, dim, c.where()));
}

// hstack/vstack/dstack: raise every input to N dims the way atleast_Nd does,
// then concatenate along `dim` (hstack joins 1-d inputs along dim 0).
Tensor at_least(const Tensor& t, int n) {
  if (t.dim() >= n) return t;
  if (n == 3 && t.dim() == 2) return unsqueeze_view(t, 2);
  if (n == 3 && t.dim() == 1) return unsqueeze_view(unsqueeze_view(t, 0), 2);
  Tensor y = t;
  while (y.dim() < n) y = unsqueeze_view(y, 0);
  return y;
}

template <int N, int Dim>
void nstack_op(OpCall& c) {
  std::vector<Tensor> tensors = c.tensor_list(0);
  if (tensors.empty()) fail(ErrorCode::BadInput, c.where(), "expects a non-empty TensorList");
  for (Tensor& t : tensors) t = at_least(t, N);
  int64_t dim = (N == 1 && tensors[0].dim() == 1) ? 0 : Dim;
  c.push(cat_tensors(tensors, dim, c.where()));
}

// ---- splitting -------------------------------------------------------------

void push_list(OpCall& c, std::vector<Tensor> parts) { c.outputs.push_back(Value::from_tensors(std::move(parts))); }

int64_t split_dim(const OpCall& c, const Tensor& x, int64_t dim) {
  if (x.dim() == 0) fail(ErrorCode::BadInput, c.where(), "split expects at least a 1-dimensional tensor");
  return wrap_dim(dim, x.dim());
}

std::vector<Tensor> split_by_sizes(const OpCall& c, const Tensor& x, const std::vector<int64_t>& sizes, int64_t dim) {
  dim = split_dim(c, x, dim);
  int64_t total = 0;
  for (int64_t s : sizes) {
    if (s < 0)
      fail(ErrorCode::BadInput, c.where(), "split_with_sizes expects split_sizes have only non-negative entries, but got "
           "split_sizes=", shape_to_string(sizes));
    // A sum past int64 cannot match the size either.
    if (__builtin_add_overflow(total, s, &total)) total = -1;
    if (total < 0) break;
  }
  if (total != x.sizes()[dim])
    fail(ErrorCode::BadInput, c.where(), "split_with_sizes expects split_sizes to sum exactly to ", x.sizes()[dim],
         " (input tensor's size at dimension ", dim, "), but got split_sizes=", shape_to_string(sizes));
  std::vector<Tensor> parts;
  int64_t start = 0;
  for (int64_t s : sizes) {
    parts.push_back(slice_view(x, dim, start, start + s, 1));
    start += s;
  }
  return parts;
}

std::vector<Tensor> split_by_size(const OpCall& c, const Tensor& x, int64_t split_size, int64_t dim) {
  dim = split_dim(c, x, dim);
  int64_t dim_size = x.sizes()[dim];
  if (split_size < 0)
    fail(ErrorCode::BadInput, c.where(), "split expects split_size be non-negative, but got split_size=", split_size);
  if (split_size == 0 && dim_size != 0)
    fail(ErrorCode::BadInput, c.where(), "split_size can only be 0 if dimension size is 0, but got dimension size of ",
         dim_size);
  // A split_size larger than the dimension still gives one (short) piece.
  int64_t pieces = split_size == 0 ? 1 : std::max<int64_t>(ceil_div(dim_size, split_size), 1);
  std::vector<int64_t> sizes(pieces, split_size);
  sizes.back() = split_size - (split_size * pieces - dim_size);
  return split_by_sizes(c, x, sizes, dim);
}

void split_op(OpCall& c) { push_list(c, split_by_size(c, c.tensor(0), c.int_arg(1), c.int_arg(2))); }
void split_sizes_op(OpCall& c) { push_list(c, split_by_sizes(c, c.tensor(0), c.int_list(1), c.int_arg(2))); }

void chunk_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  int64_t chunks = c.int_arg(1);
  if (x.dim() == 0) fail(ErrorCode::BadInput, c.where(), "chunk expects at least a 1-dimensional tensor");
  if (chunks <= 0) fail(ErrorCode::BadInput, c.where(), "chunk expects `chunks` to be greater than 0, got: ", chunks);
  int64_t dim = wrap_dim(c.int_arg(2), x.dim());
  int64_t dim_size = x.sizes()[dim];
  int64_t split_size = ceil_div(dim_size, chunks);
  // An empty dimension still yields `chunks` empty pieces: a list of tensors
  // as long as the program asks, so a count no memory holds is refused first.
  if (split_size == 0 && dim_size == 0) {
    constexpr int64_t kMostPieces = int64_t(1) << 24;
    if (chunks > kMostPieces)
      fail(ErrorCode::OutOfMemory, c.where(), "chunk of an empty dimension into ", chunks, " pieces would return ",
           chunks, " tensors (at most ", kMostPieces, " are made)");
    push_list(c, split_by_sizes(c, x, std::vector<int64_t>(chunks, 0), dim));
  } else {
    push_list(c, split_by_size(c, x, split_size, dim));
  }
}

void tensor_split_sections_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  int64_t sections = c.int_arg(1);
  if (x.dim() == 0)
    fail(ErrorCode::BadInput, c.where(), "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims");
  if (sections <= 0) fail(ErrorCode::BadInput, c.where(), "number of sections must be larger than 0, got ", sections);
  // Every section is a tensor of its own; a count no memory could hold them in is refused.
  if (sections > (int64_t(1) << 24))
    fail(ErrorCode::OutOfMemory, c.where(), "out of memory: ", sections, " sections are more tensors than pt2web makes (2^24)");
  int64_t dim = wrap_dim(c.int_arg(2), x.dim());
  int64_t size = x.sizes()[dim];
  // The first size % sections pieces get one extra element.
  std::vector<int64_t> sizes(sections, size / sections);
  for (int64_t i = 0; i < size % sections; ++i) ++sizes[i];
  push_list(c, split_by_sizes(c, x, sizes, dim));
}

void tensor_split_indices_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  if (x.dim() == 0)
    fail(ErrorCode::BadInput, c.where(), "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims");
  int64_t dim = wrap_dim(c.int_arg(2), x.dim());
  std::vector<Tensor> parts;
  int64_t start = 0;
  for (int64_t end : c.int_list(1)) {
    parts.push_back(slice_view(x, dim, start, end, 1));
    start = end;
  }
  parts.push_back(slice_view(x, dim, start, std::nullopt, 1));
  push_list(c, parts);
}

void unbind_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  if (x.dim() == 0) fail(ErrorCode::BadInput, c.where(), "Dimension specified as 0 but tensor has no dimensions");
  int64_t dim = wrap_dim(c.int_arg(1), x.dim());
  std::vector<Tensor> parts;
  for (int64_t i = 0; i < x.sizes()[dim]; ++i) parts.push_back(select_view(x, dim, i));
  push_list(c, parts);
}

// ---- flip / roll / repeat / tile --------------------------------------------

std::vector<std::vector<int64_t>> identity_maps(const Tensor& x) {
  std::vector<std::vector<int64_t>> maps;
  for (int64_t s : x.sizes()) maps.push_back(identity_map(s));
  return maps;
}

void flip_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  std::vector<int64_t> dims = c.int_list(1);
  std::vector<bool> flipped(std::max<int64_t>(x.dim(), 1), false);
  for (int64_t d : dims) {
    int64_t w = wrap_dim(d, x.dim());
    if (flipped[w]) fail(ErrorCode::BadInput, c.where(), "dim ", w, " appears multiple times in the list of dims");
    flipped[w] = true;
  }
  auto maps = identity_maps(x);
  for (int64_t d = 0; d < x.dim(); ++d)
    if (flipped[d]) std::reverse(maps[d].begin(), maps[d].end());
  c.push(gather_by_dim_maps(x, maps));
}

// Python's modulo (the result takes the divisor's sign).
int64_t floor_mod(int64_t a, int64_t n) { return ((a % n) + n) % n; }

void roll_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  std::vector<int64_t> shifts = c.int_list(1), dims = c.int_list(2);
  if (shifts.empty()) fail(ErrorCode::BadInput, c.where(), "`shifts` required");
  if (dims.empty() && shifts.size() == 1) {
    // No dims: roll the flattened tensor and restore the shape.
    Tensor flat = reshape(x, {-1});
    std::vector<std::vector<int64_t>> maps(1);
    int64_t n = flat.numel();
    const int64_t shift = n == 0 ? 0 : floor_mod(shifts[0], n);  // reduced first: no shift overflows
    for (int64_t i = 0; i < n; ++i) maps[0].push_back(floor_mod(i - shift, n));
    c.push(reshape(gather_by_dim_maps(flat, maps), x.sizes()));
    return;
  }
  if (shifts.size() != dims.size())
    fail(ErrorCode::BadInput, c.where(), "shifts and dimensions must align. shifts: ", shifts.size(), ", dims:", dims.size());
  if (x.dim() == 0) {  // a scalar rolls onto itself (its dims wrap as ATen wraps a scalar's)
    for (int64_t d : dims) wrap_dim(d, 0, c.where().c_str());
    c.push(x.clone());
    return;
  }
  // Rolling the same dim twice adds the shifts (each reduced modulo the size first).
  std::vector<int64_t> total(x.dim(), 0);
  for (size_t k = 0; k < dims.size(); ++k) {
    const int64_t d = wrap_dim(dims[k], x.dim(), c.where().c_str()), n = x.sizes()[d];
    if (n > 0) total[d] = floor_mod(total[d] + floor_mod(shifts[k], n), n);
  }
  auto maps = identity_maps(x);
  for (int64_t d = 0; d < x.dim(); ++d) {
    int64_t n = x.sizes()[d];
    for (int64_t i = 0; i < n; ++i) maps[d][i] = floor_mod(i - total[d], n);
  }
  c.push(gather_by_dim_maps(x, maps));
}

Tensor repeat_tensor(const OpCall& c, const Tensor& x, const std::vector<int64_t>& repeats) {
  if (repeats.size() < static_cast<size_t>(x.dim()))
    fail(ErrorCode::BadInput, c.where(),
         "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
  for (int64_t r : repeats)
    if (r < 0)
      fail(ErrorCode::BadInput, c.where(), "Trying to create tensor with negative dimension ", r, ": ",
           shape_to_string(repeats));
  // View the input with leading size-1 dims so it has one dim per repeat.
  size_t lead = repeats.size() - x.dim();
  Shape sizes(lead, 1), strides(lead, 0);
  sizes.insert(sizes.end(), x.sizes().begin(), x.sizes().end());
  strides.insert(strides.end(), x.strides().begin(), x.strides().end());
  Tensor padded = x.as_strided(sizes, strides, x.storage_offset());
  // The result's size is checked (and an empty one returned) before any index map is built.
  Shape out(sizes.size());
  for (size_t d = 0; d < sizes.size(); ++d)
    if (__builtin_mul_overflow(sizes[d], repeats[d], &out[d]))
      fail(ErrorCode::BadInput, c.where(), "repeating ", shape_to_string(x.sizes()), " by ", shape_to_string(repeats),
           " gives more than 2^63 elements");
  const int64_t numel = shape_numel(out);
  if (numel == 0) return Tensor::empty(x.dtype(), out);
  storage_bytes(numel, x.dtype());
  std::vector<std::vector<int64_t>> maps(sizes.size());
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] == 0) continue;  // an empty dim stays empty
    for (int64_t i = 0; i < sizes[d] * repeats[d]; ++i) maps[d].push_back(i % sizes[d]);
  }
  return gather_by_dim_maps(padded, maps);
}

void repeat_op(OpCall& c) { c.push(repeat_tensor(c, c.tensor(0), c.int_list(1))); }

void tile_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  std::vector<int64_t> reps = c.int_list(1);
  // Fewer reps than dims means leading reps of 1.
  if (reps.size() < static_cast<size_t>(x.dim())) reps.insert(reps.begin(), x.dim() - reps.size(), 1);
  c.push(repeat_tensor(c, x, reps));
}

// ---- meshgrid ------------------------------------------------------------------

// meshgrid: input k (0-d or 1-d) becomes a view varying along dim k of the
// grid of all input lengths; "xy" indexing swaps the roles of the first two.
std::vector<Tensor> meshgrid(const OpCall& c, std::vector<Tensor> tensors, const std::string& indexing) {
  if (indexing != "ij" && indexing != "xy")
    fail(ErrorCode::BadInput, c.where(), "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: ",
         indexing);
  if (tensors.empty()) fail(ErrorCode::BadInput, c.where(), "meshgrid expects a non-empty TensorList");
  for (const Tensor& t : tensors) {
    if (t.dim() > 1)
      fail(ErrorCode::BadInput, c.where(), "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: ",
           shape_to_string(t.sizes()));
    if (t.dtype() != tensors[0].dtype())
      fail(ErrorCode::BadInput, c.where(), "meshgrid expects all tensors to have the same dtype");
  }
  const bool swap = indexing == "xy" && tensors.size() >= 2;
  if (swap) std::swap(tensors[0], tensors[1]);
  Shape grid;
  for (const Tensor& t : tensors) grid.push_back(t.numel());
  std::vector<Tensor> out;
  for (size_t k = 0; k < tensors.size(); ++k) {
    Shape view(tensors.size(), 1);
    view[k] = -1;
    out.push_back(expand_view(reshape(tensors[k], view), grid));
  }
  if (swap) std::swap(out[0], out[1]);
  return out;
}

void meshgrid_op(OpCall& c) { push_list(c, meshgrid(c, c.tensor_list(0), "ij")); }
void meshgrid_indexing_op(OpCall& c) { push_list(c, meshgrid(c, c.tensor_list(0), c.string_arg(1))); }

}  // namespace

void register_joining_ops(OpTable& t) {
  t.add("aten::cat(Tensor[] tensors, int dim=0) -> Tensor", cat_op);
  t.add("aten::stack(Tensor[] tensors, int dim=0) -> Tensor", stack_op);
  t.add("aten::hstack(Tensor[] tensors) -> Tensor", nstack_op<1, 1>);
  t.add("aten::vstack(Tensor[] tensors) -> Tensor", nstack_op<2, 0>);
  t.add("aten::dstack(Tensor[] tensors) -> Tensor", nstack_op<3, 2>);
  t.add("aten::split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]", split_op);
  t.add("aten::split.sizes(Tensor(a -> *) self, SymInt[] split_size, int dim=0) -> Tensor(a)[]", split_sizes_op);
  t.add("aten::split_with_sizes(Tensor(a -> *) self, SymInt[] split_sizes, int dim=0) -> Tensor(a)[]",
        split_sizes_op);
  t.add("aten::unsafe_split.Tensor(Tensor self, SymInt split_size, int dim=0) -> Tensor[]", split_op);
  t.add("aten::unsafe_split_with_sizes(Tensor self, SymInt[] split_sizes, int dim=0) -> Tensor[]", split_sizes_op);
  t.add("aten::chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]", chunk_op);
  t.add("aten::unsafe_chunk(Tensor self, int chunks, int dim=0) -> Tensor[]", chunk_op);
  t.add("aten::tensor_split.sections(Tensor(a -> *) self, SymInt sections, int dim=0) -> Tensor(a)[]",
        tensor_split_sections_op);
  t.add("aten::tensor_split.indices(Tensor(a -> *) self, SymInt[] indices, int dim=0) -> Tensor(a)[]",
        tensor_split_indices_op);
  t.add("aten::unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]", unbind_op);
  t.add("aten::flip(Tensor self, int[] dims) -> Tensor", flip_op);
  t.add("aten::roll(Tensor self, SymInt[1] shifts, int[1] dims=[]) -> Tensor", roll_op);
  t.add("aten::repeat(Tensor self, SymInt[] repeats) -> Tensor", repeat_op);
  t.add("aten::tile(Tensor self, SymInt[] dims) -> Tensor", tile_op);
  t.add("aten::meshgrid(Tensor[] tensors) -> Tensor[]", meshgrid_op);
  t.add("aten::meshgrid.indexing(Tensor[] tensors, *, str indexing) -> Tensor[]", meshgrid_indexing_op);
}

}  // namespace pt2web
