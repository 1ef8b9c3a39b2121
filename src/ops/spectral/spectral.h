// The spectral operator folder: ATen's FFT primitives (_fft_r2c, _fft_c2r,
// _fft_c2c), the torch.fft functions that the TRAINING dialect keeps
// (fft_fft ... fft_ihfftn, fftshift, fftfreq), stft/istft and the window
// functions. The transforms run in double precision (kernels/fft) and are
// rounded once into the result dtype.
// Each file registers its operators with one function declared here;
// register.cpp calls them all from register_spectral_ops (ops/families.h).
//
// Errors: BadInput with ATen's wording for dtypes, dims and sizes the
// operators reject; Unsupported for float16 inputs (torch's CPU FFT rejects
// them too).
#pragma once

#include <cstdint>
#include <vector>

#include "ops/registry.h"
#include "tensor/tensor.h"

namespace pt2web {

void register_fft_primitive_ops(OpTable& t);  // fft_primitives.cpp
void register_fft_function_ops(OpTable& t);   // fft_functions.cpp
void register_fft_helper_ops(OpTable& t);     // fft_helpers.cpp
void register_stft_ops(OpTable& t);           // stft.cpp
void register_window_ops(OpTable& t);         // windows.cpp

// ATen's fft_norm_mode: the scale applied after an unnormalized transform.
enum class FftNorm : int64_t { None = 0, ByRootN = 1, ByN = 2 };

// The primitives on dims already wrapped (see ATen's _fft_* operators):
// r2c takes float32/float64 and gives complex64/complex128, halving the last
// of `dims` to n/2+1 when onesided; c2r takes complex and gives real with the
// last of `dims` of size last_dim_size (a Hermitian half spectrum in);
// c2c keeps the complex dtype.
Tensor fft_r2c(const Tensor& x, const std::vector<int64_t>& dims, FftNorm norm, bool onesided);
Tensor fft_c2r(const Tensor& x, const std::vector<int64_t>& dims, FftNorm norm, int64_t last_dim_size);
Tensor fft_c2c(const Tensor& x, const std::vector<int64_t>& dims, FftNorm norm, bool forward);

// x cut or zero-padded at the end of each dims[i] to sizes[i] (-1 keeps the
// size): ATen's resize_fft_input.
Tensor resize_fft_input(const Tensor& x, const std::vector<int64_t>& dims, const std::vector<int64_t>& sizes);

}  // namespace pt2web
