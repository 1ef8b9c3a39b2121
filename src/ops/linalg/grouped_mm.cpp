// transformers::grouped_mm_fallback(input, weight, offs): the grouped matrix
// product transformers' mixture-of-experts layers export on CPU (a
// torch.library custom operator of transformers 5's integrations/moe.py).
// input [S, K] holds the tokens sorted by expert, weight [E, K, N] one
// matrix per expert and offs [E] (int32 or int64) each expert's cumulative
// end row: rows [offs[e-1], offs[e]) are multiplied by weight[e] (aten::mm);
// rows past offs[E-1] stay zero, as the reference fills them.
#include <algorithm>

#include "ops/linalg/linalg.h"
#include "ops/op_compose.h"
#include "ops/shape_indexing.h"
#include "ops/views.h"

namespace pt2web {

namespace {

void grouped_mm_fallback_op(OpCall& c) {
  const std::string where = c.where();
  const Tensor& input = c.tensor(0);
  const Tensor& weight = c.tensor(1);
  const Tensor& offs = c.tensor(2);
  if (input.dim() != 2) fail(ErrorCode::BadInput, where, "input must be 2D (S, input_dim), got ", input.dim(), " dims");
  if (weight.dim() != 3)
    fail(ErrorCode::BadInput, where, "weight must be 3D (num_experts, input_dim, output_dim), got ", weight.dim(), " dims");
  if (offs.dim() != 1 || offs.sizes()[0] != weight.sizes()[0])
    fail(ErrorCode::BadInput, where, "offs must be 1D with one entry per expert (", weight.sizes()[0], ")");
  if (input.sizes()[1] != weight.sizes()[1])
    fail(ErrorCode::BadInput, where, "input_dim mismatch: input has ", input.sizes()[1], ", weight has ",
         weight.sizes()[1]);
  if (input.dtype() != weight.dtype())
    fail(ErrorCode::BadInput, where, "input and weight must have the same dtype, got ", dtype_name(input.dtype()),
         " and ", dtype_name(weight.dtype()));
  const std::vector<int64_t> ends = read_indices(offs, true, where);
  const int64_t rows = input.sizes()[0], cols = weight.sizes()[2];
  Tensor output = Tensor::empty(input.dtype(), {rows, cols});
  const size_t row_bytes = static_cast<size_t>(cols) * element_size(input.dtype());
  int64_t start = 0;
  for (size_t e = 0; e < ends.size(); ++e) {
    const int64_t end = ends[e];
    if (end < start || end > rows)
      fail(ErrorCode::BadInput, where, "offs must be non-decreasing and at most ", rows, ", got ", end, " at ", e);
    if (end == start) continue;
    Tensor product = run_op1("aten::mm.default", {arg(slice_view(input, 0, start, end, 1)), arg(select_view(weight, 0, int64_t(e)))})
                         .contiguous();
    std::copy_n(static_cast<const uint8_t*>(product.raw_data()), static_cast<size_t>(end - start) * row_bytes,
                static_cast<uint8_t*>(output.raw_data()) + static_cast<size_t>(start) * row_bytes);
    start = end;
  }
  c.push(output);
}

}  // namespace

void register_grouped_mm_ops(OpTable& t) {
  t.add("transformers::grouped_mm_fallback(Tensor input, Tensor weight, Tensor offs) -> Tensor", grouped_mm_fallback_op);
}

}  // namespace pt2web
