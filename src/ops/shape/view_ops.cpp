// View and layout operators: view/reshape/permute/transpose/t, (un)squeeze,
// expand, broadcast_to/broadcast_tensors, slice, select, narrow,
// flatten/unflatten, movedim, unfold,
// as_strided, diagonal, *_as, atleast_nd, clone/contiguous/alias.
// View ops share storage with their input, as in ATen.
#include <algorithm>

#include "ops/shape/shape.h"
#include "ops/op_utils.h"
#include "ops/shape_indexing.h"
#include "ops/views.h"

namespace pt2web {

namespace {

void view_op(OpCall& c) { c.push(view_as(c.tensor(0), c.int_list(1))); }
void reshape_op(OpCall& c) { c.push(reshape(c.tensor(0), c.int_list(1))); }
void permute_op(OpCall& c) { c.push(permute_view(c.tensor(0), c.int_list(1))); }
void transpose_op(OpCall& c) { c.push(transpose_view(c.tensor(0), c.int_arg(1), c.int_arg(2))); }
void t_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  if (x.dim() > 2) fail(ErrorCode::BadInput, c.where(), "t() expects a tensor with <= 2 dimensions, but self is ", x.dim(), "D");
  c.push(x.dim() < 2 ? x : transpose_view(x, 0, 1));
}
void unsqueeze_op(OpCall& c) { c.push(unsqueeze_view(c.tensor(0), c.int_arg(1))); }
void squeeze_all_op(OpCall& c) { c.push(squeeze_view(c.tensor(0), {})); }
void squeeze_dim_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  c.push(x.dim() == 0 ? x : squeeze_view(x, {c.int_arg(1)}));
}
void squeeze_dims_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  auto dims = c.int_list(1);
  c.push(x.dim() == 0 || dims.empty() ? x : squeeze_view(x, dims));
}
void expand_op(OpCall& c) { c.push(expand_view(c.tensor(0), c.int_list(1))); }
void slice_op(OpCall& c) {
  c.push(slice_view(c.tensor(0), c.int_arg(1), c.optional_int(2), c.optional_int(3), c.int_arg(4)));
}
void select_op(OpCall& c) { c.push(select_view(c.tensor(0), c.int_arg(1), c.int_arg(2))); }

void flatten_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  if (x.dim() == 0) {
    c.push(reshape(x, {1}));
    return;
  }
  int64_t start = wrap_dim(c.int_arg(1), x.dim()), end = wrap_dim(c.int_arg(2), x.dim());
  if (start > end) fail(ErrorCode::BadInput, c.where(), "flatten() has invalid args: start_dim cannot come after end_dim");
  Shape shape(x.sizes().begin(), x.sizes().begin() + start);
  int64_t n = 1;
  for (int64_t d = start; d <= end; ++d) n *= x.sizes()[d];
  shape.push_back(n);
  shape.insert(shape.end(), x.sizes().begin() + end + 1, x.sizes().end());
  c.push(reshape(x, shape));
}

void unflatten_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  if (x.dim() == 0) fail(ErrorCode::BadInput, c.where(), "Cannot unflatten a 0-d tensor");
  int64_t dim = wrap_dim(c.int_arg(1), x.dim());
  auto sizes = c.int_list(2);
  Shape inner = infer_size(sizes, x.sizes()[dim]);
  Shape shape(x.sizes().begin(), x.sizes().begin() + dim);
  shape.insert(shape.end(), inner.begin(), inner.end());
  shape.insert(shape.end(), x.sizes().begin() + dim + 1, x.sizes().end());
  c.push(view_as(x, shape));
}

void view_as_op(OpCall& c) { c.push(view_as(c.tensor(0), c.tensor(1).sizes())); }
void reshape_as_op(OpCall& c) { c.push(reshape(c.tensor(0), c.tensor(1).sizes())); }
void expand_as_op(OpCall& c) { c.push(expand_view(c.tensor(0), c.tensor(1).sizes())); }
void broadcast_to_op(OpCall& c) { c.push(expand_view(c.tensor(0), c.int_list(1))); }

