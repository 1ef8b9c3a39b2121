// The torch.fft functions as ATen defines them (SpectralOps.cpp): argument
// canonicalization (n / s, dim, norm), dtype promotion, input resizing, then
// the primitives of fft_primitives.cpp. fft, ifft, rfft, irfft, hfft, ihfft
// and their 2-d and n-d variants.
#include <algorithm>
#include <numeric>
#include <optional>
#include <string>

#include "ops/complex/complex.h"
#include "ops/op_call.h"
#include "ops/op_utils.h"
#include "ops/spectral/spectral.h"

namespace pt2web {

namespace {

// ATen's norm_from_string: what "backward" / "forward" / "ortho" (None is
// "backward") mean for a transform in the given direction.
FftNorm norm_from_string(const OpCall& c, const std::optional<std::string>& norm, bool forward) {
  if (!norm || *norm == "backward") return forward ? FftNorm::None : FftNorm::ByN;
  if (*norm == "forward") return forward ? FftNorm::ByN : FftNorm::None;
  if (*norm == "ortho") return FftNorm::ByRootN;
  fail(ErrorCode::BadInput, c.where(), "Invalid normalization mode: \"", *norm, "\"");
}

// ATen's promote_tensor_fft: integers and bool compute in float32; complex
// is required for the c2c / c2r paths.
Tensor promote_fft_input(const OpCall& c, const Tensor& x, bool require_complex) {
  DType dtype = x.dtype();
  if (!is_complex(dtype)) {
    if (!is_floating(dtype)) dtype = DType::Float32;
    if (dtype != DType::Float32 && dtype != DType::Float64)
      fail(ErrorCode::Unsupported, c.where(), "Unsupported dtype ", dtype_name(dtype));
    if (require_complex) dtype = real_to_complex_dtype(dtype);
  }
  return dtype == x.dtype() ? x : x.to(dtype);
}

int64_t wrap_fft_dim(const OpCall& c, int64_t dim, int64_t rank) {
  if (rank == 0) fail(ErrorCode::BadInput, c.where(), "Dimension specified as ", dim, " but tensor has no dimensions");
  return wrap_dim(dim, rank);
}

void check_points(const OpCall& c, int64_t n) {
  if (n < 1) fail(ErrorCode::BadInput, c.where(), "Invalid number of data points (", n, ") specified");
}

// The six transforms, by how each maps to the primitives.
enum class Kind { Fft, Ifft, Rfft, Irfft, Hfft, Ihfft };

constexpr bool is_forward(Kind k) { return k == Kind::Fft || k == Kind::Rfft || k == Kind::Hfft; }
constexpr bool is_c2r(Kind k) { return k == Kind::Irfft || k == Kind::Hfft; }

// One 1-d transform: fft_fft(self, n, dim, norm) and the others.
template <Kind K>
void fft_1d_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  std::optional<int64_t> n_opt = c.optional_int(1);
  const int64_t dim = wrap_fft_dim(c, c.int_arg(2), self.dim());
  const FftNorm norm = norm_from_string(c, c.optional_string(3), is_forward(K));
  if constexpr (is_c2r(K)) {
    Tensor x = promote_fft_input(c, self, true);
    const int64_t n = n_opt.value_or(2 * (x.sizes()[dim] - 1));
    check_points(c, n);
    if (n_opt) x = resize_fft_input(x, {dim}, {n / 2 + 1});
    if (K == Kind::Hfft) x = conjugate(x);
    c.push(fft_c2r(x, {dim}, norm, n));
    return;
  }
  const bool complex_path = (K == Kind::Fft || K == Kind::Ifft) && is_complex(self.dtype());
  if ((K == Kind::Rfft || K == Kind::Ihfft) && is_complex(self.dtype()))
    fail(ErrorCode::BadInput, c.where(), "expects a real input tensor, but got ", dtype_name(self.dtype()));
  Tensor x = promote_fft_input(c, self, false);
  const int64_t n = n_opt.value_or(x.sizes()[dim]);
  check_points(c, n);
  if (n_opt) x = resize_fft_input(x, {dim}, {n});
  if (complex_path) {
    c.push(fft_c2c(x, {dim}, norm, is_forward(K)));
    return;
  }
  const bool onesided = K == Kind::Rfft || K == Kind::Ihfft;
  Tensor out = fft_r2c(x, {dim}, norm, onesided);
  c.push(is_forward(K) ? out : conjugate(out));
}

struct ShapeAndDims {
  std::vector<int64_t> shape, dims;
};

// ATen's canonicalize_fft_shape_and_dim_args.
ShapeAndDims canonical_shape_and_dims(const OpCall& c, const Tensor& x, const std::optional<std::vector<int64_t>>& s,
                                      const std::optional<std::vector<int64_t>>& dim) {
  ShapeAndDims r;
  const int64_t rank = x.dim();
  if (dim) {
    for (int64_t d : *dim) r.dims.push_back(wrap_fft_dim(c, d, rank));
    std::vector<int64_t> sorted = r.dims;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
      fail(ErrorCode::BadInput, c.where(), "FFT dims must be unique");
  }
  if (s) {
    if (dim && dim->size() != s->size())
      fail(ErrorCode::BadInput, c.where(), "When given, dim and shape arguments must have the same length");
    const int64_t ndim = static_cast<int64_t>(s->size());
    if (ndim > rank)
      fail(ErrorCode::BadInput, c.where(), "Got shape with ", ndim, " values but input tensor only has ", rank,
           " dimensions.");
    if (!dim) {
      r.dims.resize(static_cast<size_t>(ndim));
      std::iota(r.dims.begin(), r.dims.end(), rank - ndim);
    }
    for (int64_t i = 0; i < ndim; ++i) r.shape.push_back((*s)[i] == -1 ? x.sizes()[r.dims[i]] : (*s)[i]);
  } else if (!dim) {
    r.shape = x.sizes();
    r.dims.resize(static_cast<size_t>(rank));
    std::iota(r.dims.begin(), r.dims.end(), 0);
  } else {
    for (int64_t d : r.dims) r.shape.push_back(x.sizes()[d]);
  }
  for (int64_t n : r.shape) check_points(c, n);
  return r;
}

void require_axes(const OpCall& c, const ShapeAndDims& desc) {
  if (desc.shape.empty()) fail(ErrorCode::BadInput, c.where(), "must transform at least one axis");
}

// One n-d transform: fft_fftn(self, s, dim, norm) and the others; the 2-d
// variants have dim=[-2,-1] by default in their schemas.
template <Kind K>
void fft_nd_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  const std::optional<std::vector<int64_t>> s = c.optional_int_list(1), dim = c.optional_int_list(2);
  const std::optional<std::string> norm_str = c.optional_string(3);
  ShapeAndDims desc = canonical_shape_and_dims(c, self, s, dim);
  const FftNorm norm = norm_from_string(c, norm_str, is_forward(K));
  if constexpr (is_c2r(K)) {
    require_axes(c, desc);
    const int64_t last_dim_size =
        (!s || s->back() == -1) ? 2 * (self.sizes()[desc.dims.back()] - 1) : desc.shape.back();
    check_points(c, last_dim_size);
    desc.shape.back() = last_dim_size / 2 + 1;
    Tensor x = resize_fft_input(promote_fft_input(c, self, true), desc.dims, desc.shape);
    if (K == Kind::Hfft) {
      std::vector<int64_t> leading(desc.dims.begin(), desc.dims.end() - 1);
      if (!leading.empty()) x = fft_c2c(x, leading, norm, true);
      c.push(fft_c2r(conjugate(x), {desc.dims.back()}, norm, last_dim_size));
    } else {
      c.push(fft_c2r(x, desc.dims, norm, last_dim_size));
    }
    return;
  }
  if constexpr (K == Kind::Fft || K == Kind::Ifft) {
    Tensor x = resize_fft_input(promote_fft_input(c, self, true), desc.dims, desc.shape);
    c.push(fft_c2c(x, desc.dims, norm, is_forward(K)));
    return;
  }
  if (is_complex(self.dtype()))
    fail(ErrorCode::BadInput, c.where(), "expects a real-valued input tensor, but got ", dtype_name(self.dtype()));
  require_axes(c, desc);
  Tensor x = resize_fft_input(promote_fft_input(c, self, false), desc.dims, desc.shape);
  if (K == Kind::Rfft) {
    c.push(fft_r2c(x, desc.dims, norm, true));
    return;
  }
  // ihfftn: a onesided r2c over the last dim, conjugated, then inverse c2c over the others.
  Tensor half = conjugate(fft_r2c(x, {desc.dims.back()}, norm, true));
  std::vector<int64_t> leading(desc.dims.begin(), desc.dims.end() - 1);
  c.push(leading.empty() ? half : fft_c2c(half, leading, norm, false));
}

