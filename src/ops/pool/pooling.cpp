// Pooling: max_pool{1,2,3}d (with and without indices), avg_pool{1,2,3}d,
// adaptive_avg_pool{1,2,3}d, adaptive_max_pool{1,2,3}d. Resampling ops live
// in resample.cpp.
//
// Every pool runs the same 3-d loops: 1-d and 2-d inputs get leading size-1
// spatial dims with a kernel of 1. Each output position along a dim has an
// input window (begin, end, step) precomputed with ATen's CPU kernel rules,
// so padding, dilation and ceil_mode only shape the windows.
#include "ops/elementwise.h"
#include "ops/pool/pooling.h"

#include <cmath>
#include <limits>

#include "kernels/pool/max_pool2d.h"
#include "ops/pool/pool.h"
#include "ops/op_utils.h"
#include "tensor/storage_size.h"

namespace pt2web {

// ---- shared with resample.cpp ------------------------------------------

Dims3 to_dims3(const std::vector<int64_t>& spatial, int64_t fill) {
  Dims3 d{fill, fill, fill};
  const size_t offset = 3 - spatial.size();
  for (size_t i = 0; i < spatial.size(); ++i) d[offset + i] = spatial[i];
  return d;
}

int64_t plane_count(const Tensor& input, int64_t rank) {
  return shape_numel(Shape(input.sizes().begin(), input.sizes().end() - rank));
}

Shape with_spatial(const Tensor& input, int64_t rank, const std::vector<int64_t>& spatial) {
  Shape s(input.sizes().begin(), input.sizes().end() - rank);
  s.insert(s.end(), spatial.begin(), spatial.end());
  return s;
}


namespace {

// "max_pool2d" from "aten::max_pool2d".
std::string op_label(const OpCall& c) { return c.schema().name.substr(6); }

// Input window of one output position along one dim.
struct Window {
  int64_t begin = 0, end = 0, step = 1;
  int64_t padded = 0;  // avg_pool: window extent including padding
};
using Windows = std::array<std::vector<Window>, 3>;

int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

// ATen's pooling_output_shape: with ceil_mode the last window must start
// inside the input or its left padding.
int64_t pooled_size(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil, bool ceil_mode) {
  int64_t out = floor_div(in + 2 * pad - dil * (k - 1) - 1 + (ceil_mode ? stride - 1 : 0), stride) + 1;
  if (ceil_mode && (out - 1) * stride >= in + pad) --out;
  return out;
}

std::vector<Window> max_windows(int64_t in, int64_t out, int64_t k, int64_t s, int64_t p, int64_t d) {
  std::vector<Window> w(out);
  for (int64_t o = 0; o < out; ++o) {
    int64_t b = o * s - p;
    w[o].end = std::min(b + (k - 1) * d + 1, in);
    while (b < 0) b += d;
    w[o].begin = b;
    w[o].step = d;
  }
  return w;
}

std::vector<Window> avg_windows(int64_t in, int64_t out, int64_t k, int64_t s, int64_t p) {
  std::vector<Window> w(out);
  for (int64_t o = 0; o < out; ++o) {
    int64_t b = o * s - p;
    int64_t e = std::min(b + k, in + p);
    w[o].padded = e - b;
    w[o].begin = std::max<int64_t>(b, 0);
    w[o].end = std::min(e, in);
  }
  return w;
}

// Adaptive windows: [floor(o*in/out), ceil((o+1)*in/out)).
std::vector<Window> adaptive_windows(int64_t in, int64_t out) {
  std::vector<Window> w(out);
  for (int64_t o = 0; o < out; ++o) {
    w[o].begin = (o / out) * in + ((o % out) * in) / out;
    w[o].end = 1 + ((o + 1) * in - 1) / out;
    w[o].padded = w[o].end - w[o].begin;
  }
  return w;
}

Dims3 window_counts(const Windows& win) {
  return {static_cast<int64_t>(win[0].size()), static_cast<int64_t>(win[1].size()),
          static_cast<int64_t>(win[2].size())};
}

// ---- kernels -----------------------------------------------------------------------

// Max over each window; NaN wins (and a later NaN takes the index), as in
// ATen. Indices are flat positions within the input plane.
template <typename T>
void max_pool_kernel(const T* in, T* out, int64_t* indices, int64_t planes, const Dims3& isz, const Windows& win) {
  using M = opmath_t<T>;
  const Dims3 osz = window_counts(win);
  const int64_t in_plane = isz[0] * isz[1] * isz[2];
  const M lowest = std::numeric_limits<M>::has_infinity ? -std::numeric_limits<M>::infinity()
                                                        : std::numeric_limits<M>::lowest();
  int64_t o = 0;
  for (int64_t p = 0; p < planes; ++p) {
    const T* plane = in + p * in_plane;
    for (int64_t od = 0; od < osz[0]; ++od)
      for (int64_t oh = 0; oh < osz[1]; ++oh)
        for (int64_t ow = 0; ow < osz[2]; ++ow, ++o) {
          const Window &wd = win[0][od], &wh = win[1][oh], &ww = win[2][ow];
          if (!indices) {
            // Values only: a branch-free running max, NaN remembered on the side.
            M best_val = lowest;
            bool nan = false;
            for (int64_t id = wd.begin; id < wd.end; id += wd.step)
              for (int64_t ih = wh.begin; ih < wh.end; ih += wh.step) {
                const T* row = plane + (id * isz[1] + ih) * isz[2];
                for (int64_t iw = ww.begin; iw < ww.end; iw += ww.step) {
                  const M v = static_cast<M>(row[iw]);
                  best_val = v > best_val ? v : best_val;
                  nan = nan || v != v;
                }
              }
            out[o] = static_cast<T>(nan ? std::numeric_limits<M>::quiet_NaN() : best_val);
            continue;
          }
          int64_t best = (wd.begin * isz[1] + wh.begin) * isz[2] + ww.begin;
          M best_val = lowest;
          for (int64_t id = wd.begin; id < wd.end; id += wd.step)
            for (int64_t ih = wh.begin; ih < wh.end; ih += wh.step)
              for (int64_t iw = ww.begin; iw < ww.end; iw += ww.step) {
                const int64_t index = (id * isz[1] + ih) * isz[2] + iw;
                const M v = static_cast<M>(plane[index]);
                if (v > best_val || v != v) {
                  best_val = v;
                  best = index;
                }
              }
          out[o] = static_cast<T>(best_val);
          if (indices) indices[o] = best;
        }
  }
}

// Sum over each window, turned into the output by finish(sum, wd, wh, ww);
// windows that hold no input element give 0.
template <typename T, typename Finish>
void sum_pool_kernel(const T* in, T* out, int64_t planes, const Dims3& isz, const Windows& win, Finish finish) {
  using M = opmath_t<T>;
  const Dims3 osz = window_counts(win);
  const int64_t in_plane = isz[0] * isz[1] * isz[2];
  int64_t o = 0;
  for (int64_t p = 0; p < planes; ++p) {
    const T* plane = in + p * in_plane;
    for (int64_t od = 0; od < osz[0]; ++od)
      for (int64_t oh = 0; oh < osz[1]; ++oh)
        for (int64_t ow = 0; ow < osz[2]; ++ow, ++o) {
          const Window &wd = win[0][od], &wh = win[1][oh], &ww = win[2][ow];
          if (wd.begin >= wd.end || wh.begin >= wh.end || ww.begin >= ww.end) {
            out[o] = static_cast<T>(M(0));
            continue;
          }
          M sum = M(0);
          for (int64_t id = wd.begin; id < wd.end; ++id)
            for (int64_t ih = wh.begin; ih < wh.end; ++ih) {
              const T* row = plane + (id * isz[1] + ih) * isz[2];
              for (int64_t iw = ww.begin; iw < ww.end; ++iw) sum += static_cast<M>(row[iw]);
            }
          out[o] = static_cast<T>(finish(sum, wd, wh, ww));
        }
  }
}

// Runs f(TypeTag<T>) for the floating dtypes and int64 (what ATen's CPU
// average pools accept); other dtypes fail as in ATen.
template <typename F>
void visit_float_or_long(const OpCall& c, DType dtype, F&& f) {
  if (dtype == DType::Int64) {
    f(TypeTag<int64_t>{});
  } else if (dtype == DType::Float32 || dtype == DType::Float64 || dtype == DType::Float16 ||
             dtype == DType::BFloat16) {
    visit_floating_dtype(dtype, f);
  } else {
    elementwise::fail_not_implemented_for(c, dtype);
  }
}

// ---- argument handling -------------------------------------------------------------

// A pool argument given as one int or `rank` ints, expanded to `rank` ints.
std::vector<int64_t> expand_arg(const OpCall& c, std::vector<int64_t> v, int64_t rank, const char* what,
                                bool may_be_empty) {
  if (v.empty() && may_be_empty) return v;
  repeat_single(v, static_cast<size_t>(rank));
  if (static_cast<int64_t>(v.size()) != rank)
    fail(ErrorCode::BadInput, c.where(), op_label(c), ": ", what, " must either be ",
         may_be_empty ? "omitted, " : "", "a single int, or a tuple of ", rank, " ints");
  return v;
}

// The input must have rank+1 (unbatched) or rank+2 dims, non-empty except the batch dim.
void check_pool_input(const OpCall& c, const Tensor& input, int64_t rank) {
  const int64_t dim = input.dim();
  bool ok = dim == rank + 1 || dim == rank + 2;
  for (int64_t d = dim == rank + 2 ? 1 : 0; ok && d < dim; ++d) ok = input.size(d) > 0;
  if (!ok)
    fail(ErrorCode::BadInput, c.where(), "Expected ", rank + 1, "D or ", rank + 2,
         "D (batch mode) tensor with optional 0 dim batch size for input, but got: ", shape_to_string(input.sizes()));
}

struct PoolGeometry {
  std::vector<int64_t> kernel, stride, padding, dilation, out;
};

// Validates kernel/stride/padding/dilation (ATen's pool shape checks) and
// computes the output spatial sizes.
PoolGeometry pool_geometry(const OpCall& c, const Tensor& input, int64_t rank, size_t kernel_arg, size_t stride_arg,
                           size_t padding_arg, std::optional<size_t> dilation_arg, bool ceil_mode) {
  PoolGeometry g;
  g.kernel = expand_arg(c, c.int_list(kernel_arg), rank, "kernel_size", false);
  g.stride = expand_arg(c, c.int_list(stride_arg), rank, "stride", true);
  if (g.stride.empty()) g.stride = g.kernel;
  g.padding = expand_arg(c, c.int_list(padding_arg), rank, "padding", false);
  g.dilation = dilation_arg ? expand_arg(c, c.int_list(*dilation_arg), rank, "dilation", false)
                            : std::vector<int64_t>(rank, 1);
  check_pool_input(c, input, rank);
  for (int64_t i = 0; i < rank; ++i) {
    if (g.kernel[i] <= 0)
      fail(ErrorCode::BadInput, c.where(), "kernel size should be greater than zero, but got ",
           shape_to_string(g.kernel));
    if (g.stride[i] <= 0)
      fail(ErrorCode::BadInput, c.where(), "stride should be greater than zero, but got ", shape_to_string(g.stride));
    if (g.dilation[i] <= 0)
      fail(ErrorCode::BadInput, c.where(), "dilation should be greater than zero, but got ",
           shape_to_string(g.dilation));
    const int64_t pad = g.padding[i], k = g.kernel[i], d = g.dilation[i];
    if (pad < 0) fail(ErrorCode::BadInput, c.where(), "pad must be non-negative, but got pad: ", pad);
    if (pad > ((k - 1) * d + 1) / 2)
      fail(ErrorCode::BadInput, c.where(), "pad should be at most half of effective kernel size, but got pad=", pad,
           ", kernel_size=", k, " and dilation=", d);
    if (pad > k / 2)
      fail(ErrorCode::BadInput, c.where(), "pad should be smaller than or equal to half of kernel size, but got pad=",
           pad, ", kernel_size=", k);
  }
  Shape in_spatial(input.sizes().end() - rank, input.sizes().end());
  for (int64_t i = 0; i < rank; ++i)
    g.out.push_back(pooled_size(in_spatial[i], g.kernel[i], g.padding[i], g.stride[i], g.dilation[i], ceil_mode));
  for (int64_t o : g.out)
    if (o < 1)
      fail(ErrorCode::BadInput, c.where(), "Given input size: ", shape_to_string(in_spatial),
           ". Calculated output size: ", shape_to_string(g.out), ". Output size is too small");
  return g;
}

Dims3 input_dims3(const Tensor& input, int64_t rank) {
  return to_dims3(std::vector<int64_t>(input.sizes().end() - rank, input.sizes().end()), 1);
}

// ---- max pools ---------------------------------------------------------------------------

// Runs the max kernel over precomputed windows; pushes values (and int64 indices).
void run_max_pool(OpCall& c, const Tensor& input, int64_t rank, const Windows& win, const std::vector<int64_t>& out,
                  bool with_indices, bool floating_only) {
  const DType dtype = input.dtype();
  if (dtype == DType::Bool || (floating_only && !is_floating(dtype))) elementwise::fail_not_implemented_for(c, dtype);
  Tensor x = input.contiguous();
  Tensor values = Tensor::empty(dtype, with_spatial(input, rank, out));
  Tensor indices = with_indices ? Tensor::empty(DType::Int64, values.sizes()) : Tensor();
  const int64_t planes = plane_count(input, rank);
  const Dims3 isz = input_dims3(input, rank);
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same<T, bool>::value)
      max_pool_kernel<T>(x.data<T>(), values.data<T>(), with_indices ? indices.data<int64_t>() : nullptr, planes,
                         isz, win);
  });
  c.push(values);
  if (with_indices) c.push(indices);
}

