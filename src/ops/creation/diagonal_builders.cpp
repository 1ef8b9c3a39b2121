// Operators that build a new tensor out of pieces of their inputs: diag,
// diag_embed and diagflat (values laid along a diagonal of zeros),
// block_diag (matrices along the diagonal of a zero matrix), cartesian_prod
// and combinations (tuples of elements, one per row).
#include <algorithm>
#include <functional>

#include "ops/creation/creation.h"
#include "ops/op_compose.h"
#include "ops/op_utils.h"
#include "ops/shape_indexing.h"
#include "ops/type_promotion.h"
#include "ops/views.h"

namespace pt2web {

namespace {

// A zero tensor with x's values along the (offset, dim1, dim2) diagonal of
// one more dim than x: x's last dim walks the diagonal, its other dims keep
// their order in the remaining positions.
Tensor embed_diagonal(const Tensor& x, int64_t offset, int64_t dim1, int64_t dim2, const std::string& where) {
  const int64_t rank = x.dim() + 1;
  const int64_t d1 = wrap_dim(dim1, rank), d2 = wrap_dim(dim2, rank);
  if (d1 == d2) fail(ErrorCode::BadInput, where, "diagonal dimensions cannot be identical ", dim1, ", ", dim2);
  const int64_t n = (x.dim() == 0 ? 1 : x.size(-1)) + std::abs(offset);
  Shape shape;
  Shape rest = x.dim() == 0 ? Shape{} : Shape(x.sizes().begin(), x.sizes().end() - 1);
  size_t next = 0;
  for (int64_t d = 0; d < rank; ++d) shape.push_back(d == d1 || d == d2 ? n : rest[next++]);
  Tensor out = Tensor::empty(x.dtype(), shape);
  if (out.numel() > 0) diagonal_view(out, offset, d1, d2, where).copy_from(x.dim() == 0 ? reshape(x, {1}) : x);
  return out;
}

// diag(self, diagonal): a vector becomes a square matrix with it on that
// diagonal; a matrix gives a copy of that diagonal.
Tensor diag(const Tensor& x, int64_t offset, const std::string& where) {
  if (x.dim() == 1) return embed_diagonal(x, offset, 0, 1, where);
  if (x.dim() != 2) fail(ErrorCode::BadInput, where, "diag(): Supports 1D or 2D tensors. Got ", x.dim(), "D");
  return diagonal_view(x, offset, 0, 1, where).clone();
}

void diag_op(OpCall& c) { c.push(diag(c.tensor(0), c.int_arg(1), c.where())); }
void diagflat_op(OpCall& c) { c.push(diag(reshape(c.tensor(0), {-1}), c.int_arg(1), c.where())); }
void diag_embed_op(OpCall& c) {
  c.push(embed_diagonal(c.tensor(0), c.int_arg(1), c.int_arg(2), c.int_arg(3), c.where()));
}

// block_diag: 0-d inputs count as [1, 1], 1-d ones as rows; each input takes
// the next rows and columns of a zero matrix of the promoted dtype.
void block_diag_op(OpCall& c) {
  std::vector<Tensor> blocks = c.tensor_list(0);
  if (blocks.empty()) {
    c.push(Tensor::empty(DType::Float32, {1, 0}));
    return;
  }
  ResultType promotion;
  int64_t rows = 0, cols = 0;
  for (size_t i = 0; i < blocks.size(); ++i) {
    Tensor& b = blocks[i];
    if (b.dim() > 2)
      fail(ErrorCode::BadInput, c.where(), "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input ", i,
           " has ", b.dim(), " dimensions");
    if (b.dim() < 2) b = reshape(b, {1, b.numel()});
    promotion.add(b);
    rows += b.size(0);
    cols += b.size(1);
  }
  Tensor out = Tensor::empty(promotion.get(), {rows, cols});
  int64_t r = 0, k = 0;
  for (const Tensor& b : blocks) {
    if (b.numel() > 0)
      slice_view(slice_view(out, 0, r, r + b.size(0), 1), 1, k, k + b.size(1), 1).copy_from(b);
    r += b.size(0);
    k += b.size(1);
  }
  c.push(out);
}

// Rows of element tuples: column j holds x[positions[row * width + j]].
Tensor tuples_of(const Tensor& x, const std::vector<int64_t>& positions, int64_t width) {
  Tensor index = Tensor::empty(DType::Int64, {static_cast<int64_t>(positions.size())});
  std::copy(positions.begin(), positions.end(), index.data<int64_t>());
  Tensor picked = run_op1("aten::index_select.default", {arg(x), arg(int64_t(0)), arg(index)});
  return reshape(picked, {static_cast<int64_t>(positions.size()) / std::max<int64_t>(width, 1), width});
}

// cartesian_prod: every tuple of one element per input, in row-major order
// ([N1 * N2 * ..., inputs]); a single input comes back as it is.
void cartesian_prod_op(OpCall& c) {
  const std::vector<Tensor> tensors = c.tensor_list(0);
  for (const Tensor& t : tensors)
    if (t.dim() != 1)
      fail(ErrorCode::BadInput, c.where(), "Expect a 1D vector, but got shape ", shape_to_string(t.sizes()));
  if (tensors.size() == 1) {
    c.push(tensors[0]);
    return;
  }
  std::vector<Value> grids = run_op("aten::meshgrid.indexing", {Value::from_tensors(tensors), Value::from_string("ij")});
  std::vector<Tensor> columns;
  for (const Tensor& g : grids.at(0).tensors) columns.push_back(reshape(g, {-1}));
  c.push(run_op1("aten::stack.default", {Value::from_tensors(columns), arg(int64_t(1))}));
}

// combinations(self, r, with_replacement): every r-tuple of positions
// i1 < i2 < ... (<= with replacement) in lexicographic order, as values.
void combinations_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  const int64_t r = c.int_arg(1);
  const bool repeat = c.bool_arg(2);
  if (x.dim() != 1)
    fail(ErrorCode::BadInput, c.where(), "Expect a 1D vector, but got shape ", shape_to_string(x.sizes()));
  if (r < 0) fail(ErrorCode::BadInput, c.where(), "Expect a non-negative number, but got ", r);
  if (r == 0) {
    c.push(Tensor::empty(x.dtype(), {0}));
    return;
  }
  const int64_t n = x.numel();
  std::vector<int64_t> positions, tuple;
  std::function<void(int64_t)> extend = [&](int64_t from) {
    if (static_cast<int64_t>(tuple.size()) == r) {
      positions.insert(positions.end(), tuple.begin(), tuple.end());
      return;
    }
    for (int64_t i = from; i < n; ++i) {
      tuple.push_back(i);
      extend(repeat ? i : i + 1);
      tuple.pop_back();
    }
  };
  extend(0);
  c.push(tuples_of(x, positions, r));
}

}  // namespace

void register_diagonal_builder_ops(OpTable& t) {
  t.add("aten::diag(Tensor self, int diagonal=0) -> Tensor", diag_op);
  t.add("aten::diagflat(Tensor self, int offset=0) -> Tensor", diagflat_op);
  t.add("aten::diag_embed(Tensor self, int offset=0, int dim1=-2, int dim2=-1) -> Tensor", diag_embed_op);
  t.add("aten::block_diag(Tensor[] tensors) -> Tensor", block_diag_op);
  t.add("aten::cartesian_prod(Tensor[] tensors) -> Tensor", cartesian_prod_op);
  t.add("aten::combinations(Tensor self, int r=2, bool with_replacement=False) -> Tensor", combinations_op);
}

}  // namespace pt2web