// broadcast_tensors: every input expanded (as a view) to the common shape.
void broadcast_tensors_op(OpCall& c) {
  std::vector<Tensor> tensors = c.tensor_list(0);
  Shape shape;
  for (const Tensor& t : tensors) shape = broadcast_shapes(shape, t.sizes());
  for (Tensor& t : tensors) t = expand_view(t, shape);
  c.outputs.push_back(Value::from_tensors(std::move(tensors)));
}

void ravel_op(OpCall& c) { c.push(reshape(c.tensor(0), {-1})); }

// narrow(dim, start, length): start may count from the end; the window must fit.
Tensor narrow_view(const OpCall& c, const Tensor& x, int64_t dim, int64_t start, int64_t length) {
  if (x.dim() == 0) fail(ErrorCode::BadInput, c.where(), "narrow() cannot be applied to a 0-dim tensor.");
  if (length < 0) fail(ErrorCode::BadInput, c.where(), "narrow(): length must be non-negative.");
  dim = wrap_dim(dim, x.dim());
  int64_t size = x.sizes()[dim];
  if (start < -size || start > size)
    fail(ErrorCode::BadInput, c.where(), "start out of range (expected to be in range of [", -size, ", ", size,
         "], but got ", start, ")");
  if (start < 0) start += size;
  if (start > size - length)
    fail(ErrorCode::BadInput, c.where(), "start (", start, ") + length (", length, ") exceeds dimension size (", size,
         ").");
  return slice_view(x, dim, start, start + length, 1);
}

void narrow_op(OpCall& c) { c.push(narrow_view(c, c.tensor(0), c.int_arg(1), c.int_arg(2), c.int_arg(3))); }
void narrow_tensor_op(OpCall& c) {
  const Tensor& start = c.tensor(2);
  if (start.numel() != 1 || start.dim() != 0 || is_floating(start.dtype()) || start.dtype() == DType::Bool)
    fail(ErrorCode::BadInput, c.where(), "start must be an 0-dim integral Tensor.");
  c.push(narrow_view(c, c.tensor(0), c.int_arg(1), start.item_as_int(), c.int_arg(3)));
}
void narrow_copy_op(OpCall& c) {
  c.push(narrow_view(c, c.tensor(0), c.int_arg(1), c.int_arg(2), c.int_arg(3)).clone());
}

// movedim: the listed source dims land at the destination positions; the
// other dims keep their relative order in the remaining positions.
Tensor movedim(const OpCall& c, const Tensor& x, const std::vector<int64_t>& src, const std::vector<int64_t>& dst) {
  if (src.size() != dst.size())
    fail(ErrorCode::BadInput, c.where(), "movedim: Invalid source or destination dims: source (",
         shape_to_string(src), " dims) should contain the same number of dims as destination (", shape_to_string(dst),
         " dims)");
  const int64_t rank = x.dim();
  if (rank == 0) {  // a scalar's only dim (0 or -1) stays where it is, as in ATen
    for (size_t k = 0; k < src.size(); ++k) {
      wrap_dim(src[k], rank, c.where().c_str());
      wrap_dim(dst[k], rank, c.where().c_str());
    }
    return x;
  }
  std::vector<int64_t> perm(rank, -1);
  std::vector<bool> used(rank, false);
  for (size_t k = 0; k < src.size(); ++k) {
    int64_t s = wrap_dim(src[k], rank), d = wrap_dim(dst[k], rank);
    if (used[s]) fail(ErrorCode::BadInput, c.where(), "movedim: repeated dim in `source` (", shape_to_string(src), ")");
    if (perm[d] >= 0)
      fail(ErrorCode::BadInput, c.where(), "movedim: repeated dim in `destination` (", shape_to_string(dst), ")");
    perm[d] = s;
    used[s] = true;
  }
  int64_t next = 0;
  for (int64_t& p : perm) {
    if (p >= 0) continue;
    while (used[next]) ++next;
    p = next++;
  }
  return rank == 0 ? x : permute_view(x, perm);
}

void movedim_int_op(OpCall& c) { c.push(movedim(c, c.tensor(0), {c.int_arg(1)}, {c.int_arg(2)})); }
void movedim_list_op(OpCall& c) { c.push(movedim(c, c.tensor(0), c.int_list(1), c.int_list(2))); }