// max_poolNd[_with_indices](self, kernel_size, stride=[], padding=0, dilation=1, ceil_mode=False)
// The 2-d float32 values-only case whose windows all lie inside the input
// (kernels/pool/max_pool2d.h); false when it does not apply.
bool try_max_pool2d_f32(OpCall& c, const Tensor& input, const PoolGeometry& g) {
  if (input.dtype() != DType::Float32) return false;
  for (int i = 0; i < 2; ++i)
    if (g.padding[i] != 0 || g.dilation[i] != 1) return false;
  MaxPool2dShape s;
  s.planes = plane_count(input, 2);
  s.in_h = input.size(-2);
  s.in_w = input.size(-1);
  s.out_h = g.out[0];
  s.out_w = g.out[1];
  s.kernel_h = g.kernel[0];
  s.kernel_w = g.kernel[1];
  s.stride_h = g.stride[0];
  s.stride_w = g.stride[1];
  if (!max_pool2d_windows_inside(s)) return false;
  Tensor x = input.contiguous();
  Tensor values = Tensor::empty(DType::Float32, with_spatial(input, 2, g.out));
  max_pool2d_f32(s, x.data<float>(), values.data<float>());
  c.push(values);
  return true;
}

template <int Rank, bool WithIndices>
void max_pool_op(OpCall& c) {
  const Tensor& input = c.tensor(0);
  const bool ceil_mode = c.bool_arg(5);
  PoolGeometry g = pool_geometry(c, input, Rank, 1, 2, 3, 4, ceil_mode);
  if constexpr (Rank == 2 && !WithIndices) {
    if (try_max_pool2d_f32(c, input, g)) return;
  }
  const Dims3 isz = input_dims3(input, Rank);
  const Dims3 k = to_dims3(g.kernel, 1), s = to_dims3(g.stride, 1), p = to_dims3(g.padding, 0),
              d = to_dims3(g.dilation, 1), o = to_dims3(g.out, 1);
  Windows win;
  for (int i = 0; i < 3; ++i) win[i] = max_windows(isz[i], o[i], k[i], s[i], p[i], d[i]);
  run_max_pool(c, input, Rank, win, g.out, WithIndices, false);
}

