// The int16 weight rows of the int8 products (pt2web::quantized_conv2d /
// quantized_linear): an int8/uint8 weight [rows, cols...] with its zero
// points subtracted, each row padded with zeros to an even length `ld`, as
// kernels/int8/dot_gemm_s16.h's dot_gemm_packed reads them.
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
  Tensor rows;  // int16 [rows, ld]
  int64_t ld = 0;
};

WidenedWeight widened_weight(const Tensor& weight, int64_t rows, int64_t cols,
                             const std::vector<int32_t>& zero_points, bool fixed);

}  // namespace pt2web::quantized
