// Nearest and (bi/tri)linear upsampling as torch/_decomp writes them, for
// static spatial sizes: the input is cast to its compute dtype (float32
// for halves; a copy even when it is already that), each output axis gets
// source indices from an arange, the input is gathered with index.Tensor,
// and the result is cast back. Linear modes gather the 2^n corners and
// blend them innermost axis first (v0 + (v1 - v0) * t).
#include <cmath>
#include <optional>

#include "passes/decomposition_table.h"
#include "passes/decompositions/composites.h"
#include "passes/tensor_meta_rules.h"

namespace pt2web {

namespace {

DType compute_dtype(DType d) { return d == DType::Float16 || d == DType::BFloat16 ? DType::Float32 : d; }

std::string cast(GraphBuilder& b, const std::string& x, DType dtype) {
  return b.emit1("aten._to_copy.default", {tensor_arg(x)}, with_dtype(contiguous_meta(dtype, b.meta(x).sizes), dtype),
                 {{"dtype", dtype_arg(dtype)}});
}

std::string pointwise(GraphBuilder& b, const char* op, const std::vector<Argument>& args, const TensorMeta& like) {
  return b.emit1(op, args, contiguous_meta(like.dtype, like.sizes));
}

// The output sizes and per-axis scale factors (as given, or absent).
struct Resize {
  std::vector<int64_t> in, out;
  std::vector<std::optional<double>> scales;
};

// upsample_compute_output_size: output_size as given, or floor(in * scale).
bool resize_of(const Node& node, const TensorMeta& x, Resize& r) {
  size_t spatial = x.sizes.size() - 2;
  for (size_t i = 2; i < x.sizes.size(); ++i) {
    if (x.sizes[i].is_symbolic) return false;
    r.in.push_back(x.sizes[i].value);
  }
  const Argument* size = node_input(node, "output_size");
  const Argument* factors = node_input(node, "scale_factors");
  if (size && size->kind == Argument::Kind::Ints) {
    r.out = size->ints;
    r.scales.assign(spatial, std::nullopt);
  } else if (factors && factors->kind == Argument::Kind::Floats) {
    for (size_t i = 0; i < spatial; ++i) {
      double f = factors->floats.at(i);
      r.out.push_back(static_cast<int64_t>(std::floor(static_cast<double>(r.in[i]) * f)));
      r.scales.push_back(f);
    }
  } else {
    return false;
  }
  return r.out.size() == spatial;
}

// Gathers x at one index tensor per spatial axis (broadcast against each other).
std::string gather(GraphBuilder& b, const std::string& x, const std::vector<std::string>& axes, const Resize& r) {
  const TensorMeta& m = b.meta(x);
  Argument indices;
  indices.kind = Argument::Kind::OptionalTensors;
  indices.names = {"", ""};
  indices.names.insert(indices.names.end(), axes.begin(), axes.end());
  std::vector<SymInt> sizes = {m.sizes[0], m.sizes[1]};
  for (int64_t o : r.out) sizes.push_back(sym_const(o));
  return b.emit1("aten.index.Tensor", {tensor_arg(x), indices}, contiguous_meta(m.dtype, sizes));
}

// An index tensor of `length` entries shaped [length, 1, ...] with `trailing` ones.
std::vector<SymInt> axis_shape(int64_t length, size_t trailing) {
  std::vector<SymInt> s = {sym_const(length)};
  for (size_t i = 0; i < trailing; ++i) s.push_back(sym_const(1));
  return s;
}

// What both modes start from: the input, its sizes resized, and the input
// cast to the compute dtype (emitted only once the node is known to decompose).
struct ResizeInput {
  std::string x;
  TensorMeta meta;
  Resize r;
  DType dtype = DType::Float32;
  std::string input;  // x in the compute dtype
};

std::optional<ResizeInput> resize_input(GraphBuilder& b, const Node& node, bool floating_only) {
  ResizeInput in;
  in.x = input_tensor(b, node, "input");
  in.meta = b.meta(in.x);
  if (in.meta.sizes.size() < 3 || !resize_of(node, in.meta, in.r)) return std::nullopt;
  if (floating_only && !(is_floating(in.meta.dtype) && element_size(in.meta.dtype) >= 2)) return std::nullopt;
  in.dtype = compute_dtype(in.meta.dtype);
  in.input = cast(b, in.x, in.dtype);
  return in;
}

bool nearest(GraphBuilder& b, const Node& node) {
  auto in = resize_input(b, node, false);
  if (!in) return false;
  const TensorMeta& xm = in->meta;
  const Resize& r = in->r;
  const std::string& input = in->input;
  size_t n = r.out.size();
  std::vector<std::string> axes;
  for (size_t d = 0; d < n; ++d) {
    double scale = r.scales[d] ? static_cast<double>(r.in[d]) / (static_cast<double>(r.in[d]) * *r.scales[d])
                               : static_cast<double>(r.in[d]) / static_cast<double>(r.out[d]);
    TensorMeta f32 = contiguous_meta(DType::Float32, {sym_const(r.out[d])});
    std::string i = b.emit1("aten.arange.start_step", {int_arg(0), int_arg(r.out[d])}, f32,
                            {{"dtype", dtype_arg(DType::Float32)}, {"layout", layout_strided_arg()},
                             {"device", device_cpu_arg()}, {"pin_memory", bool_arg(false)}});
    i = pointwise(b, "aten.add.Tensor", {tensor_arg(i), float_arg(0.0)}, f32);
    i = pointwise(b, "aten.mul.Tensor", {tensor_arg(i), float_arg(scale)}, f32);
    i = cast(b, i, DType::Int64);
    for (size_t k = 0; k + 1 + d < n; ++k)
      i = b.emit1("aten.unsqueeze.default", {tensor_arg(i), int_arg(-1)}, unsqueezed_meta(b.meta(i), -1));
    axes.push_back(i);
  }
  bind_outputs(b, node, {cast(b, gather(b, input, axes, r), xm.dtype)});
  return true;
}

bool linear_resize(GraphBuilder& b, const Node& node) {
  auto in = resize_input(b, node, true);
  if (!in) return false;
  const TensorMeta& xm = in->meta;
  const Resize& r = in->r;
  const DType dtype = in->dtype;
  const std::string& input = in->input;
  bool align = input_bool(node, "align_corners", false);
  size_t n = r.out.size();
  std::vector<std::string> pos, lo, hi;  // per axis: source position, floor, floor + 1 clamped
  for (size_t d = 0; d < n; ++d) {
    double in = static_cast<double>(r.in[d]), out = static_cast<double>(r.out[d]);
    double scale = align ? (r.out[d] > 1 ? (in - 1) / (out - 1) : 0.0)
                         : (r.scales[d] && *r.scales[d] > 0 ? 1.0 / *r.scales[d] : in / out);
    TensorMeta f = contiguous_meta(dtype, {sym_const(r.out[d])});
    std::string i = cast(b, emit_arange(b, 0, sym_const(r.out[d])), dtype);
    if (align) {
      i = pointwise(b, "aten.mul.Tensor", {tensor_arg(i), float_arg(scale)}, f);
    } else {
      i = pointwise(b, "aten.add.Tensor", {tensor_arg(i), float_arg(0.5)}, f);
      i = pointwise(b, "aten.mul.Tensor", {tensor_arg(i), float_arg(scale)}, f);
      i = pointwise(b, "aten.sub.Tensor", {tensor_arg(i), float_arg(0.5)}, f);
    }
    i = pointwise(b, "aten.clamp.default", {tensor_arg(i), float_arg(0.0)}, f);
    std::vector<SymInt> shape = axis_shape(r.out[d], n - 1 - d);
    i = b.emit1("aten.view.default", {tensor_arg(i), b.sym_ints_arg(shape)}, contiguous_meta(dtype, shape));
    std::string floor = cast(b, i, DType::Int64);
    TensorMeta im = contiguous_meta(DType::Int64, shape);
    std::string next = pointwise(b, "aten.add.Tensor", {tensor_arg(floor), int_arg(1)}, im);
    next = pointwise(b, "aten.clamp.default", {tensor_arg(next), none_arg(), int_arg(r.in[d] - 1)}, im);
    pos.push_back(i);
    lo.push_back(floor);
    hi.push_back(next);
  }
  std::vector<std::string> corners;
  for (size_t mask = 0; mask < (size_t{1} << n); ++mask) {
    std::vector<std::string> axes;
    for (size_t k = 0; k < n; ++k) axes.push_back((mask >> (n - 1 - k)) & 1 ? hi[k] : lo[k]);
    corners.push_back(gather(b, input, axes, r));
  }
  for (size_t k = n; k-- > 0;) {
    const TensorMeta& pm = b.meta(pos[k]);
    std::string t = pointwise(b, "aten.sub.Tensor", {tensor_arg(pos[k]), tensor_arg(lo[k])}, pm);
    t = pointwise(b, "aten.clamp.default", {tensor_arg(t), float_arg(0.0), float_arg(1.0)}, pm);
    t = cast(b, t, dtype);
    std::vector<std::string> blended;
    for (size_t j = 0; j + 1 < corners.size(); j += 2) {
      const TensorMeta cm = b.meta(corners[j]);
      std::string diff = pointwise(b, "aten.sub.Tensor", {tensor_arg(corners[j + 1]), tensor_arg(corners[j])}, cm);
      std::string step = pointwise(b, "aten.mul.Tensor", {tensor_arg(diff), tensor_arg(t)}, cm);
      blended.push_back(pointwise(b, "aten.add.Tensor", {tensor_arg(corners[j]), tensor_arg(step)}, cm));
    }
    corners = blended;
  }
  bind_outputs(b, node, {cast(b, corners[0], xm.dtype)});
  return true;
}

}  // namespace

void add_upsample_decompositions(DecompositionTable& t) {
  t["aten::upsample_nearest1d.vec"] = nearest;
  t["aten::upsample_nearest2d.vec"] = nearest;
  t["aten::upsample_nearest3d.vec"] = nearest;
  t["aten::upsample_linear1d.vec"] = linear_resize;
  t["aten::upsample_bilinear2d.vec"] = linear_resize;
  t["aten::upsample_trilinear3d.vec"] = linear_resize;
}

}  // namespace pt2web