// ---- average pools --------------------------------------------------------------------

// avg_poolNd(self, kernel_size, stride=[], padding=0, ceil_mode=False,
//            count_include_pad=True[, divisor_override=None])
template <int Rank>
void avg_pool_op(OpCall& c) {
  const Tensor& input = c.tensor(0);
  const bool ceil_mode = c.bool_arg(4);
  const bool count_include_pad = c.bool_arg(5);
  std::optional<int64_t> divisor = Rank > 1 ? c.optional_int(6) : std::nullopt;
  if (divisor && *divisor == 0) fail(ErrorCode::BadInput, c.where(), "divisor must be not zero");
  PoolGeometry g = pool_geometry(c, input, Rank, 1, 2, 3, std::nullopt, ceil_mode);
  const Dims3 isz = input_dims3(input, Rank);
  const Dims3 k = to_dims3(g.kernel, 1), s = to_dims3(g.stride, 1), p = to_dims3(g.padding, 0),
              o = to_dims3(g.out, 1);
  Windows win;
  for (int i = 0; i < 3; ++i) win[i] = avg_windows(isz[i], o[i], k[i], s[i], p[i]);
  Tensor x = input.contiguous();
  Tensor out = Tensor::empty(input.dtype(), with_spatial(input, Rank, g.out));
  visit_float_or_long(c, input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = opmath_t<T>;
    sum_pool_kernel<T>(x.data<T>(), out.data<T>(), plane_count(input, Rank), isz, win,
                       [&](M sum, const Window& wd, const Window& wh, const Window& ww) {
                         int64_t factor;
                         if (divisor) factor = *divisor;
                         else if (count_include_pad) factor = wd.padded * wh.padded * ww.padded;
                         else factor = (wd.end - wd.begin) * (wh.end - wh.begin) * (ww.end - ww.begin);
                         return sum / static_cast<M>(factor);
                       });
  });
  c.push(out);
}

