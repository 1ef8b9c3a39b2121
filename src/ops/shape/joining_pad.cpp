// Padding: constant_pad_nd, pad (constant/reflect/replicate/circular),
// reflection_pad{1,2,3}d, replication_pad{1,2,3}d and _pad_circular.
//
// The pad list works from the last dimension backwards: (left, right) of the
// last dim, then of the one before, ... Negative amounts crop. Every mode is
// a gather: each result position along a padded dim reads one input position
// (or the fill value), so all modes share pad_by_mode.
#include <algorithm>

#include "ops/shape/shape.h"
#include "ops/op_utils.h"
#include "ops/shape_indexing.h"
#include "tensor/storage_size.h"

namespace pt2web {

namespace {

enum class PadMode { Constant, Reflect, Replicate, Circular };

const char* mode_name(PadMode m) {
  switch (m) {
    case PadMode::Constant: return "constant";
    case PadMode::Reflect: return "reflect";
    case PadMode::Replicate: return "replicate";
    case PadMode::Circular: return "circular";
  }
  return "?";
}

// The input position that result position `out` reads along a dim of `size`
// padded by (left, right); -1 means the fill value. Reflect and replicate
// mirror or clamp at the input's own borders even when the other side is
// cropped; circular wraps within what is left after cropping (ATen builds
// it by copying from the cropped centre).
int64_t source_position(PadMode mode, int64_t out, int64_t left, int64_t right, int64_t size) {
  int64_t p = out - left;
  switch (mode) {
    case PadMode::Constant: return p >= 0 && p < size ? p : -1;
    case PadMode::Reflect:
      if (p < 0) p = -p;
      if (p > size - 1) p = 2 * (size - 1) - p;
      return p;
    case PadMode::Replicate: return std::min(std::max<int64_t>(p, 0), size - 1);
    case PadMode::Circular: {
      int64_t crop_start = std::max<int64_t>(-left, 0);
      int64_t kept = size - crop_start - std::max<int64_t>(-right, 0);
      int64_t q = out - std::max<int64_t>(left, 0);
      return crop_start + ((q % kept) + kept) % kept;
    }
  }
  return -1;
}

// size + left + right. Pads beyond +-2^62 are refused, so that no position
// arithmetic on them (out - left, -left) can overflow int64.
int64_t padded_size(const OpCall& c, int64_t size, int64_t left, int64_t right) {
  constexpr int64_t kLargestPad = int64_t(1) << 62;
  int64_t out = 0;
  if (left > kLargestPad || left < -kLargestPad || right > kLargestPad || right < -kLargestPad ||
      __builtin_add_overflow(size, left, &out) || __builtin_add_overflow(out, right, &out))
    fail(ErrorCode::BadInput, c.where(), "padding (", left, ", ", right, ") of a dimension of size ", size,
         " is past what a size can hold");
  return out;
}

// The padded result's shape, its bytes checked before any index map is built.
Shape padded_shape(const OpCall& c, const Tensor& x, const std::vector<int64_t>& pad) {
  Shape out = x.sizes();
  for (size_t k = 0; k < pad.size() / 2 && k < out.size(); ++k) {
    const size_t d = out.size() - 1 - k;
    out[d] = std::max<int64_t>(padded_size(c, out[d], pad[2 * k], pad[2 * k + 1]), 0);
  }
  storage_bytes(shape_numel(out), x.dtype());
  return out;
}

Tensor pad_by_mode(const OpCall& c, const Tensor& x, const std::vector<int64_t>& pad, PadMode mode,
                   const Tensor& fill) {
  const Shape out = padded_shape(c, x, pad);
  if (shape_numel(out) == 0) return Tensor::empty(x.dtype(), out);
  std::vector<std::vector<int64_t>> maps;
  for (int64_t s : x.sizes()) maps.push_back(identity_map(s));
  for (size_t k = 0; k < pad.size() / 2; ++k) {
    int64_t d = x.dim() - 1 - static_cast<int64_t>(k);
    int64_t size = x.sizes()[d], left = pad[2 * k], right = pad[2 * k + 1];
    std::vector<int64_t>& map = maps[d];
    map.assign(static_cast<size_t>(std::max<int64_t>(size + left + right, 0)), 0);
    for (size_t o = 0; o < map.size(); ++o) map[o] = source_position(mode, static_cast<int64_t>(o), left, right, size);
  }
  return gather_by_dim_maps(x, maps, fill);
}

Tensor constant_pad(const OpCall& c, const Tensor& x, const std::vector<int64_t>& pad, const Scalar& value) {
  if (pad.size() % 2 != 0)
    fail(ErrorCode::BadInput, c.where(), "Length of pad must be even but instead it equals ", pad.size());
  if (static_cast<int64_t>(pad.size() / 2) > x.dim())
    fail(ErrorCode::BadInput, c.where(), "Length of pad should be no more than twice the number of dimensions of the "
         "input. Pad length is ", pad.size(), " while the input has ", x.dim(), " dimensions.");
  for (size_t k = 0; k < pad.size() / 2; ++k) {
    int64_t d = x.dim() - 1 - static_cast<int64_t>(k);
    if (padded_size(c, x.sizes()[d], pad[2 * k], pad[2 * k + 1]) < 0)
      fail(ErrorCode::BadInput, c.where(), "The input size ", x.sizes()[d], ", plus negative padding ", pad[2 * k],
           " and ", pad[2 * k + 1], " resulted in a negative output size, which is invalid. Check dimension ", d,
           " of your input.");
  }
  return pad_by_mode(c, x, pad, PadMode::Constant, checked_scalar_tensor(value, x.dtype(), c.where()));
}

// reflection/replication/circular padding of the last `n` dims of an
// (n+1)-d or batched (n+2)-d input, with ATen's checks.
Tensor edge_pad(const OpCall& c, const Tensor& x, const std::vector<int64_t>& pad, PadMode mode) {
  const int64_t n = static_cast<int64_t>(pad.size() / 2);
  bool rank_ok = x.dim() == n + 1 || x.dim() == n + 2;
  if (mode == PadMode::Circular) {
    if (!rank_ok)
      fail(ErrorCode::BadInput, c.where(), "Invalid padding size, expected 1 or 2 non-padded dimensions, which would be "
           "equivalent to padding of length ", (x.dim() - 1) * 2, " or ", (x.dim() - 2) * 2, " respectively but got ",
           pad.size());
  } else {
    for (int64_t d = 1; rank_ok && d < x.dim(); ++d) rank_ok = x.sizes()[d] != 0;
    if (!rank_ok)
      fail(ErrorCode::BadInput, c.where(), "Expected ", n + 1, "D or ", n + 2, "D (batch mode) tensor with possibly 0 "
           "batch size and other non-zero dimensions for input, but got: ", shape_to_string(x.sizes()));
  }
  for (int64_t k = 0; k < n; ++k) {
    int64_t d = x.dim() - 1 - k;
    int64_t size = x.sizes()[d], left = pad[2 * k], right = pad[2 * k + 1];
    const int64_t padded = padded_size(c, size, left, right);
    if (mode == PadMode::Reflect && (left >= size || right >= size))
      fail(ErrorCode::BadInput, c.where(), "Padding size should be less than the corresponding input dimension, but "
           "got: padding (", left, ", ", right, ") at dimension ", d, " of input ", shape_to_string(x.sizes()));
    int64_t kept = size - std::max<int64_t>(-left, 0) - std::max<int64_t>(-right, 0);
    if (mode == PadMode::Circular && (left > size || right > size || (kept <= 0 && (left > 0 || right > 0))))
      fail(ErrorCode::BadInput, c.where(), "Padding value causes wrapping around more than once.");
    if (mode == PadMode::Circular && padded < 0)
      fail(ErrorCode::BadInput, c.where(), "Negative padding value is resulting in an empty dimension");
    if (mode != PadMode::Circular && padded < 1)
      fail(ErrorCode::BadInput, c.where(), "input (", shape_to_string(x.sizes()), ") is too small. Calculated output ",
           "size at dimension ", d, ": ", padded);
  }
  return pad_by_mode(c, x, pad, mode, Tensor());
}

template <PadMode Mode>
void edge_pad_op(OpCall& c) { c.push(edge_pad(c, c.tensor(0), c.int_list(1), Mode)); }

void constant_pad_nd_op(OpCall& c) { c.push(constant_pad(c, c.tensor(0), c.int_list(1), c.scalar(2))); }

// aten::pad: dispatches on the mode string as ATen's _pad_enum does.
void pad_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  std::vector<int64_t> pad = c.int_list(1);
  std::string mode_text = c.string_arg(2);
  std::optional<double> value = c.optional_double(3);
  if (pad.size() % 2 != 0) fail(ErrorCode::BadInput, c.where(), "Padding length must be divisible by 2");
  if (static_cast<int64_t>(pad.size()) > 2 * x.dim())
    fail(ErrorCode::BadInput, c.where(), "Padding length should be less than or equal to two times the input dimension "
         "but got padding length ", pad.size(), " and input of dimension ", x.dim());
  PadMode mode;
  if (mode_text == "constant") mode = PadMode::Constant;
  else if (mode_text == "reflect") mode = PadMode::Reflect;
  else if (mode_text == "replicate") mode = PadMode::Replicate;
  else if (mode_text == "circular") mode = PadMode::Circular;
  else fail(ErrorCode::BadInput, c.where(), "Unrecognised padding mode ", mode_text);
  if (mode == PadMode::Constant) {
    Scalar fill;
    fill.kind = Scalar::Kind::Double;
    fill.d = value.value_or(0.0);
    fill.i = convert_element<int64_t>(fill.d);  // NaN and out-of-range values saturate, not UB
    c.push(constant_pad(c, x, pad, fill));
    return;
  }
  if (value && *value != 0.0)
    fail(ErrorCode::BadInput, c.where(), "Padding mode \"", mode_name(mode), "\" doesn't take in value argument");
  size_t n = pad.size() / 2;
  if (n < 1 || n > 3 || (x.dim() != static_cast<int64_t>(n) + 1 && x.dim() != static_cast<int64_t>(n) + 2))
    fail(ErrorCode::BadInput, c.where(), "Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now");
  c.push(edge_pad(c, x, pad, mode));
}

}  // namespace