// unfold(dimension, size, step): a new last dim walks windows of `size`
// elements taken every `step` along `dimension`.
void unfold_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  int64_t size = c.int_arg(2), step = c.int_arg(3);
  Shape sizes = x.sizes(), strides = x.strides();
  int64_t dim = 0, dim_size = 1, dim_stride = 1;
  if (x.dim() > 0) {
    dim = wrap_dim(c.int_arg(1), x.dim());
    dim_size = sizes[dim];
    dim_stride = strides[dim];
  } else {
    wrap_dim(c.int_arg(1), 0);
  }
  if (size > dim_size)
    fail(ErrorCode::BadInput, c.where(), "maximum size for tensor at dimension ", dim, " is ", dim_size,
         " but size is ", size);
  if (size < 0) fail(ErrorCode::BadInput, c.where(), "size is ", size, " but must be >= 0");
  if (step <= 0) fail(ErrorCode::BadInput, c.where(), "step is ", step, " but must be > 0");
  if (x.dim() > 0) {
    sizes[dim] = (dim_size - size) / step + 1;
    // stride * step only overflows when one window fits (a step past the
    // storage); a size-1 dimension's stride is never used, so keep it.
    if (__builtin_mul_overflow(dim_stride, step, &strides[dim])) strides[dim] = dim_stride;
  }
  sizes.push_back(size);
  strides.push_back(dim_stride);
  c.push(x.as_strided(sizes, strides, x.storage_offset()));
}

void as_strided_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  c.push(checked_as_strided(x, c.int_list(1), c.int_list(2), c.optional_int(3).value_or(x.storage_offset()), c.where()));
}

void diagonal_op(OpCall& c) {
  c.push(diagonal_view(c.tensor(0), c.int_arg(1), c.int_arg(2), c.int_arg(3), c.where()));
}

// atleast_Nd: leading (and for 3-d, trailing) size-1 dims as numpy does.
template <int N>
void atleast_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  if (x.dim() >= N) {
    c.push(x);
  } else if (N == 3 && x.dim() == 2) {
    c.push(unsqueeze_view(x, -1));
  } else if (N == 3 && x.dim() == 1) {
    c.push(unsqueeze_view(unsqueeze_view(x, 0), -1));
  } else {
    Tensor y = x;
    while (y.dim() < N) y = unsqueeze_view(y, 0);
    c.push(y);
  }
}

void swapdims_op(OpCall& c) { c.push(transpose_view(c.tensor(0), c.int_arg(1), c.int_arg(2))); }

void clone_op(OpCall& c) { c.push(c.tensor(0).clone()); }
void contiguous_op(OpCall& c) { c.push(c.tensor(0).contiguous()); }
void alias_op(OpCall& c) { c.push(c.tensor(0)); }

}  // namespace

