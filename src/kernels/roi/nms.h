// torchvision's greedy non-maximum suppression on contiguous float/double
// buffers: boxes [n, 4] as (x1, y1, x2, y2), scores [n]. Boxes are visited
// in order of decreasing score (ties keep their index order; NaN scores
// sort first, as torch's descending sort puts them); each kept box
// suppresses every later box whose intersection over union with it exceeds
// iou_threshold. Returns the kept indices in visiting order. No errors.
#pragma once

#include <cstdint>
#include <vector>

namespace pt2web {

template <typename T>
std::vector<int64_t> nms_keep(const T* boxes, const T* scores, int64_t n, double iou_threshold);

}  // namespace pt2web
