#include "kernels/roi/deformable_im2col.h"

#include "kernels/parallel/thread_pool.h"
#include "kernels/roi/bilinear.h"

namespace pt2web {

template <typename T>
void deformable_im2col(const Im2colShape& s, int64_t offset_groups, const T* image, const T* offset, const T* mask,
                       T* cols) {
  const int64_t taps = s.kernel_h * s.kernel_w, out_plane = s.out_h * s.out_w;
  const int64_t group_channels = s.channels / offset_groups;
  parallel::for_each_index(s.channels, taps * out_plane * 8, [&](int64_t c) {
    const int64_t g = c / group_channels;
    const T* plane = image + c * s.in_h * s.in_w;
    const T* group_offset = offset + g * 2 * taps * out_plane;
    const T* group_mask = mask ? mask + g * taps * out_plane : nullptr;
    for (int64_t i = 0; i < s.kernel_h; ++i)
      for (int64_t j = 0; j < s.kernel_w; ++j) {
        const int64_t tap = i * s.kernel_w + j;
        const T* dy = group_offset + 2 * tap * out_plane;
        const T* dx = dy + out_plane;
        T* row = cols + (c * taps + tap) * out_plane;
        for (int64_t oy = 0; oy < s.out_h; ++oy)
          for (int64_t ox = 0; ox < s.out_w; ++ox) {
            const int64_t at = oy * s.out_w + ox;
            const T y = static_cast<T>(oy * s.stride_h - s.pad_h + i * s.dilation_h) + dy[at];
            const T x = static_cast<T>(ox * s.stride_w - s.pad_w + j * s.dilation_w) + dx[at];
            const T v = zero_padded_bilinear(plane, s.in_h, s.in_w, y, x);
            row[at] = group_mask ? group_mask[tap * out_plane + at] * v : v;
          }
      }
  });
}

template void deformable_im2col<float>(const Im2colShape&, int64_t, const float*, const float*, const float*, float*);
template void deformable_im2col<double>(const Im2colShape&, int64_t, const double*, const double*, const double*,
                                        double*);

}  // namespace pt2web
