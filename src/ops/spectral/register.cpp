#include "ops/families.h"
#include "ops/spectral/spectral.h"

namespace pt2web {

void register_spectral_ops(OpTable& t) {
  register_fft_primitive_ops(t);
  register_fft_function_ops(t);
  register_fft_helper_ops(t);
  register_stft_ops(t);
  register_window_ops(t);
}

}  // namespace pt2web
