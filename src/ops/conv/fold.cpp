// im2col (F.unfold) and col2im (F.fold): sliding 2-d blocks of an image as
// columns, and the sum of such columns back into an image.
//
// A column row c_col = (channel * kh + i) * kw + j holds kernel tap (i, j)
// of `channel` at every block position (ATen's im2col.h layout). col2im
// accumulates overlapping taps in the element type itself, in ATen's loop
// order, so float16/bfloat16 round after each addition as torch's do; bool
// accumulates as logical or.
#include <string>

#include "ops/elementwise.h"
#include "ops/conv/conv.h"
#include "ops/op_utils.h"

namespace pt2web {

namespace {

// The four int[2] arguments of a fold op, validated.
struct BlockGeometry {
  int64_t kh, kw, dh, dw, ph, pw, sh, sw;
};

// An int[2] argument (int_list already repeats a single int).
std::vector<int64_t> pair_arg(const OpCall& c, size_t index) {
  std::vector<int64_t> v = c.int_list(index);
  if (v.size() != 2)
    fail(ErrorCode::BadInput, c.where(), "It is expected ", c.arg_name(index), " equals to 2, but got size ",
         v.size());
  return v;
}

// kernel_size, dilation, padding, stride starting at argument `first`, with
// ATen's positivity checks (in its order: kernel, then `stride_first` decides
// whether stride comes before dilation as in col2im's check, or after padding
// as in im2col's).
BlockGeometry block_geometry(const OpCall& c, size_t first, bool stride_first) {
  const auto k = pair_arg(c, first), d = pair_arg(c, first + 1), p = pair_arg(c, first + 2),
             s = pair_arg(c, first + 3);
  BlockGeometry g{k[0], k[1], d[0], d[1], p[0], p[1], s[0], s[1]};
  auto check_stride = [&] {
    if (g.sw <= 0 || g.sh <= 0)
      fail(ErrorCode::BadInput, c.where(), "stride should be greater than zero, but got stride_height: ", g.sh,
           " stride_width: ", g.sw);
  };
  if (g.kw <= 0 || g.kh <= 0)
    fail(ErrorCode::BadInput, c.where(), "kernel size should be greater than zero, but got kernel_height: ", g.kh,
         " kernel_width: ", g.kw);
  if (stride_first) check_stride();
  if (g.dw <= 0 || g.dh <= 0)
    fail(ErrorCode::BadInput, c.where(), "dilation should be greater than zero, but got dilation_height: ", g.dh,
         " dilation_width: ", g.dw);
  if (g.pw < 0 || g.ph < 0)
    fail(ErrorCode::BadInput, c.where(), "padding should be non-negative, but got pad_height: ", g.ph,
         " pad_width: ", g.pw);
  if (!stride_first) check_stride();
  return g;
}

// Floor division (ATen's div_rtn) for the block counts.
int64_t div_floor(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

// Number of block positions along one dim of an image of `size`.
int64_t block_count(int64_t size, int64_t k, int64_t d, int64_t p, int64_t s) {
  return div_floor(size + 2 * p - (d * (k - 1) + 1), s) + 1;
}

// ATen's dtype set for both ops: floating types and bool.
void check_fold_dtype(const OpCall& c, DType dtype, const char* kernel_name) {
  if (!is_floating(dtype) && dtype != DType::Bool)
    elementwise::fail_not_implemented_for(c, kernel_name, dtype);
}

// Adds b into a in T's own arithmetic (bool: or; 16-bit floats: rounded sum).
template <typename T>
T accumulate(T a, T b) {
  if constexpr (std::is_same<T, bool>::value) return a || b;
  else return T(static_cast<opmath_t<T>>(a) + static_cast<opmath_t<T>>(b));
}

// Walks every (column row, block row, block col) whose image position lies
// inside the image: f(column offset, image offset), both contiguous.
template <typename F>
void for_each_tap(int64_t channels, int64_t height, int64_t width, int64_t blocks_h, int64_t blocks_w,
                  const BlockGeometry& g, F&& f) {
  const int64_t rows = channels * g.kh * g.kw;
  for (int64_t c_col = 0; c_col < rows; ++c_col) {
    const int64_t j = c_col % g.kw, i = (c_col / g.kw) % g.kh, c_im = c_col / g.kh / g.kw;
    for (int64_t bh = 0; bh < blocks_h; ++bh) {
      const int64_t y = bh * g.sh - g.ph + i * g.dh;
      for (int64_t bw = 0; bw < blocks_w; ++bw) {
        const int64_t x = bw * g.sw - g.pw + j * g.dw;
        if (y >= 0 && y < height && x >= 0 && x < width)
          f((c_col * blocks_h + bh) * blocks_w + bw, (c_im * height + y) * width + x);
      }
    }
  }
}

// aten::im2col: [N,] C, H, W -> [N,] C*kh*kw, L; padding taps are zero.
void im2col_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  const BlockGeometry g = block_geometry(c, 1, false);
  const int64_t ndim = self.dim();
  const bool valid = (ndim == 3 || ndim == 4) && self.size(ndim - 3 + 1) != 0 && self.size(ndim - 1) != 0 &&
                     (ndim == 4 ? self.size(1) != 0 : self.size(0) != 0);
  if (!valid)
    fail(ErrorCode::BadInput, c.where(),
         "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, "
         "but got: ",
         shape_to_string(self.sizes()));
  check_fold_dtype(c, self.dtype(), "im2col_out_cpu");
  const bool batched = ndim == 4;
  const int64_t N = batched ? self.size(0) : 1;
  const int64_t C = self.size(-3), H = self.size(-2), W = self.size(-1);
  const int64_t bh = block_count(H, g.kh, g.dh, g.ph, g.sh), bw = block_count(W, g.kw, g.dw, g.pw, g.sw);
  if (bh < 1 || bw < 1)
    fail(ErrorCode::BadInput, c.where(), "Given input with spatial size (", H, ", ", W, "), kernel_size=(", g.kh,
         ", ", g.kw, "), dilation=(", g.dh, ", ", g.dw, "), padding=(", g.ph, ", ", g.pw,
         "), calculated shape of the array of sliding blocks as (", bh, ", ", bw,
         "), but its components must be at least one.");
  const Tensor in = self.contiguous();
  const int64_t rows = C * g.kh * g.kw, length = bh * bw;
  Tensor out = Tensor::empty(self.dtype(), batched ? Shape{N, rows, length} : Shape{rows, length});
  visit_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (int64_t n = 0; n < N; ++n) {
      const T* image = in.data<T>() + n * C * H * W;
      T* cols = out.data<T>() + n * rows * length;
      for_each_tap(C, H, W, bh, bw, g, [&](int64_t col, int64_t pix) { cols[col] = image[pix]; });
    }
  });
  c.push(out);
}

