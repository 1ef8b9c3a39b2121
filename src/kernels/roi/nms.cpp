#include "kernels/roi/nms.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pt2web {

template <typename T>
std::vector<int64_t> nms_keep(const T* boxes, const T* scores, int64_t n, double iou_threshold) {
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), int64_t{0});
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    const T sa = scores[a], sb = scores[b];
    if (std::isnan(sa)) return !std::isnan(sb);
    return sa > sb;
  });
  std::vector<T> area(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const T* b = boxes + i * 4;
    area[i] = (b[2] - b[0]) * (b[3] - b[1]);
  }
  std::vector<char> suppressed(static_cast<size_t>(n), 0);
  std::vector<int64_t> keep;
  for (int64_t oi = 0; oi < n; ++oi) {
    const int64_t i = order[oi];
    if (suppressed[i]) continue;
    keep.push_back(i);
    const T* bi = boxes + i * 4;
    for (int64_t oj = oi + 1; oj < n; ++oj) {
      const int64_t j = order[oj];
      if (suppressed[j]) continue;
      const T* bj = boxes + j * 4;
      const T w = std::max(T(0), std::min(bi[2], bj[2]) - std::max(bi[0], bj[0]));
      const T h = std::max(T(0), std::min(bi[3], bj[3]) - std::max(bi[1], bj[1]));
      const T inter = w * h;
      const T iou = inter / (area[i] + area[j] - inter);
      if (static_cast<double>(iou) > iou_threshold) suppressed[j] = 1;
    }
  }
  return keep;
}

template std::vector<int64_t> nms_keep<float>(const float*, const float*, int64_t, double);
template std::vector<int64_t> nms_keep<double>(const double*, const double*, int64_t, double);

}  // namespace pt2web
