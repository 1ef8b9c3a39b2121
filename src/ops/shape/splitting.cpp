// numpy-style splitting and stacking: hsplit/vsplit/dsplit (tensor_split
// along a fixed dim), column_stack (hstack of columns) and _chunk_cat (every
// tensor cut into the same number of zero-padded chunks, chunk k of all
// tensors side by side in row k). Built on the table's tensor_split, hstack
// and cat (ops/op_compose.h).
#include "ops/op_compose.h"
#include "ops/op_utils.h"
#include "ops/shape/shape.h"
#include "ops/views.h"
#include "util/int_math.h"

namespace pt2web {

namespace {

struct SplitKind {
  const char* name;
  int64_t min_dims;
};

// The dim hsplit (1, or 0 for 1-d input), vsplit (0) and dsplit (2) cut along.
int64_t split_axis(const OpCall& c, const Tensor& x, const SplitKind& kind) {
  if (x.dim() < kind.min_dims)
    fail(ErrorCode::BadInput, c.where(), "torch.", kind.name, " requires a tensor with at least ", kind.min_dims,
         " dimension", kind.min_dims == 1 ? "" : "s", ", but got a tensor with ", x.dim(), " dimensions!");
  if (kind.min_dims == 1) return x.dim() == 1 ? 0 : 1;
  return kind.min_dims == 2 ? 0 : 2;
}

template <int MinDims>
void split_sections_op(OpCall& c) {
  static const SplitKind kinds[] = {{"hsplit", 1}, {"vsplit", 2}, {"dsplit", 3}};
  const SplitKind& kind = kinds[MinDims - 1];
  const Tensor& x = c.tensor(0);
  const int64_t dim = split_axis(c, x, kind), sections = c.int_arg(1);
  if (sections == 0 || x.sizes()[dim] % sections != 0)
    fail(ErrorCode::BadInput, c.where(), "torch.", kind.name, " attempted to split along dimension ", dim,
         ", but the size of the dimension ", x.sizes()[dim], " is not divisible by the split_size ", sections, "!");
  c.outputs = run_op("aten::tensor_split.sections", {arg(x), arg(sections), arg(dim)});
}

template <int MinDims>
void split_indices_op(OpCall& c) {
  static const SplitKind kinds[] = {{"hsplit", 1}, {"vsplit", 2}, {"dsplit", 3}};
  const Tensor& x = c.tensor(0);
  const int64_t dim = split_axis(c, x, kinds[MinDims - 1]);
  c.outputs = run_op("aten::tensor_split.indices", {arg(x), arg(c.int_list(1)), arg(dim)});
}

// column_stack: 0-d and 1-d inputs become columns ([n, 1]), then hstack.
void column_stack_op(OpCall& c) {
  std::vector<Tensor> tensors = c.tensor_list(0);
  if (tensors.empty()) fail(ErrorCode::BadInput, c.where(), "column_stack expects a non-empty TensorList");
  for (Tensor& t : tensors)
    if (t.dim() <= 1) t = reshape(t, {t.numel(), 1});
  c.push(run_op1("aten::hstack.default", {Value::from_tensors(tensors)}));
}

// _chunk_cat(tensors, dim, num_chunks): each tensor zero-padded along dim to
// a multiple of num_chunks and viewed as [sizes before dim, num_chunks, -1];
// the results joined along dim + 1.
void chunk_cat_op(OpCall& c) {
  const std::vector<Tensor> tensors = c.tensor_list(0);
  const int64_t num_chunks = c.int_arg(2);
  if (tensors.empty()) fail(ErrorCode::BadInput, c.where(), "_chunk_cat expects a non-empty input tensor list");
  if (num_chunks < 1) fail(ErrorCode::BadInput, c.where(), "_chunk_cat expects positive num_chunks");
  const int64_t dim = wrap_dim(c.int_arg(1), tensors[0].dim());
  std::vector<Tensor> chunked;
  for (const Tensor& t : tensors) {
    if (t.dtype() != tensors[0].dtype())
      fail(ErrorCode::BadInput, c.where(), "_chunk_cat expects all input tensors with the same dtype");
    if (t.numel() == 0) fail(ErrorCode::BadInput, c.where(), "_chunk_cat expects non-empty tensor");
    if (t.dim() <= dim) fail(ErrorCode::BadInput, c.where(), "_chunk_cat expects tensors with at least ", dim + 1,
                             " dimensions, but got ", t.dim());
    for (int64_t d = 0; d < dim; ++d)
      if (t.sizes()[d] != tensors[0].sizes()[d])
        fail(ErrorCode::BadInput, c.where(), "_chunk_cat expects same sizes of 0,...,dim-1 dimensions for all tensors");
    // num_chunks may be near int64's limit: the product stays under 2 * max(length, num_chunks).
    const int64_t length = t.sizes()[dim], padded = ceil_div(length, num_chunks) * num_chunks;
    Tensor src = t;
    if (padded != length) {
      Shape shape = t.sizes();
      shape[dim] = padded;
      src = Tensor::empty(t.dtype(), shape);
      slice_view(src, dim, 0, length, 1).copy_from(t);
    }
    Shape view(t.sizes().begin(), t.sizes().begin() + dim);
    view.push_back(num_chunks);
    view.push_back(-1);
    chunked.push_back(reshape(src, view));
  }
  c.push(run_op1("aten::cat.default", {Value::from_tensors(chunked), arg(dim + 1)}));
}

}  // namespace

void register_splitting_ops(OpTable& t) {
  t.add("aten::hsplit.int(Tensor(a -> *) self, int sections) -> Tensor(a)[]", split_sections_op<1>);
  t.add("aten::vsplit.int(Tensor(a -> *) self, int sections) -> Tensor(a)[]", split_sections_op<2>);
  t.add("aten::dsplit.int(Tensor(a -> *) self, int sections) -> Tensor(a)[]", split_sections_op<3>);
  t.add("aten::hsplit.array(Tensor(a -> *) self, int[] indices) -> Tensor(a)[]", split_indices_op<1>);
  t.add("aten::vsplit.array(Tensor(a -> *) self, int[] indices) -> Tensor(a)[]", split_indices_op<2>);
  t.add("aten::dsplit.array(Tensor(a -> *) self, int[] indices) -> Tensor(a)[]", split_indices_op<3>);
  t.add("aten::column_stack(Tensor[] tensors) -> Tensor", column_stack_op);
  t.add("aten::_chunk_cat(Tensor[] tensors, int dim, int num_chunks) -> Tensor", chunk_cat_op);
}

}  // namespace pt2web
