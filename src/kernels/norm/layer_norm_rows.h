// Layer normalization of float32 rows (layer_norm_rows.cpp), the kernel of
// aten.layer_norm / native_layer_norm for float32 inputs. Owns nothing and
// raises no errors: the caller checks shapes and passes every pointer.
//
// Per row, as ATen's CPU kernel: mean and biased variance in float32 (two
// passes, four lanes), rstd = 1 / sqrt(max(var, 0) + eps), then
// y = (x * rstd + (-rstd * mean)) * w + b.
#pragma once

#include <cstdint>

namespace pt2web {

// x and y are [rows, n] contiguous (y may alias x); w and b are [n] or null;
// mean and rstd receive one value per row when not null.
void layer_norm_rows_f32(const float* x, float* y, int64_t rows, int64_t n, const float* w, const float* b, float eps,
                         float* mean, float* rstd);

// The same in plain double loops, for tests.
void layer_norm_rows_reference(const float* x, float* y, int64_t rows, int64_t n, const float* w, const float* b,
                               float eps, float* mean, float* rstd);

}  // namespace pt2web
