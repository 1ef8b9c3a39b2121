// Binary search into sorted sequences: searchsorted (each value's insertion
// position in its row of sorted_sequence, optionally through a sorter
// permutation) and bucketize (the same against one 1-d boundaries tensor).
//
// As in ATen, the left search finds the first position whose element is not
// below the value (`!(element >= value)` moves right, so a NaN value lands
// after everything and NaN elements count as larger than every value), the
// right search the first position whose element is above it. Inputs of
// different dtypes compare in double (exact for every value that the
// promoted type holds, except int64 beyond 2^53).
#include "ops/op_compose.h"
#include "ops/reduction/common.h"
#include "ops/reduction/reduction.h"

namespace pt2web {

namespace {

int64_t insertion_position(const double* row, const int64_t* sorter, int64_t len, double value, bool right) {
  int64_t lo = 0, hi = len;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    const double element = row[sorter ? sorter[mid] : mid];
    const bool go_right = right ? !(element > value) : !(element >= value);
    if (go_right) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

Tensor searchsorted(const OpCall& c, const Tensor& sequence, const Tensor& values, bool out_int32, bool right,
                    const std::optional<std::string>& side, const Tensor& sorter) {
  if (side) {
    if (*side != "left" && *side != "right")
      fail(ErrorCode::BadInput, c.where(), "torch.searchsorted(): side can only be 'left' or 'right' but got ", *side);
    if (right && *side == "left")
      fail(ErrorCode::BadInput, c.where(),
           "torch.searchsorted(): side and right can't be set to opposites, got side of left while right was True");
    right = *side == "right";
  }
  const bool one_row = sequence.dim() == 1;
  bool leading_match = sequence.dim() == values.dim() && sequence.dim() > 0;
  for (int64_t d = 0; leading_match && d + 1 < sequence.dim(); ++d)
    leading_match = sequence.sizes()[d] == values.sizes()[d];
  if (!one_row && !leading_match)
    fail(ErrorCode::BadInput, c.where(),
         "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries "
         "tensor and input value tensor must match, but we got boundaries tensor ",
         shape_to_string(sequence.sizes()), " and input value tensor ", shape_to_string(values.sizes()));
  if (sorter.defined()) {
    if (sorter.dtype() != DType::Int64)
      fail(ErrorCode::BadInput, c.where(), "torch.searchsorted(): sorter must be a tensor of long dtype but got dtype ",
           dtype_name(sorter.dtype()));
    if (sorter.sizes() != sequence.sizes())
      fail(ErrorCode::BadInput, c.where(),
           "torch.searchsorted(): boundary and sorter must have the same size, but got boundary tensor ",
           shape_to_string(sequence.sizes()), "and got sorter tensor ", shape_to_string(sorter.sizes()));
  }
  const Tensor seq = sequence.to(DType::Float64), vals = values.to(DType::Float64);
  const Tensor order = sorter.defined() ? sorter.contiguous() : Tensor();
  const int64_t len = sequence.dim() == 0 ? 1 : sequence.size(-1);
  const int64_t row_len = values.dim() == 0 ? 1 : values.size(-1);
  if (order.defined())
    for (int64_t i = 0; i < order.numel(); ++i)
      if (order.data<int64_t>()[i] < 0 || order.data<int64_t>()[i] >= len)
        fail(ErrorCode::BadInput, c.where(), "torch.searchsorted(): sorter index out of range");
  Tensor out = Tensor::empty(DType::Int64, values.sizes());
  for (int64_t i = 0; i < vals.numel(); ++i) {
    const int64_t row = one_row || row_len == 0 ? 0 : i / row_len;
    out.data<int64_t>()[i] =
        insertion_position(seq.data<double>() + row * len, order.defined() ? order.data<int64_t>() + row * len : nullptr,
                           len, vals.data<double>()[i], right);
  }
  return out_int32 ? out.to(DType::Int32) : out;
}

// searchsorted.Tensor(sorted_sequence, self, *, out_int32, right, side, sorter)
void searchsorted_op(OpCall& c) {
  c.push(searchsorted(c, c.tensor(0), c.tensor(1), c.bool_arg(2), c.bool_arg(3), c.optional_string(4),
                      c.optional_tensor(5)));
}

// bucketize.Tensor(self, boundaries, *, out_int32, right)
void bucketize_op(OpCall& c) {
  const Tensor& boundaries = c.tensor(1);
  if (boundaries.dim() != 1)
    fail(ErrorCode::BadInput, c.where(), "boundaries tensor must be 1 dimension, but got dim(", boundaries.dim(), ")");
  c.push(searchsorted(c, boundaries, c.tensor(0), c.bool_arg(2), c.bool_arg(3), std::nullopt, Tensor()));
}

}  // namespace

void register_searchsorted_ops(OpTable& t) {
  t.add("aten::searchsorted.Tensor(Tensor sorted_sequence, Tensor self, *, bool out_int32=False, bool right=False, "
        "str? side=None, Tensor? sorter=None) -> Tensor",
        searchsorted_op);
  t.add("aten::bucketize.Tensor(Tensor self, Tensor boundaries, *, bool out_int32=False, bool right=False) -> Tensor",
        bucketize_op);
}

}  // namespace pt2web
