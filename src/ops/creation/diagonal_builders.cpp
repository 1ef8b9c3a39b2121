// Operators that build a new tensor out of pieces of their inputs: diag,
// diag_embed and diagflat (values laid along a diagonal of zeros),
// block_diag (matrices along the diagonal of a zero matrix), cartesian_prod
// and combinations (tuples of elements, one per row).
#include <algorithm>
#include <limits>

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
Tensor tuples_at(const Tensor& x, const Tensor& index, int64_t width) {
  Tensor picked = run_op1("aten::index_select.default", {arg(x), arg(int64_t(0)), arg(index)});
  return reshape(picked, {index.numel() / std::max<int64_t>(width, 1), width});
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
  // How many tuples: C(n, r), or C(n + r - 1, r) with replacement. Counted
  // first (saturating at 2^63) so that sizes no memory holds are refused
  // before anything is made.
  const int64_t pool = repeat ? (n == 0 ? 0 : n + r - 1) : n;
  unsigned __int128 count = pool >= r ? 1 : 0;
  const unsigned __int128 cap = static_cast<unsigned __int128>(std::numeric_limits<int64_t>::max());
  for (int64_t i = 1; i <= r && count > 0 && count <= cap; ++i)
    count = count * static_cast<unsigned __int128>(pool - r + i) / static_cast<unsigned __int128>(i);
  int64_t elements = 0;
  if (count > cap || __builtin_mul_overflow(static_cast<int64_t>(count), r, &elements))
    fail(ErrorCode::OutOfMemory, c.where(), "combinations of ", n, " values taken ", r, " at a time number more "
         "than 2^63 elements");
  Tensor index = Tensor::empty(DType::Int64, {elements});  // refused when no storage holds it
  int64_t* out = index.data<int64_t>();
  // The tuples in lexicographic order, as an odometer: the rightmost position
  // that can still grow steps up, and the ones after it restart from it.
  std::vector<int64_t> tuple(static_cast<size_t>(count > 0 ? r : 0));
  for (int64_t k = 0; k < static_cast<int64_t>(tuple.size()); ++k) tuple[k] = repeat ? 0 : k;
  const auto highest = [&](int64_t k) { return repeat ? n - 1 : n - r + k; };
  while (!tuple.empty()) {
    out = std::copy(tuple.begin(), tuple.end(), out);
    int64_t k = r - 1;
    while (k >= 0 && tuple[k] == highest(k)) --k;
    if (k < 0) break;
    ++tuple[k];
    for (int64_t j = k + 1; j < r; ++j) tuple[j] = repeat ? tuple[k] : tuple[j - 1] + 1;
  }
  c.push(tuples_at(x, index, r));
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