void register_joining_pad_ops(OpTable& t) {
  t.add("aten::constant_pad_nd(Tensor self, SymInt[] pad, Scalar value=0) -> Tensor", constant_pad_nd_op);
  t.add("aten::pad(Tensor self, SymInt[] pad, str mode=\"constant\", float? value=None) -> Tensor", pad_op);
  t.add("aten::reflection_pad1d(Tensor self, SymInt[2] padding) -> Tensor", edge_pad_op<PadMode::Reflect>);
  t.add("aten::reflection_pad2d(Tensor self, SymInt[4] padding) -> Tensor", edge_pad_op<PadMode::Reflect>);
  t.add("aten::reflection_pad3d(Tensor self, SymInt[6] padding) -> Tensor", edge_pad_op<PadMode::Reflect>);
  t.add("aten::replication_pad1d(Tensor self, SymInt[2] padding) -> Tensor", edge_pad_op<PadMode::Replicate>);
  t.add("aten::replication_pad2d(Tensor self, SymInt[4] padding) -> Tensor", edge_pad_op<PadMode::Replicate>);
  t.add("aten::replication_pad3d(Tensor self, SymInt[6] padding) -> Tensor", edge_pad_op<PadMode::Replicate>);
  t.add("aten::_pad_circular(Tensor self, SymInt[] pad) -> Tensor", edge_pad_op<PadMode::Circular>);
}

}  // namespace pt2web