// ATen's col2im_shape_check for input [N,] C*kh*kw, L and the image size.
void check_col2im_shape(const OpCall& c, const Tensor& self, int64_t out_h, int64_t out_w, const BlockGeometry& g,
                        int64_t bh, int64_t bw) {
  const int64_t ndim = self.dim();
  const bool valid = (ndim == 2 && self.size(0) != 0 && self.size(1) != 0) ||
                     (ndim == 3 && self.size(1) != 0 && self.size(2) != 0);
  if (!valid)
    fail(ErrorCode::BadInput, c.where(),
         "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero dimensions for "
         "input, but got: ",
         shape_to_string(self.sizes()));
  const int64_t planes = self.size(-2), length = self.size(-1);
  if (planes % (g.kw * g.kh) != 0)
    fail(ErrorCode::BadInput, c.where(),
         "Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got "
         "input.size(1)=",
         planes, " and kernel_size=(", g.kh, ", ", g.kw, ").");
  const std::string given = "Given output_size=(" + std::to_string(out_h) + ", " + std::to_string(out_w) +
                            "), kernel_size=(" + std::to_string(g.kh) + ", " + std::to_string(g.kw) +
                            "), dilation=(" + std::to_string(g.dh) + ", " + std::to_string(g.dw) + "), padding=(" +
                            std::to_string(g.ph) + ", " + std::to_string(g.pw) + "), stride=(" +
                            std::to_string(g.sh) + ", " + std::to_string(g.sw) + "), ";
  if (length != bh * bw)
    fail(ErrorCode::BadInput, c.where(), given,
         "expected size of input's dimension 2 to match the calculated number of sliding blocks ", bh, " * ", bw,
         " = ", bh * bw, ", but got input.size(2)=", length, ".");
  if (bh < 1 || bw < 1)
    fail(ErrorCode::BadInput, c.where(), given, "calculated shape of the array of sliding blocks as (", bh, ", ", bw,
         "), which is too small (non-positive)");
  if (out_w < 1 || out_h < 1)
    fail(ErrorCode::BadInput, c.where(), "Expected output spatial size to be positive, but got: output_size=(",
         out_h, ", ", out_w, ").");
}

// aten::col2im: [N,] C*kh*kw, L -> [N,] C, H, W, summing overlapping taps.
void col2im_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  const std::vector<int64_t> size = pair_arg(c, 1);
  const BlockGeometry g = block_geometry(c, 2, true);
  const int64_t out_h = size[0], out_w = size[1];
  const int64_t bh = block_count(out_h, g.kh, g.dh, g.ph, g.sh), bw = block_count(out_w, g.kw, g.dw, g.pw, g.sw);
  check_col2im_shape(c, self, out_h, out_w, g, bh, bw);
  check_fold_dtype(c, self.dtype(), "col2im_out_cpu");
  const bool batched = self.dim() == 3;
  const int64_t N = batched ? self.size(0) : 1;
  const int64_t C = self.size(-2) / (g.kh * g.kw), length = self.size(-1);
  const Tensor in = self.contiguous();
  Tensor out = Tensor::empty(self.dtype(), batched ? Shape{N, C, out_h, out_w} : Shape{C, out_h, out_w});
  visit_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (int64_t n = 0; n < N; ++n) {
      const T* cols = in.data<T>() + n * C * g.kh * g.kw * length;
      T* image = out.data<T>() + n * C * out_h * out_w;
      for_each_tap(C, out_h, out_w, bh, bw, g,
                   [&](int64_t col, int64_t pix) { image[pix] = accumulate(image[pix], cols[col]); });
    }
  });
  c.push(out);
}

}  // namespace

void register_fold_ops(OpTable& t) {
  t.add("aten::im2col(Tensor self, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] stride) -> Tensor",
        im2col_op);
  t.add("aten::col2im(Tensor self, SymInt[2] output_size, int[2] kernel_size, int[2] dilation, int[2] padding, "
        "int[2] stride) -> Tensor",
        col2im_op);
}

}  // namespace pt2web
