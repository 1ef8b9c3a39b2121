// The torchvision operator folder: torchvision's detection operators under
// their torchvision:: names (a graph target torch.ops.torchvision.nms.default
// is the table entry "torchvision::nms.default"), with torchvision 0.21's
// CPU semantics. The arithmetic is in kernels/roi; this folder checks
// arguments, dispatches float32/float64 and shapes the results.
// Each file registers its operators with one function declared here;
// register.cpp calls them all from register_torchvision_ops (ops/families.h).
//
// Errors: BadInput naming the operator and the argument for shapes,
// dtypes and values torchvision rejects, and for rois naming a batch image
// that does not exist (torchvision reads past its input there); Unsupported
// for float16/bfloat16 inputs of the operators torchvision computes in half
// precision (roi_align, ps_roi_align, deform_conv2d).
#pragma once

#include <cstdint>

#include "kernels/roi/roi_pooling.h"
#include "ops/op_call.h"
#include "ops/registry.h"
#include "tensor/dispatch.h"
#include "tensor/tensor.h"

namespace pt2web {

void register_roi_align_ops(OpTable& t);      // roi_align.cpp: roi_align, ps_roi_align
void register_roi_pool_ops(OpTable& t);       // roi_pool.cpp: roi_pool, ps_roi_pool
void register_nms_ops(OpTable& t);            // nms.cpp
void register_deform_conv2d_ops(OpTable& t);  // deform_conv2d.cpp

// The arguments the four roi operators share, in their schema order
// (input, rois, spatial_scale, pooled_height, pooled_width), checked:
// input [N, C, H, W] and rois [K, 5] of one floating dtype, positive pooled
// sizes, every roi's batch index (truncated toward zero, as torchvision
// reads it) in [0, N), finite coordinates (torchvision casts them to
// integers: undefined for NaN and infinities). When position_sensitive, C must be a multiple of
// pooled_height * pooled_width. Tensors come back contiguous.
struct RoiArguments {
  Tensor input, rois;
  double spatial_scale = 1.0;
  RoiPoolingShape shape;
};
RoiArguments read_roi_arguments(const OpCall& c, bool position_sensitive, bool half_is_unsupported);

// For the align operators with an adaptive grid (sampling_ratio <= 0):
// refuses (Unsupported) a roi whose bins would take more than 2^24 samples
// in all, which torchvision would try to allocate and pt2web cannot.
void check_adaptive_samples(const OpCall& c, const RoiArguments& a, int64_t sampling_ratio);

// Calls f(TypeTag<float>) or f(TypeTag<double>) for dtype; other dtypes
// were refused by the argument checks.
template <typename F>
void visit_roi_dtype(DType dtype, F&& f) {
  if (dtype == DType::Float64) f(TypeTag<double>{});
  else f(TypeTag<float>{});
}

// Refuses a dtype other than float32/float64 for argument `index`:
// Unsupported for float16/bfloat16 when half_is_unsupported (torchvision
// computes those), BadInput otherwise.
void check_roi_dtype(const OpCall& c, size_t index, DType dtype, bool half_is_unsupported);

}  // namespace pt2web
