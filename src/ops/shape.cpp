// View and layout operators: view/reshape/permute/transpose/t, (un)squeeze,
// expand, slice, select, flatten/unflatten, clone/contiguous/alias.
// View ops share storage with their input, as in ATen.
#include "ops/families.h"
#include "ops/op_utils.h"
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
  int64_t dim = wrap_dim(c.int_arg(1), x.dim());
  auto sizes = c.int_list(2);
  Shape inner = infer_size(sizes, x.sizes()[dim]);
  Shape shape(x.sizes().begin(), x.sizes().begin() + dim);
  shape.insert(shape.end(), inner.begin(), inner.end());
  shape.insert(shape.end(), x.sizes().begin() + dim + 1, x.sizes().end());
  c.push(view_as(x, shape));
}

void clone_op(OpCall& c) { c.push(c.tensor(0).clone()); }
void contiguous_op(OpCall& c) { c.push(c.tensor(0).contiguous()); }
void alias_op(OpCall& c) { c.push(c.tensor(0)); }

}  // namespace

void register_shape_ops(OpTable& t) {
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
}

}  // namespace pt2web