// ---- adaptive pools ------------------------------------------------------------------

Windows adaptive_geometry(const OpCall& c, const Tensor& input, int64_t rank, std::vector<int64_t>& out) {
  out = c.int_list(1);
  if (static_cast<int64_t>(out.size()) != rank)
    fail(ErrorCode::BadInput, c.where(), op_label(c), ": output_size must be ", rank);
  for (int64_t o : out)
    if (o < 0)
      fail(ErrorCode::BadInput, c.where(), op_label(c),
           ": elements of output_size must be greater than or equal to 0 but received ", shape_to_string(out));
  const int64_t dim = input.dim();
  if (dim != rank + 1 && dim != rank + 2)
    fail(ErrorCode::BadInput, c.where(), op_label(c), "(): Expected ", rank + 1, "D or ", rank + 2,
         "D tensor, but got ", shape_to_string(input.sizes()));
  for (int64_t d = dim == rank + 2 ? 1 : 0; d < dim; ++d)
    if (input.size(d) == 0)
      fail(ErrorCode::BadInput, c.where(), op_label(c),
           "(): Expected input to have non-zero size for non-batch dimensions, but input has sizes ",
           shape_to_string(input.sizes()), " with dimension ", d, " being empty");
  // The result, and each dim's window table, must fit before either is built.
  Shape result = input.sizes();
  for (int64_t i = 0; i < rank; ++i) {
    result[static_cast<size_t>(dim - rank + i)] = out[static_cast<size_t>(i)];
    storage_bytes(out[static_cast<size_t>(i)], DType::Int64);
  }
  storage_bytes(shape_numel(result), input.dtype());
  const Dims3 isz = input_dims3(input, rank), o = to_dims3(out, 1);
  Windows win;
  for (int i = 0; i < 3; ++i) win[i] = adaptive_windows(isz[i], o[i]);
  return win;
}