void register_view_ops(OpTable& t) {
  t.add("aten::view(Tensor(a) self, SymInt[] size) -> Tensor(a)", view_op);
  t.add("aten::_unsafe_view(Tensor self, SymInt[] size) -> Tensor", reshape_op);
  t.add("aten::reshape(Tensor(a) self, SymInt[] shape) -> Tensor(a)", reshape_op);
  t.add("aten::permute(Tensor(a) self, int[] dims) -> Tensor(a)", permute_op);
  t.add("aten::transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)", transpose_op);
  t.add("aten::t(Tensor(a) self) -> Tensor(a)", t_op);
  t.add("aten::unsqueeze(Tensor(a) self, int dim) -> Tensor(a)", unsqueeze_op);
  t.add("aten::squeeze(Tensor(a) self) -> Tensor(a)", squeeze_all_op);
  t.add("aten::squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)", squeeze_dim_op);
  t.add("aten::squeeze.dims(Tensor(a) self, int[] dim) -> Tensor(a)", squeeze_dims_op);
  t.add("aten::expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a)", expand_op);
  t.add("aten::slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor(a)",
        slice_op);
  t.add("aten::select.int(Tensor(a) self, int dim, SymInt index) -> Tensor(a)", select_op);
  t.add("aten::flatten.using_ints(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a)", flatten_op);
  t.add("aten::unflatten.int(Tensor(a) self, int dim, SymInt[] sizes) -> Tensor(a)", unflatten_op);
  t.add("aten::clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor", clone_op);
  t.add("aten::contiguous(Tensor(a) self, *, MemoryFormat memory_format=contiguous_format) -> Tensor(a)",
        contiguous_op);
  t.add("aten::alias(Tensor(a) self) -> Tensor(a)", alias_op);
  t.add("aten::detach(Tensor(a) self) -> Tensor(a)", alias_op);
  t.add("aten::view_as(Tensor(a) self, Tensor other) -> Tensor(a)", view_as_op);
  t.add("aten::reshape_as(Tensor(a) self, Tensor other) -> Tensor(a)", reshape_as_op);
  t.add("aten::expand_as(Tensor(a) self, Tensor other) -> Tensor(a)", expand_as_op);
  t.add("aten::broadcast_to(Tensor(a) self, SymInt[] size) -> Tensor(a)", broadcast_to_op);
  t.add("aten::broadcast_tensors(Tensor[] tensors) -> Tensor[]", broadcast_tensors_op);
  t.add("aten::ravel(Tensor(a) self) -> Tensor(a)", ravel_op);
  t.add("aten::narrow(Tensor(a) self, int dim, SymInt start, SymInt length) -> Tensor(a)", narrow_op);
  t.add("aten::narrow.Tensor(Tensor(a) self, int dim, Tensor start, SymInt length) -> Tensor(a)", narrow_tensor_op);
  t.add("aten::narrow_copy(Tensor self, int dim, SymInt start, SymInt length) -> Tensor", narrow_copy_op);
  t.add("aten::movedim.int(Tensor(a) self, int source, int destination) -> Tensor(a)", movedim_int_op);
  t.add("aten::movedim.intlist(Tensor(a) self, int[] source, int[] destination) -> Tensor(a)", movedim_list_op);
  t.add("aten::moveaxis.int(Tensor(a) self, int source, int destination) -> Tensor(a)", movedim_int_op);
  t.add("aten::moveaxis.intlist(Tensor(a) self, int[] source, int[] destination) -> Tensor(a)", movedim_list_op);
  t.add("aten::swapaxes(Tensor(a) self, int axis0, int axis1) -> Tensor(a)", swapdims_op);
  t.add("aten::swapdims(Tensor(a) self, int dim0, int dim1) -> Tensor(a)", swapdims_op);
  t.add("aten::unfold(Tensor(a) self, int dimension, int size, int step) -> Tensor(a)", unfold_op);
  t.add("aten::as_strided(Tensor(a) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor(a)",
        as_strided_op);
  t.add("aten::diagonal(Tensor(a) self, int offset=0, int dim1=0, int dim2=1) -> Tensor(a)", diagonal_op);
  // In-place view operators change self's sizes and strides, not its data:
  // the kernel is the view's, and the graph reads the new view through the
  // node's output (export records later uses of self as uses of it).
  t.add("aten::t_(Tensor(a!) self) -> Tensor(a!)", t_op);
  t.add("aten::transpose_(Tensor(a!) self, int dim0, int dim1) -> Tensor(a!)", transpose_op);
  t.add("aten::swapdims_(Tensor(a!) self, int dim0, int dim1) -> Tensor(a!)", swapdims_op);
  t.add("aten::swapaxes_(Tensor(a!) self, int axis0, int axis1) -> Tensor(a!)", swapdims_op);
  t.add("aten::unsqueeze_(Tensor(a!) self, int dim) -> Tensor(a!)", unsqueeze_op);
  t.add("aten::squeeze_(Tensor(a!) self) -> Tensor(a!)", squeeze_all_op);
  t.add("aten::squeeze_.dim(Tensor(a!) self, int dim) -> Tensor(a!)", squeeze_dim_op);
  t.add("aten::squeeze_.dims(Tensor(a!) self, int[] dim) -> Tensor(a!)", squeeze_dims_op);
  t.add("aten::as_strided_(Tensor(a!) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor(a!)",
        as_strided_op);
  t.add("aten::atleast_1d(Tensor self) -> Tensor", atleast_op<1>);
  t.add("aten::atleast_2d(Tensor self) -> Tensor", atleast_op<2>);
  t.add("aten::atleast_3d(Tensor self) -> Tensor", atleast_op<3>);
}

}  // namespace pt2web
