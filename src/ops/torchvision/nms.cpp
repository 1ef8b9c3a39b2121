// torchvision::nms: greedy non-maximum suppression (kernels/roi/nms.h). The
// result's length depends on the data: the program binds it to an unbacked
// size symbol, as it does nonzero's.
#include <algorithm>

#include "kernels/roi/nms.h"
#include "ops/torchvision/torchvision.h"

namespace pt2web {

namespace {

void nms_op(OpCall& c) {
  const Tensor& dets = c.tensor(0);
  const Tensor& scores = c.tensor(1);
  const double iou_threshold = c.double_arg(2);
  if (dets.dim() != 2 || dets.sizes()[1] != 4)
    fail(ErrorCode::BadInput, c.where(), "argument 'dets' (the boxes) must have shape [N, 4], got shape ",
         shape_to_string(dets.sizes()));
  if (scores.dim() != 1 || scores.sizes()[0] != dets.sizes()[0])
    fail(ErrorCode::BadInput, c.where(), "argument 'scores' must have shape [", dets.sizes()[0],
         "] (one score per box), got shape ", shape_to_string(scores.sizes()));
  check_roi_dtype(c, 0, dets.dtype(), false);
  if (scores.dtype() != dets.dtype())
    fail(ErrorCode::BadInput, c.where(), "arguments 'dets' and 'scores' must have the same dtype, got ",
         dtype_name(dets.dtype()), " and ", dtype_name(scores.dtype()));
  std::vector<int64_t> keep;
  const Tensor boxes = dets.contiguous(), order = scores.contiguous();
  visit_roi_dtype(dets.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    keep = nms_keep<T>(boxes.data<T>(), order.data<T>(), dets.sizes()[0], iou_threshold);
  });
  Tensor out = Tensor::empty(DType::Int64, {static_cast<int64_t>(keep.size())});
  std::copy(keep.begin(), keep.end(), out.data<int64_t>());
  c.push(out);
}

}  // namespace

void register_nms_ops(OpTable& t) {
  t.add("torchvision::nms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor", nms_op);
}

}  // namespace pt2web