// adaptive_avg_poolNd(self, output_size): ATen divides the window sum by each
// window extent in turn (sum / kd / kh / kw).
template <int Rank>
void adaptive_avg_pool_op(OpCall& c) {
  const Tensor& input = c.tensor(0);
  std::vector<int64_t> out_size;
  Windows win = adaptive_geometry(c, input, Rank, out_size);
  Tensor x = input.contiguous();
  Tensor out = Tensor::empty(input.dtype(), with_spatial(input, Rank, out_size));
  visit_float_or_long(c, input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = opmath_t<T>;
    sum_pool_kernel<T>(x.data<T>(), out.data<T>(), plane_count(input, Rank), input_dims3(input, Rank), win,
                       [&](M sum, const Window& wd, const Window& wh, const Window& ww) {
                         M v = sum;
                         for (const Window* w : {&wd, &wh, &ww})
                           if (w->padded != 1) v = v / static_cast<M>(w->padded);
                         return v;
                       });
  });
  c.push(out);
}

// adaptive_max_poolNd(self, output_size) -> (values, indices)
template <int Rank>
void adaptive_max_pool_op(OpCall& c) {
  const Tensor& input = c.tensor(0);
  std::vector<int64_t> out_size;
  Windows win = adaptive_geometry(c, input, Rank, out_size);
  run_max_pool(c, input, Rank, win, out_size, true, true);
}

}  // namespace

