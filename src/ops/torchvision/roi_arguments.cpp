// The argument checks the roi operators share (torchvision.h).
#include <cmath>

#include "ops/torchvision/torchvision.h"

namespace pt2web {

void check_roi_dtype(const OpCall& c, size_t index, DType dtype, bool half_is_unsupported) {
  if (dtype == DType::Float32 || dtype == DType::Float64) return;
  const bool half = dtype == DType::Float16 || dtype == DType::BFloat16;
  fail(half && half_is_unsupported ? ErrorCode::Unsupported : ErrorCode::BadInput, c.where(), "argument '",
       c.arg_name(index), "' has dtype ", dtype_name(dtype), "; pt2web runs this operator on float32 and float64",
       half && half_is_unsupported ? "" : " (as torchvision does)");
}

RoiArguments read_roi_arguments(const OpCall& c, bool position_sensitive, bool half_is_unsupported) {
  const Tensor& input = c.tensor(0);
  const Tensor& rois = c.tensor(1);
  if (input.dim() != 4)
    fail(ErrorCode::BadInput, c.where(), "argument 'input' must be a 4-d tensor [batch, channels, height, width], got shape ",
         shape_to_string(input.sizes()));
  if (rois.dim() != 2 || rois.sizes()[1] != 5)
    fail(ErrorCode::BadInput, c.where(),
         "argument 'rois' must have shape [K, 5] (batch index, x1, y1, x2, y2 per row), got shape ",
         shape_to_string(rois.sizes()));
  check_roi_dtype(c, 0, input.dtype(), half_is_unsupported);
  if (rois.dtype() != input.dtype())
    fail(ErrorCode::BadInput, c.where(), "arguments 'input' and 'rois' must have the same dtype, got ",
         dtype_name(input.dtype()), " and ", dtype_name(rois.dtype()));
  RoiArguments a;
  a.spatial_scale = c.double_arg(2);
  a.shape.batch = input.sizes()[0];
  a.shape.channels = input.sizes()[1];
  a.shape.height = input.sizes()[2];
  a.shape.width = input.sizes()[3];
  a.shape.num_rois = rois.sizes()[0];
  a.shape.pooled_h = c.int_arg(3);
  a.shape.pooled_w = c.int_arg(4);
  if (a.shape.pooled_h <= 0 || a.shape.pooled_w <= 0)
    fail(ErrorCode::BadInput, c.where(), "arguments 'pooled_height' and 'pooled_width' must be positive, got ",
         a.shape.pooled_h, " and ", a.shape.pooled_w);
  const int64_t bins = a.shape.pooled_h * a.shape.pooled_w;
  if (position_sensitive && a.shape.channels % bins != 0)
    fail(ErrorCode::BadInput, c.where(), "argument 'input' has ", a.shape.channels,
         " channels, which is not a multiple of pooled_height * pooled_width = ", bins);
  a.input = input.contiguous();
  a.rois = rois.contiguous().to(DType::Float64);
  const double* r = a.rois.data<double>();
  for (int64_t k = 0; k < a.shape.num_rois; ++k) {
    const double index = r[k * 5];
    if (!(std::trunc(index) >= 0 && std::trunc(index) < static_cast<double>(a.shape.batch)))
      fail(ErrorCode::BadInput, c.where(), "argument 'rois': row ", k, " names batch index ", index,
           ", but 'input' holds ", a.shape.batch, a.shape.batch == 1 ? " image" : " images");
    for (int64_t j = 1; j < 5; ++j)
      if (!std::isfinite(r[k * 5 + j]))
        fail(ErrorCode::BadInput, c.where(), "argument 'rois': row ", k, " has a non-finite coordinate (",
             r[k * 5 + j], ")");
  }
  if (a.shape.num_rois > 0 && a.shape.height * a.shape.width == 0)
    fail(ErrorCode::BadInput, c.where(), "argument 'input' has empty planes (shape ",
         shape_to_string(input.sizes()), ") to pool rois from");
  a.rois = rois.contiguous();
  return a;
}

void check_adaptive_samples(const OpCall& c, const RoiArguments& a, int64_t sampling_ratio) {
  if (sampling_ratio > 0) return;
  const double limit = double(int64_t{1} << 24);
  const Tensor rois = a.rois.to(DType::Float64);
  const double* r = rois.data<double>();
  for (int64_t k = 0; k < a.shape.num_rois; ++k) {
    // ceil(extent / pooled) samples per bin and axis, for pooled bins: about
    // the box's area in feature-map pixels.
    const double h = std::ceil(std::fabs(r[k * 5 + 4] - r[k * 5 + 2]) * a.spatial_scale / a.shape.pooled_h) + 1;
    const double w = std::ceil(std::fabs(r[k * 5 + 3] - r[k * 5 + 1]) * a.spatial_scale / a.shape.pooled_w) + 1;
    if (h * w * static_cast<double>(a.shape.pooled_h * a.shape.pooled_w) > limit)
      fail(ErrorCode::Unsupported, c.where(), "argument 'rois': row ", k, " spans about ", h * a.shape.pooled_h, " x ",
           w * a.shape.pooled_w, " feature-map pixels; with an adaptive sampling_ratio that is more than 2^24 samples");
  }
}

}  // namespace pt2web
