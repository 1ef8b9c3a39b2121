// The window functions: hann, hamming, blackman, bartlett and kaiser, as
// ATen builds them (TensorFactories.cpp): an arange of the window length
// (one more when periodic, the last value dropped at the end) transformed
// by in-place steps, each rounded to the result dtype.
#include <cmath>
#include <optional>

#include "kernels/math/bessel_functions.h"
#include "ops/op_call.h"
#include "ops/spectral/spectral.h"
#include "tensor/dispatch.h"

namespace pt2web {

namespace {

constexpr double kPi = 3.14159265358979323846;

enum class Window { Hamming, Blackman, Bartlett, Kaiser };

struct WindowArgs {
  int64_t length = 0;
  bool periodic = true;
  double alpha = 0.54, beta = 0.46;  // hamming; kaiser's beta
  DType dtype = DType::Float32;
};

// Value k of a window of (already extended) length n, rounding after each
// step like ATen's in-place chain; T is the result type, M its opmath type.
template <Window W, typename T>
T window_value(int64_t k, int64_t n, const WindowArgs& a) {
  using M = opmath_t<T>;
  auto r = [](M v) { return static_cast<M>(static_cast<T>(v)); };
  const M index = r(static_cast<M>(k));
  if constexpr (W == Window::Hamming) {
    M x = r(index * static_cast<M>(kPi * 2.0 / static_cast<double>(n - 1)));
    x = r(std::cos(x));
    x = r(x * static_cast<M>(-a.beta));
    return static_cast<T>(x + static_cast<M>(a.alpha));
  } else if constexpr (W == Window::Blackman) {
    M x = r(index * static_cast<M>(kPi / static_cast<double>(n - 1)));
    M four = r(r(std::cos(r(x * M(4)))) * static_cast<M>(0.08));
    M two = r(r(std::cos(r(x * M(2)))) * static_cast<M>(0.5));
    return static_cast<T>(r(four - two) + static_cast<M>(0.42));
  } else if constexpr (W == Window::Bartlett) {
    M x = r(index * static_cast<M>(2.0 / static_cast<double>(n - 1)));
    const int64_t first_half = ((n - 1) >> 1) + 1;
    return static_cast<T>(k < first_half ? x : r(-x) + M(2));
  } else {
    const M alpha = static_cast<M>((n - 1) / 2.0), beta = static_cast<M>(a.beta);
    M ratio = (index - alpha) / alpha;
    M arg = beta * std::sqrt(std::abs(M(1) - ratio * ratio));
    return static_cast<T>(static_cast<M>(special::bessel_i0(arg)) / static_cast<M>(special::bessel_i0(beta)));
  }
}

template <Window W>
Tensor make_window(const OpCall& c, const WindowArgs& a) {
  if (a.length < 0)
    fail(ErrorCode::BadInput, c.where(), "window_length must be non-negative, got ", a.length);
  if (!is_floating(a.dtype))
    fail(ErrorCode::BadInput, c.where(), "expects floating point dtypes, got: ", dtype_name(a.dtype));
  Tensor out = Tensor::uninitialized(a.dtype, {a.length});
  visit_floating_dtype(a.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = out.data<T>();
    if (a.length == 1) {
      o[0] = static_cast<T>(1.0f);
      return;
    }
    const int64_t n = a.periodic ? a.length + 1 : a.length;
    for (int64_t k = 0; k < a.length; ++k) o[k] = window_value<W, T>(k, n, a);
  });
  return out;
}

// Reads the schema's leading arguments: window_length, then (by overload)
// periodic, then the window's parameters; the dtype keyword follows them.
template <Window W, int Params, bool HasPeriodic>
void window_op(OpCall& c) {
  WindowArgs a;
  a.length = c.int_arg(0);
  size_t next = 1;
  if (HasPeriodic) a.periodic = c.bool_arg(next++);
  if constexpr (W == Window::Kaiser) a.beta = 12.0;
  if (W == Window::Hamming && Params >= 1) a.alpha = c.double_arg(next++);
  if (Params >= 1 && W == Window::Kaiser) a.beta = c.double_arg(next++);
  if (W == Window::Hamming && Params >= 2) a.beta = c.double_arg(next++);
  if (std::optional<DType> dtype = c.optional_dtype(next)) a.dtype = *dtype;
  c.push(make_window<W>(c, a));
}

// hann is hamming with alpha = beta = 0.5.
template <bool HasPeriodic>
void hann_op(OpCall& c) {
  WindowArgs a;
  a.length = c.int_arg(0);
  if (HasPeriodic) a.periodic = c.bool_arg(1);
  a.alpha = a.beta = 0.5;
  if (std::optional<DType> dtype = c.optional_dtype(HasPeriodic ? 2 : 1)) a.dtype = *dtype;
  c.push(make_window<Window::Hamming>(c, a));
}

constexpr char kOptions[] =
    "*, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor";

}  // namespace

void register_window_ops(OpTable& t) {
  const std::string opts = kOptions;
  t.add("aten::hann_window(int window_length, " + opts, hann_op<false>);
  t.add("aten::hann_window.periodic(int window_length, bool periodic, " + opts, hann_op<true>);
  t.add("aten::hamming_window(int window_length, " + opts, window_op<Window::Hamming, 0, false>);
  t.add("aten::hamming_window.periodic(int window_length, bool periodic, " + opts, window_op<Window::Hamming, 0, true>);
  t.add("aten::hamming_window.periodic_alpha(int window_length, bool periodic, float alpha, " + opts,
        window_op<Window::Hamming, 1, true>);
  t.add("aten::hamming_window.periodic_alpha_beta(int window_length, bool periodic, float alpha, float beta, " + opts,
        window_op<Window::Hamming, 2, true>);
  t.add("aten::blackman_window(int window_length, " + opts, window_op<Window::Blackman, 0, false>);
  t.add("aten::blackman_window.periodic(int window_length, bool periodic, " + opts, window_op<Window::Blackman, 0, true>);
  t.add("aten::bartlett_window(int window_length, " + opts, window_op<Window::Bartlett, 0, false>);
  t.add("aten::bartlett_window.periodic(int window_length, bool periodic, " + opts, window_op<Window::Bartlett, 0, true>);
  t.add("aten::kaiser_window(int window_length, " + opts, window_op<Window::Kaiser, 0, false>);
  t.add("aten::kaiser_window.periodic(int window_length, bool periodic, " + opts, window_op<Window::Kaiser, 0, true>);
  t.add("aten::kaiser_window.beta(int window_length, bool periodic, float beta, " + opts, window_op<Window::Kaiser, 1, true>);
}

}  // namespace pt2web