void register_pooling_ops(OpTable& t) {
  t.add("aten::max_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=0, int[1] dilation=1, "
        "bool ceil_mode=False) -> Tensor",
        max_pool_op<1, false>);
  t.add("aten::max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, "
        "bool ceil_mode=False) -> Tensor",
        max_pool_op<2, false>);
  t.add("aten::max_pool3d(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, int[3] dilation=1, "
        "bool ceil_mode=False) -> Tensor",
        max_pool_op<3, false>);
  t.add("aten::max_pool1d_with_indices(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=0, "
        "int[1] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)",
        max_pool_op<1, true>);
  t.add("aten::max_pool2d_with_indices(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, "
        "int[2] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)",
        max_pool_op<2, true>);
  t.add("aten::max_pool3d_with_indices(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, "
        "int[3] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)",
        max_pool_op<3, true>);
  t.add("aten::avg_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=0, "
        "bool ceil_mode=False, bool count_include_pad=True) -> Tensor",
        avg_pool_op<1>);
  t.add("aten::avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, "
        "bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor",
        avg_pool_op<2>);
  t.add("aten::avg_pool3d(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, "
        "bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor",
        avg_pool_op<3>);
  t.add("aten::adaptive_avg_pool1d(Tensor self, int[1] output_size) -> Tensor", adaptive_avg_pool_op<1>);
  t.add("aten::adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor", adaptive_avg_pool_op<2>);
  t.add("aten::_adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor", adaptive_avg_pool_op<2>);
  t.add("aten::adaptive_avg_pool3d(Tensor self, SymInt[3] output_size) -> Tensor", adaptive_avg_pool_op<3>);
  t.add("aten::_adaptive_avg_pool3d(Tensor self, SymInt[3] output_size) -> Tensor", adaptive_avg_pool_op<3>);
  t.add("aten::adaptive_max_pool1d(Tensor self, int[1] output_size) -> (Tensor, Tensor)", adaptive_max_pool_op<1>);
  t.add("aten::adaptive_max_pool2d(Tensor self, int[2] output_size) -> (Tensor, Tensor)", adaptive_max_pool_op<2>);
  t.add("aten::adaptive_max_pool3d(Tensor self, int[3] output_size) -> (Tensor, Tensor)", adaptive_max_pool_op<3>);
}

}  // namespace pt2web
