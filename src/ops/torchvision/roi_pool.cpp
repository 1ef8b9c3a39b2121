// torchvision::roi_pool and torchvision::ps_roi_pool (kernels/roi).
#include "ops/torchvision/torchvision.h"

namespace pt2web {

namespace {

// Both return (values, int32 indices) of one shape: argmax for roi_pool,
// channel_mapping for ps_roi_pool.
template <bool PositionSensitive>
void roi_pool_family_op(OpCall& c) {
  const RoiArguments a = read_roi_arguments(c, PositionSensitive, false);
  const int64_t channels_out = PositionSensitive ? a.shape.channels / (a.shape.pooled_h * a.shape.pooled_w)
                                                 : a.shape.channels;
  const Shape shape = {a.shape.num_rois, channels_out, a.shape.pooled_h, a.shape.pooled_w};
  Tensor out = Tensor::empty(a.input.dtype(), shape);
  Tensor indices = Tensor::empty(DType::Int32, shape);
  visit_roi_dtype(a.input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto pool = PositionSensitive ? ps_roi_pool_forward<T> : roi_pool_forward<T>;
    pool(a.shape, a.input.data<T>(), a.rois.data<T>(), static_cast<T>(a.spatial_scale), out.data<T>(),
         indices.data<int32_t>());
  });
  c.push(out);
  c.push(indices);
}

}  // namespace

void register_roi_pool_ops(OpTable& t) {
  t.add("torchvision::roi_pool(Tensor input, Tensor rois, float spatial_scale, SymInt pooled_height, SymInt "
        "pooled_width) -> (Tensor, Tensor)",
        roi_pool_family_op<false>);
  t.add("torchvision::ps_roi_pool(Tensor input, Tensor rois, float spatial_scale, SymInt pooled_height, SymInt "
        "pooled_width) -> (Tensor, Tensor)",
        roi_pool_family_op<true>);
}

}  // namespace pt2web
