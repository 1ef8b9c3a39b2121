// The weight rows of the int8 products (pt2web::quantized_conv2d /
// quantized_linear) as kernels/int8/dot_gemm_s16.h's dot_gemm_packed reads
// them: rows of an even length `ld` (a zero appended to odd rows) of
//   - the int8 values themselves when the weight is int8 and every zero
//     point is 0 (XNNPACKQuantizer's symmetric weights): the weight's own
//     bytes when its rows are already even, else a padded int8 copy;
//   - otherwise (uint8, nonzero zero points, or int16 asked for: the
//     depthwise kernel) int16 values with the zero points subtracted.
//
// A weight the program holds fixed (a parameter or constant: the fused node
// says so, runtime/quantized_fusion.h) is widened on its first use and kept
// for as long as its storage lives, so later runs read the kept rows; the
// key is the storage, the offset, the shape and the zero points. Other
// weights are widened on every call.
// Ownership: the cache holds the widened copies, and only a weak reference
// to the weight's storage; entries of freed storages are dropped when the
// next weight is added. Thread-safe (one mutex). Errors: none of its own.
#pragma once

#include <cstdint>
#include <vector>

#include "tensor/tensor.h"

namespace pt2web::quantized {

struct WidenedWeight {
  Tensor rows;  // int16 [rows, ld], or int8 (`int8`)
  bool int8 = false;
  int64_t ld = 0;
};

WidenedWeight widened_weight(const Tensor& weight, int64_t rows, int64_t cols,
                             const std::vector<int32_t>& zero_points, bool fixed, bool allow_int8 = true);

}  // namespace pt2web::quantized
