// torchvision::deform_conv2d: a 2-d convolution whose taps read the input at
// learned fractional offsets, optionally scaled by a learned mask
// (deformable convolution v1/v2). Each image's deformable column matrix
// (kernels/roi/deformable_im2col.h) is multiplied by each weight group's
// matrix, then the bias is added, as torchvision's CPU kernel does.
#include <vector>

#include "kernels/gemm/typed_gemm.h"
#include "kernels/roi/deformable_im2col.h"
#include "ops/torchvision/torchvision.h"

namespace pt2web {

namespace {

enum Arg : size_t { kInput, kWeight, kOffset, kMask, kBias, kStrideH };

void require(const OpCall& c, bool ok, size_t arg, const std::string& what) {
  if (!ok) fail(ErrorCode::BadInput, c.where(), "argument '", c.arg_name(arg), "' ", what);
}

std::string shape_of(const Tensor& t) { return ", got shape " + shape_to_string(t.sizes()); }

struct DeformGeometry {
  Im2colShape im;
  int64_t batch = 0, out_channels = 0, groups = 1, offset_groups = 1;
  bool use_mask = false;
};

// torchvision's checks, each naming the argument at fault.
DeformGeometry read_geometry(const OpCall& c) {
  const Tensor &input = c.tensor(kInput), &weight = c.tensor(kWeight), &offset = c.tensor(kOffset);
  const Tensor &mask = c.tensor(kMask), &bias = c.tensor(kBias);
  DeformGeometry g;
  g.use_mask = c.bool_arg(13);
  require(c, input.dim() == 4, kInput, "must be a 4-d tensor [batch, channels, height, width]" + shape_of(input));
  require(c, weight.dim() == 4, kWeight,
          "must be a 4-d tensor [out_channels, channels / groups, kernel_h, kernel_w]" + shape_of(weight));
  require(c, offset.dim() == 4, kOffset, "must be a 4-d tensor" + shape_of(offset));
  require(c, !g.use_mask || mask.dim() == 4, kMask, "must be a 4-d tensor when use_mask is true" + shape_of(mask));
  for (size_t i : {kInput, kWeight, kOffset, kBias})
    if (i == kInput) check_roi_dtype(c, i, c.tensor(i).dtype(), true);
    else require(c, c.tensor(i).dtype() == input.dtype(), i, "must have the dtype of 'input'");
  require(c, !g.use_mask || mask.dtype() == input.dtype(), kMask, "must have the dtype of 'input'");
  Im2colShape& s = g.im;
  g.batch = input.sizes()[0];
  s.channels = input.sizes()[1];
  s.in_h = input.sizes()[2];
  s.in_w = input.sizes()[3];
  g.out_channels = weight.sizes()[0];
  s.kernel_h = weight.sizes()[2];
  s.kernel_w = weight.sizes()[3];
  // The integer arguments, in schema order from stride_h.
  int64_t* const integers[] = {&s.stride_h, &s.stride_w,   &s.pad_h,  &s.pad_w,
                               &s.dilation_h, &s.dilation_w, &g.groups, &g.offset_groups};
  for (size_t i = 0; i < 8; ++i) *integers[i] = c.int_arg(kStrideH + i);
  require(c, s.kernel_h > 0 && s.kernel_w > 0, kWeight, "must have a non-empty kernel" + shape_of(weight));
  if (s.stride_h <= 0 || s.stride_w <= 0 || s.pad_h < 0 || s.pad_w < 0 || s.dilation_h <= 0 || s.dilation_w <= 0)
    fail(ErrorCode::BadInput, c.where(), "stride (", s.stride_h, ", ", s.stride_w, ") and dilation (", s.dilation_h,
         ", ", s.dilation_w, ") must be positive and padding (", s.pad_h, ", ", s.pad_w, ") non-negative");
  if (g.groups <= 0 || g.offset_groups <= 0)
    fail(ErrorCode::BadInput, c.where(), "arguments 'groups' (", g.groups, ") and 'offset_groups' (", g.offset_groups,
         ") must be positive");
  require(c, weight.sizes()[1] * g.groups == s.channels && g.out_channels % g.groups == 0, kWeight,
          "must have channels / groups = " + std::to_string(s.channels) + " / " + std::to_string(g.groups) +
              " input channels and a multiple of groups output channels" + shape_of(weight));
  require(c, s.channels % g.offset_groups == 0, kInput,
          "has " + std::to_string(s.channels) + " channels, not a multiple of offset_groups " +
              std::to_string(g.offset_groups));
  s.out_h = (s.in_h + 2 * s.pad_h - (s.dilation_h * (s.kernel_h - 1) + 1)) / s.stride_h + 1;
  s.out_w = (s.in_w + 2 * s.pad_w - (s.dilation_w * (s.kernel_w - 1) + 1)) / s.stride_w + 1;
  if (s.out_h <= 0 || s.out_w <= 0)
    fail(ErrorCode::BadInput, c.where(), "the computed output size ", s.out_h, " x ", s.out_w, " is too small");
  const int64_t taps = s.kernel_h * s.kernel_w;
  const Shape want_offset = {g.batch, g.offset_groups * 2 * taps, s.out_h, s.out_w};
  require(c, offset.sizes() == want_offset, kOffset,
          "must have shape " + shape_to_string(want_offset) +
              " (batch, offset_groups * 2 * kernel_h * kernel_w, output height, output width)" + shape_of(offset));
  const Shape want_mask = {g.batch, g.offset_groups * taps, s.out_h, s.out_w};
  require(c, !g.use_mask || mask.sizes() == want_mask, kMask,
          "must have shape " + shape_to_string(want_mask) +
              " (batch, offset_groups * kernel_h * kernel_w, output height, output width)" + shape_of(mask));
  require(c, bias.numel() == g.out_channels, kBias,
          "must hold one value per output channel (" + std::to_string(g.out_channels) + ")" + shape_of(bias));
  return g;
}

void deform_conv2d_op(OpCall& c) {
  const DeformGeometry g = read_geometry(c);
  const Im2colShape& s = g.im;
  const Tensor input = c.tensor(kInput).contiguous(), weight = c.tensor(kWeight).contiguous();
  const Tensor offset = c.tensor(kOffset).contiguous(), bias = c.tensor(kBias).contiguous();
  const Tensor mask = g.use_mask ? c.tensor(kMask).contiguous() : Tensor();
  Tensor out = Tensor::empty(input.dtype(), {g.batch, g.out_channels, s.out_h, s.out_w});
  const int64_t taps = s.kernel_h * s.kernel_w, plane = s.out_h * s.out_w;
  const int64_t rows = s.channels / g.groups * taps, group_out = g.out_channels / g.groups;
  visit_roi_dtype(input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::vector<T> cols(static_cast<size_t>(s.channels * taps * plane));
    for (int64_t b = 0; b < g.batch; ++b) {
      deformable_im2col<T>(s, g.offset_groups, input.data<T>() + b * s.channels * s.in_h * s.in_w,
                           offset.data<T>() + b * g.offset_groups * 2 * taps * plane,
                           g.use_mask ? mask.data<T>() + b * g.offset_groups * taps * plane : nullptr, cols.data());
      T* image_out = out.data<T>() + b * g.out_channels * plane;
      for (int64_t gi = 0; gi < g.groups; ++gi)
        attention_family::gemm<T>(group_out, plane, rows, weight.data<T>() + gi * group_out * rows, rows,
                                  cols.data() + gi * rows * plane, plane, image_out + gi * group_out * plane, plane,
                                  false);
      for (int64_t o = 0; o < g.out_channels; ++o)
        for (int64_t i = 0; i < plane; ++i) image_out[o * plane + i] += bias.data<T>()[o];
    }
  });
  c.push(out);
}

}  // namespace

void register_deform_conv2d_ops(OpTable& t) {
  t.add("torchvision::deform_conv2d(Tensor input, Tensor weight, Tensor offset, Tensor mask, Tensor bias, SymInt "
        "stride_h, SymInt stride_w, SymInt pad_h, SymInt pad_w, SymInt dilation_h, SymInt dilation_w, SymInt groups, "
        "SymInt offset_groups, bool use_mask) -> Tensor",
        deform_conv2d_op);
}

}  // namespace pt2web
