#include "kernels/roi/roi_pooling.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <vector>

#include "kernels/parallel/thread_pool.h"
#include "kernels/roi/bilinear.h"

namespace pt2web {

namespace {

// One roi's box on the feature map, as the align operators place it.
template <typename T>
struct AlignedBox {
  int64_t batch;
  T start_y, start_x, height, width;
};

template <typename T>
AlignedBox<T> aligned_box(const T* roi, T spatial_scale, bool half_pixel, bool at_least_one) {
  const T shift = half_pixel ? T(0.5) : T(0);
  AlignedBox<T> b;
  b.batch = static_cast<int64_t>(roi[0]);
  b.start_x = roi[1] * spatial_scale - shift;
  b.start_y = roi[2] * spatial_scale - shift;
  b.width = (roi[3] * spatial_scale - shift) - b.start_x;
  b.height = (roi[4] * spatial_scale - shift) - b.start_y;
  if (at_least_one) {
    b.width = std::max(b.width, T(1));
    b.height = std::max(b.height, T(1));
  }
  return b;
}

// Samples per bin along one axis: the fixed ratio, or ceil(extent / bins).
template <typename T>
int64_t grid_size(int64_t sampling_ratio, T extent, int64_t bins) {
  return sampling_ratio > 0 ? sampling_ratio : static_cast<int64_t>(std::ceil(extent / static_cast<T>(bins)));
}

// The y (or x) coordinate of sample `i` of `grid` in bin `bin` of size
// `bin_size` along an axis starting at `start`.
template <typename T>
T sample_coordinate(T start, int64_t bin, T bin_size, int64_t i, int64_t grid) {
  return start + static_cast<T>(bin) * bin_size +
         static_cast<T>(static_cast<float>(i) + 0.5f) * bin_size / static_cast<T>(grid);
}

// The sum of the grid_h x grid_w bilinear samples of bin (ph, pw) of box b.
template <typename T>
T bin_sample_sum(const T* plane, int64_t height, int64_t width, const AlignedBox<T>& b, int64_t ph, int64_t pw,
                 T bin_h, T bin_w, int64_t grid_h, int64_t grid_w) {
  T sum = T(0);
  for (int64_t iy = 0; iy < grid_h; ++iy) {
    const T y = sample_coordinate(b.start_y, ph, bin_h, iy, grid_h);
    for (int64_t ix = 0; ix < grid_w; ++ix)
      sum += clamped_bilinear(plane, height, width, y, sample_coordinate(b.start_x, pw, bin_w, ix, grid_w));
  }
  return sum;
}

// Rois are independent: split them across threads when there is enough
// work (about `samples` reads per output element).
template <typename Body>
void for_each_roi(const RoiPoolingShape& s, int64_t samples, Body&& body) {
  parallel::for_each_index(s.num_rois, s.channels * s.pooled_h * s.pooled_w * samples, body);
}

// A box of whole pixels, as the pool operators place it: corners rounded
// half away from zero.
struct PixelBox {
  int64_t batch, start_y, start_x, height, width;
};

// A coordinate rounded to a whole pixel, held within +-2^40 so that the
// cast is defined for any finite value (the bins are clipped to the input).
template <typename T>
int64_t whole_pixel(T coordinate) {
  const double limit = double(int64_t{1} << 40);
  return static_cast<int64_t>(std::min(std::max(static_cast<double>(std::round(coordinate)), -limit), limit));
}

template <typename T>
PixelBox pixel_box(const T* roi, T spatial_scale, int64_t inclusive) {
  PixelBox b;
  b.batch = static_cast<int64_t>(roi[0]);
  b.start_x = whole_pixel(roi[1] * spatial_scale);
  b.start_y = whole_pixel(roi[2] * spatial_scale);
  const int64_t end_x = whole_pixel(roi[3] * spatial_scale);
  const int64_t end_y = whole_pixel(roi[4] * spatial_scale);
  b.width = std::max<int64_t>(end_x - b.start_x + inclusive, 1);
  b.height = std::max<int64_t>(end_y - b.start_y + inclusive, 1);
  return b;
}

// The pixel range [begin, end) of bin `i` of `bins` along one axis of box
// (start, extent), clipped to [0, limit].
template <typename T>
std::pair<int64_t, int64_t> bin_range(int64_t i, int64_t bins, int64_t start, int64_t extent, int64_t limit) {
  const T size = static_cast<T>(extent) / static_cast<T>(bins);
  const int64_t b = static_cast<int64_t>(std::floor(static_cast<T>(i) * size)) + start;
  const int64_t e = static_cast<int64_t>(std::ceil(static_cast<T>(i + 1) * size)) + start;
  return {std::min(std::max<int64_t>(b, 0), limit), std::min(std::max<int64_t>(e, 0), limit)};
}

}  // namespace

template <typename T>
void roi_align_forward(const RoiPoolingShape& s, const T* input, const T* rois, T spatial_scale,
                       int64_t sampling_ratio, bool aligned, T* output) {
  const int64_t plane = s.height * s.width, bins = s.pooled_h * s.pooled_w;
  for_each_roi(s, 16, [&](int64_t n) {
    const AlignedBox<T> b = aligned_box(rois + n * 5, spatial_scale, aligned, !aligned);
    const T bin_h = b.height / static_cast<T>(s.pooled_h), bin_w = b.width / static_cast<T>(s.pooled_w);
    const int64_t grid_h = grid_size(sampling_ratio, b.height, s.pooled_h);
    const int64_t grid_w = grid_size(sampling_ratio, b.width, s.pooled_w);
    const int64_t samples = std::max<int64_t>(grid_h, 0) * std::max<int64_t>(grid_w, 0);
    const T count = static_cast<T>(std::max<int64_t>(grid_h * grid_w, 1));
    // The samples' neighbours and weights are the same in every channel.
    std::vector<BilinearTaps<T>> taps;
    taps.reserve(static_cast<size_t>(bins * samples));
    for (int64_t ph = 0; ph < s.pooled_h; ++ph)
      for (int64_t pw = 0; pw < s.pooled_w; ++pw)
        for (int64_t iy = 0; iy < grid_h; ++iy)
          for (int64_t ix = 0; ix < grid_w; ++ix)
            taps.push_back(clamped_bilinear_taps(s.height, s.width, sample_coordinate(b.start_y, ph, bin_h, iy, grid_h),
                                                 sample_coordinate(b.start_x, pw, bin_w, ix, grid_w)));
    for (int64_t c = 0; c < s.channels; ++c) {
      const T* in = input + (b.batch * s.channels + c) * plane;
      T* out = output + (n * s.channels + c) * bins;
      const BilinearTaps<T>* tap = taps.data();
      for (int64_t bin = 0; bin < bins; ++bin) {
        T sum = T(0);
        for (int64_t k = 0; k < samples; ++k) sum += apply_bilinear_taps(*tap++, in);
        out[bin] = sum / count;
      }
    }
  });
}

template <typename T>
void ps_roi_align_forward(const RoiPoolingShape& s, const T* input, const T* rois, T spatial_scale,
                          int64_t sampling_ratio, T* output, int32_t* channel_mapping) {
  const int64_t plane = s.height * s.width, bins = s.pooled_h * s.pooled_w;
  const int64_t channels_out = s.channels / bins;
  for_each_roi(s, 16, [&](int64_t n) {
    const AlignedBox<T> b = aligned_box(rois + n * 5, spatial_scale, true, false);
    const T bin_h = b.height / static_cast<T>(s.pooled_h), bin_w = b.width / static_cast<T>(s.pooled_w);
    const int64_t grid_h = grid_size(sampling_ratio, b.height, s.pooled_h);
    const int64_t grid_w = grid_size(sampling_ratio, b.width, s.pooled_w);
    const T count = static_cast<T>(grid_h * grid_w);
    for (int64_t c = 0; c < channels_out; ++c)
      for (int64_t ph = 0; ph < s.pooled_h; ++ph)
        for (int64_t pw = 0; pw < s.pooled_w; ++pw) {
          const int64_t c_in = (c * s.pooled_h + ph) * s.pooled_w + pw;
          const int64_t at = ((n * channels_out + c) * s.pooled_h + ph) * s.pooled_w + pw;
          const T* in = input + (b.batch * s.channels + c_in) * plane;
          output[at] = bin_sample_sum(in, s.height, s.width, b, ph, pw, bin_h, bin_w, grid_h, grid_w) / count;
          channel_mapping[at] = static_cast<int32_t>(c_in);
        }
  });
}

template <typename T>
void roi_pool_forward(const RoiPoolingShape& s, const T* input, const T* rois, T spatial_scale, T* output,
                      int32_t* argmax) {
  const int64_t plane = s.height * s.width, bins = s.pooled_h * s.pooled_w;
  for_each_roi(s, 16, [&](int64_t n) {
    const PixelBox b = pixel_box(rois + n * 5, spatial_scale, 1);
    for (int64_t ph = 0; ph < s.pooled_h; ++ph)
      for (int64_t pw = 0; pw < s.pooled_w; ++pw) {
        const auto [h0, h1] = bin_range<T>(ph, s.pooled_h, b.start_y, b.height, s.height);
        const auto [w0, w1] = bin_range<T>(pw, s.pooled_w, b.start_x, b.width, s.width);
        const bool empty = h1 <= h0 || w1 <= w0;
        for (int64_t c = 0; c < s.channels; ++c) {
          const T* in = input + (b.batch * s.channels + c) * plane;
          // torchvision starts from -FLT_MAX in both precisions; NaN never wins.
          T best = empty ? T(0) : static_cast<T>(-FLT_MAX);
          int64_t best_at = -1;
          for (int64_t h = h0; h < h1; ++h)
            for (int64_t w = w0; w < w1; ++w)
              if (in[h * s.width + w] > best) {
                best = in[h * s.width + w];
                best_at = h * s.width + w;
              }
          const int64_t at = (n * s.channels + c) * bins + ph * s.pooled_w + pw;
          output[at] = best;
          argmax[at] = static_cast<int32_t>(best_at);
        }
      }
  });
}

template <typename T>
void ps_roi_pool_forward(const RoiPoolingShape& s, const T* input, const T* rois, T spatial_scale, T* output,
                         int32_t* channel_mapping) {
  const int64_t plane = s.height * s.width, bins = s.pooled_h * s.pooled_w;
  const int64_t channels_out = s.channels / bins;
  for_each_roi(s, 16, [&](int64_t n) {
    const PixelBox b = pixel_box(rois + n * 5, spatial_scale, 0);
    for (int64_t c = 0; c < channels_out; ++c)
      for (int64_t ph = 0; ph < s.pooled_h; ++ph)
        for (int64_t pw = 0; pw < s.pooled_w; ++pw) {
          // Unlike roi_pool, the bins are clipped to the last row and column.
          const auto [h0, h1] = bin_range<T>(ph, s.pooled_h, b.start_y, b.height, s.height - 1);
          const auto [w0, w1] = bin_range<T>(pw, s.pooled_w, b.start_x, b.width, s.width - 1);
          const int64_t c_in = (c * s.pooled_h + ph) * s.pooled_w + pw;
          const T* in = input + (b.batch * s.channels + c_in) * plane;
          T sum = T(0);
          for (int64_t h = h0; h < h1; ++h)
            for (int64_t w = w0; w < w1; ++w) sum += in[h * s.width + w];
          const int64_t at = ((n * channels_out + c) * s.pooled_h + ph) * s.pooled_w + pw;
          const bool empty = h1 <= h0 || w1 <= w0;
          output[at] = empty ? T(0) : sum / static_cast<T>((h1 - h0) * (w1 - w0));
          channel_mapping[at] = static_cast<int32_t>(c_in);
        }
  });
}

#define PT2WEB_ROI_POOLING(T)                                                                                  \
  template void roi_align_forward<T>(const RoiPoolingShape&, const T*, const T*, T, int64_t, bool, T*);       \
  template void ps_roi_align_forward<T>(const RoiPoolingShape&, const T*, const T*, T, int64_t, T*, int32_t*); \
  template void roi_pool_forward<T>(const RoiPoolingShape&, const T*, const T*, T, T*, int32_t*);             \
  template void ps_roi_pool_forward<T>(const RoiPoolingShape&, const T*, const T*, T, T*, int32_t*);
PT2WEB_ROI_POOLING(float)
PT2WEB_ROI_POOLING(double)
#undef PT2WEB_ROI_POOLING

}  // namespace pt2web