struct Entry {
  const char* name;
  void (*one_d)(OpCall&);
  void (*two_d)(OpCall&);
  void (*n_d)(OpCall&);
};

constexpr Entry kTransforms[] = {
    {"fft", fft_1d_op<Kind::Fft>, fft_nd_op<Kind::Fft>, fft_nd_op<Kind::Fft>},
    {"ifft", fft_1d_op<Kind::Ifft>, fft_nd_op<Kind::Ifft>, fft_nd_op<Kind::Ifft>},
    {"rfft", fft_1d_op<Kind::Rfft>, fft_nd_op<Kind::Rfft>, fft_nd_op<Kind::Rfft>},
    {"irfft", fft_1d_op<Kind::Irfft>, fft_nd_op<Kind::Irfft>, fft_nd_op<Kind::Irfft>},
    {"hfft", fft_1d_op<Kind::Hfft>, fft_nd_op<Kind::Hfft>, fft_nd_op<Kind::Hfft>},
    {"ihfft", fft_1d_op<Kind::Ihfft>, fft_nd_op<Kind::Ihfft>, fft_nd_op<Kind::Ihfft>},
};

}  // namespace

void register_fft_function_ops(OpTable& t) {
  for (const Entry& e : kTransforms) {
    const std::string base = std::string("aten::fft_") + e.name;
    t.add(base + "(Tensor self, SymInt? n=None, int dim=-1, str? norm=None) -> Tensor", e.one_d);
    t.add(base + "2(Tensor self, SymInt[1]? s=None, int[1] dim=[-2, -1], str? norm=None) -> Tensor", e.two_d);
    t.add(base + "n(Tensor self, SymInt[1]? s=None, int[1]? dim=None, str? norm=None) -> Tensor", e.n_d);
  }
}

}  // namespace pt2web
