// torchvision::roi_align and torchvision::ps_roi_align (kernels/roi).
#include "ops/torchvision/torchvision.h"

namespace pt2web {

namespace {

void roi_align_op(OpCall& c) {
  const RoiArguments a = read_roi_arguments(c, false, true);
  const int64_t sampling_ratio = c.int_arg(5);
  check_adaptive_samples(c, a, sampling_ratio);
  const bool aligned = c.bool_arg(6);
  Tensor out = Tensor::empty(a.input.dtype(), {a.shape.num_rois, a.shape.channels, a.shape.pooled_h, a.shape.pooled_w});
  visit_roi_dtype(a.input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    roi_align_forward<T>(a.shape, a.input.data<T>(), a.rois.data<T>(), static_cast<T>(a.spatial_scale),
                         sampling_ratio, aligned, out.data<T>());
  });
  c.push(out);
}

void ps_roi_align_op(OpCall& c) {
  const RoiArguments a = read_roi_arguments(c, true, true);
  const int64_t sampling_ratio = c.int_arg(5);
  check_adaptive_samples(c, a, sampling_ratio);
  const Shape shape = {a.shape.num_rois, a.shape.channels / (a.shape.pooled_h * a.shape.pooled_w), a.shape.pooled_h,
                       a.shape.pooled_w};
  Tensor out = Tensor::empty(a.input.dtype(), shape);
  Tensor mapping = Tensor::empty(DType::Int32, shape);
  visit_roi_dtype(a.input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    ps_roi_align_forward<T>(a.shape, a.input.data<T>(), a.rois.data<T>(), static_cast<T>(a.spatial_scale),
                            sampling_ratio, out.data<T>(), mapping.data<int32_t>());
  });
  c.push(out);
  c.push(mapping);
}

}  // namespace

void register_roi_align_ops(OpTable& t) {
  t.add("torchvision::roi_align(Tensor input, Tensor rois, float spatial_scale, SymInt pooled_height, SymInt "
        "pooled_width, int sampling_ratio, bool aligned) -> Tensor",
        roi_align_op);
  t.add("torchvision::ps_roi_align(Tensor input, Tensor rois, float spatial_scale, SymInt pooled_height, SymInt "
        "pooled_width, int sampling_ratio) -> (Tensor, Tensor)",
        ps_roi_align_op);
}

}  // namespace pt2web
