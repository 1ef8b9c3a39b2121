// stft and istft as ATen defines them (SpectralOps.cpp): frames as a
// strided view, the window (centered by zero padding when shorter than
// n_fft) multiplied in, one transform per frame; istft inverts per frame and
// overlap-adds, dividing by the summed squared window.
#include <cmath>
#include <complex>
#include <optional>

#include "ops/complex/complex.h"
#include "ops/op_call.h"
#include "ops/op_compose.h"
#include "ops/spectral/spectral.h"
#include "ops/views.h"
#include "util/error.h"

namespace pt2web {

namespace {

using cdouble = std::complex<double>;

// The window of length n_fft: `window` (or ones in `dtype` when undefined)
// centered with zeros on both sides when win_length < n_fft. Undefined when
// there is nothing to multiply (no window, full length).
Tensor centered_window(const Tensor& window, int64_t win_length, int64_t n_fft, DType dtype, bool ones_if_full) {
  if (win_length == n_fft) {
    if (window.defined() || !ones_if_full) return window;
    Tensor ones = Tensor::empty(dtype, {n_fft});
    ones.copy_from(Tensor::scalar(dtype, 1.0));
    return ones;
  }
  const int64_t left = (n_fft - win_length) / 2;
  Tensor out = Tensor::empty(window.defined() ? window.dtype() : dtype, {n_fft});
  Tensor middle = slice_view(out, 0, left, left + win_length, 1);
  if (window.defined())
    middle.copy_from(window);
  else
    middle.copy_from(Tensor::scalar(dtype, 1.0));
  return out;
}

void check_window(const OpCall& c, const Tensor& window, int64_t win_length) {
  if (window.defined() && (window.dim() != 1 || window.size(0) != win_length))
    fail(ErrorCode::BadInput, c.where(), "expected a 1D window tensor of size equal to win_length=", win_length,
         ", but got window with size ", shape_to_string(window.sizes()));
}

// The transform of complex frames (frames along dim 2), which has no onesided form.
Tensor complex_frames_fft(const OpCall& c, const Tensor& frames, bool onesided, FftNorm norm, bool forward) {
  if (onesided) fail(ErrorCode::BadInput, c.where(), "Cannot have onesided output if window or input is complex");
  return fft_c2c(frames, {2}, norm, forward);
}

Tensor stft(const OpCall& c, const Tensor& self, int64_t n_fft, std::optional<int64_t> hop_opt,
            std::optional<int64_t> win_opt, const Tensor& window, bool normalized, std::optional<bool> onesided_opt,
            std::optional<bool> return_complex_opt) {
  const bool complex_input = is_complex(self.dtype()) || (window.defined() && is_complex(window.dtype()));
  if (!return_complex_opt && !complex_input)
    fail(ErrorCode::BadInput, c.where(),
         "stft requires the return_complex parameter be given for real inputs, and will further require that "
         "return_complex=True in a future PyTorch release.");
  const bool return_complex = return_complex_opt.value_or(complex_input);
  const int64_t hop = hop_opt.value_or(n_fft >> 2), win_length = win_opt.value_or(n_fft);
  if (self.dim() != 1 && self.dim() != 2)
    fail(ErrorCode::BadInput, c.where(), "expected a 1D or 2D tensor, but got a ", self.dim(), "D tensor");
  Tensor input = self.dim() == 1 ? unsqueeze_view(self, 0) : self;
  const int64_t batch = input.size(0), len = input.size(1);
  if (n_fft <= 0 || n_fft > len)
    fail(ErrorCode::BadInput, c.where(), "expected 0 < n_fft < ", len, ", but got n_fft=", n_fft);
  if (hop <= 0) fail(ErrorCode::BadInput, c.where(), "expected hop_length > 0, but got hop_length=", hop);
  if (win_length <= 0 || win_length > n_fft)
    fail(ErrorCode::BadInput, c.where(), "expected 0 < win_length <= n_fft, but got win_length=", win_length);
  check_window(c, window, win_length);
  Tensor full_window = centered_window(window, win_length, n_fft, self.dtype(), false);
  const int64_t frames = 1 + (len - n_fft) / hop;
  const Shape& st = input.strides();
  Tensor framed = input.as_strided({batch, frames, n_fft}, {st[0], hop * st[1], st[1]}, input.storage_offset());
  if (full_window.defined()) framed = run_op1("aten::mul.Tensor", {arg(framed), arg(full_window)});
  const bool complex_fft = is_complex(framed.dtype());
  const bool onesided = onesided_opt.value_or(!complex_fft);
  const FftNorm norm = normalized ? FftNorm::ByRootN : FftNorm::None;
  Tensor out;
  if (complex_fft) {
    out = complex_frames_fft(c, framed, onesided, norm, true);
  } else {
    out = fft_r2c(framed, {2}, norm, onesided);
  }
  out = transpose_view(out, 1, 2);
  if (self.dim() == 1) out = squeeze_view(out, {0});
  return return_complex ? out : complex_as_real_view(out);
}

void stft_op(OpCall& c) {
  c.push(stft(c, c.tensor(0), c.int_arg(1), c.optional_int(2), c.optional_int(3), c.optional_tensor(4),
              c.bool_arg(5), c.arg(6).is_none() ? std::nullopt : std::optional<bool>(c.bool_arg(6)),
              c.arg(7).is_none() ? std::nullopt : std::optional<bool>(c.bool_arg(7))));
}

// stft.center: pads n_fft/2 on both sides of the signal (pad_mode) first.
void stft_center_op(OpCall& c) {
  Tensor input = c.tensor(0);
  const int64_t n_fft = c.int_arg(1);
  if (c.bool_arg(5)) {
    Shape extended = input.sizes();
    while (extended.size() < 3) extended.insert(extended.begin(), 1);
    const int64_t extra = static_cast<int64_t>(extended.size()) - input.dim();
    Tensor padded = run_op1("aten::pad.default", {arg(reshape(input, extended)), arg(std::vector<int64_t>{n_fft / 2, n_fft / 2}),
                                          Value::from_string(c.string_arg(6))});
    Shape back(padded.sizes().begin() + extra, padded.sizes().end());
    input = reshape(padded, back);
  }
  c.push(stft(c, input, n_fft, c.optional_int(2), c.optional_int(3), c.optional_tensor(4), c.bool_arg(7),
              c.arg(8).is_none() ? std::nullopt : std::optional<bool>(c.bool_arg(8)),
              c.arg(9).is_none() ? std::nullopt : std::optional<bool>(c.bool_arg(9))));
}

void istft_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  const int64_t n_fft = c.int_arg(1);
  const int64_t hop = c.optional_int(2).value_or(n_fft >> 2), win_length = c.optional_int(3).value_or(n_fft);
  const Tensor window = c.optional_tensor(4);
  const bool center = c.bool_arg(5), normalized = c.bool_arg(6), return_complex = c.bool_arg(9);
  const std::optional<int64_t> length = c.optional_int(8);
  if (!is_complex(self.dtype()))
    fail(ErrorCode::BadInput, c.where(),
         "istft requires a complex-valued input tensor matching the output from stft with return_complex=True.");
  if (self.numel() == 0) fail(ErrorCode::BadInput, c.where(), "istft input tensor cannot be empty");
  if (self.dim() != 2 && self.dim() != 3)
    fail(ErrorCode::BadInput, c.where(), "expected a tensor with 3 or 4 dimensions of complex, but got ",
         self.dim() + 1);
  const int64_t frames = self.size(-1), fft_size = self.size(-2);
  const bool onesided = c.arg(7).is_none() ? fft_size != n_fft : c.bool_arg(7);
  if (onesided && n_fft / 2 + 1 != fft_size)
    fail(ErrorCode::BadInput, c.where(),
         "expected the frequency dimension (3rd to the last) of the input tensor to match n_fft / 2 + 1 when "
         "onesided=True, but got ", fft_size);
  if (!onesided && n_fft != fft_size)
    fail(ErrorCode::BadInput, c.where(),
         "expected the frequency dimension (3rd to the last) of the input tensor to match n_fft when "
         "onesided=False, but got ", fft_size);
  if (!(0 < hop && hop <= win_length)) fail(ErrorCode::BadInput, c.where(), "expected 0 < hop_length <= win_length");
  if (!(0 < win_length && win_length <= n_fft))
    fail(ErrorCode::BadInput, c.where(), "expected 0 < win_length <= n_fft, but got win_length=", win_length);
  check_window(c, window, win_length);
  const DType real_dtype = complex_to_real_dtype(self.dtype());
  Tensor full_window = centered_window(window, win_length, n_fft, real_dtype, true);
  Tensor input = self.dim() == 2 ? unsqueeze_view(self, 0) : self;
  input = transpose_view(input, 1, 2);  // (channel, frames, fft_size)
  const FftNorm norm = normalized ? FftNorm::ByRootN : FftNorm::ByN;
  Tensor spectra;
  if (return_complex) {
    spectra = complex_frames_fft(c, input, onesided, norm, false);
  } else {
    if (is_complex(full_window.dtype()))
      fail(ErrorCode::BadInput, c.where(), "Complex windows are incompatible with return_complex=False");
    if (!onesided) input = slice_view(input, 2, 0, n_fft / 2 + 1, 1);
    spectra = fft_c2r(input, {2}, norm, n_fft);
  }
  // Overlap-add of the windowed frames and of the squared window, in complex128.
  const DType out_dtype = promote_types(spectra.dtype(), full_window.dtype());
  const int64_t channels = spectra.size(0), total = n_fft + hop * (frames - 1);
  Tensor frames_c = spectra.to(DType::Complex128), window_c = full_window.to(DType::Complex128);
  const cdouble* f = frames_c.data<cdouble>();
  const cdouble* w = window_c.data<cdouble>();
  Tensor y = Tensor::empty(DType::Complex128, {channels, total});
  std::vector<cdouble> envelope(static_cast<size_t>(total), cdouble(0, 0));
  cdouble* out = y.data<cdouble>();
  for (int64_t t = 0; t < frames; ++t)
    for (int64_t k = 0; k < n_fft; ++k) envelope[t * hop + k] += w[k] * w[k];
  for (int64_t ch = 0; ch < channels; ++ch)
    for (int64_t t = 0; t < frames; ++t)
      for (int64_t k = 0; k < n_fft; ++k) out[ch * total + t * hop + k] += f[(ch * frames + t) * n_fft + k] * w[k];
  const int64_t start = center ? n_fft / 2 : 0;
  const int64_t end = length ? start + *length : (center ? total - n_fft / 2 : total);
  const int64_t kept_end = std::min(end, total);
  for (int64_t i = start; i < kept_end; ++i)
    if (std::abs(envelope[i]) < 1e-11)
      fail(ErrorCode::BadInput, c.where(), "window overlap add min: ", std::abs(envelope[i]));
  Tensor result = Tensor::empty(DType::Complex128, {channels, std::max<int64_t>(end - start, 0)});
  cdouble* r = result.data<cdouble>();
  for (int64_t ch = 0; ch < channels; ++ch)
    for (int64_t i = start; i < kept_end; ++i) r[ch * (end - start) + i - start] = out[ch * total + i] / envelope[i];
  Tensor typed = result.to(out_dtype);
  c.push(self.dim() == 2 ? squeeze_view(typed, {0}) : typed);
}

}  // namespace

void register_stft_ops(OpTable& t) {
  t.add("aten::stft(Tensor self, int n_fft, int? hop_length=None, int? win_length=None, Tensor? window=None, "
        "bool normalized=False, bool? onesided=None, bool? return_complex=None) -> Tensor",
        stft_op);
  t.add("aten::stft.center(Tensor self, int n_fft, int? hop_length=None, int? win_length=None, Tensor? window=None, "
        "bool center=True, str pad_mode=\"reflect\", bool normalized=False, bool? onesided=None, "
        "bool? return_complex=None) -> Tensor",
        stft_center_op);
  t.add("aten::istft(Tensor self, int n_fft, int? hop_length=None, int? win_length=None, Tensor? window=None, "
        "bool center=True, bool normalized=False, bool? onesided=None, int? length=None, "
        "bool return_complex=False) -> Tensor",
        istft_op);
}

}  // namespace pt2web
