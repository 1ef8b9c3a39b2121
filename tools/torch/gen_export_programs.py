"""Programs written the way PyTorch's own test/export/test_export.py writes
them, exported by real torch in the fixture format (see tests/fixtures/README.md):
higher-order operators (while_loop, map, nested cond and cond over a
buffer, set_grad_enabled and autocast regions), namedtuple pytrees,
example inputs that pickle a user class, data-dependent sizes and symbolic
expressions with TruncToInt / ToFloat / FloorDiv, and complex numbers (RoPE
through polar/view_as_complex, an FFT audio front end, complex inputs and
outputs).

Run with torch 2.6 (the trixie chroot of ../shared/tools/README.md), with
../shared/tools/gen_fixtures.py importable (same folder or PYTHONPATH):
    python3 gen_export_programs.py OUTDIR [name ...]
"""
import dataclasses
import sys
from collections import namedtuple

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim

import gen_fixtures as gf

# The cases format carries complex tensors like the others: dtype "complex64"
# or "complex128", the logical shape, and the C-contiguous little-endian
# bytes, which for complex are (real, imaginary) pairs.
gf.DT.setdefault(torch.complex64, "complex64")
gf.DT.setdefault(torch.complex128, "complex128")

Point = namedtuple("Point", ["x", "y"])
torch.utils._pytree._register_namedtuple(Point, serialized_type_name="pt2web_tests.Point")


def R(*s):
    return torch.randn(*s)


class WhileLoop(nn.Module):
    """Doubles x until its sum passes a limit; the trip count depends on data."""
    def forward(self, x, limit):
        from torch._higher_order_ops.while_loop import while_loop

        def cond_fn(i, v):
            return v.sum() < limit.sum()

        def body_fn(i, v):
            return i + 1, v * 2
        return while_loop(cond_fn, body_fn, (torch.zeros((), dtype=torch.int64), x))


class MapOverRows(nn.Module):
    def forward(self, xs, y):
        from functorch.experimental.control_flow import map as cf_map

        def body(x, y):
            return x.sin() + y
        return cf_map(body, xs, y)


class NestedCond(nn.Module):
    def forward(self, x):
        def inner_true(x):
            return x.cos()

        def inner_false(x):
            return x.sin()

        def outer_true(x):
            return torch.cond(x.mean() > 0, inner_true, inner_false, (x,)) + 1

        def outer_false(x):
            return x - 1
        return torch.cond(x.sum() > 0, outer_true, outer_false, (x,))


class CondReadsBuffer(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("scale", torch.tensor([2.0, 3.0, 4.0]))

    def forward(self, x):
        def t(x):
            return x * self.scale

        def f(x):
            return x + self.scale
        return torch.cond(x.sum() > 0, t, f, (x,))


class GradRegions(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 3)

    def forward(self, x):
        with torch.no_grad():
            y = self.lin(x)
        with torch.enable_grad():
            z = y.relu() * 2
        return z


class AutocastRegion(nn.Module):
    def forward(self, x, w):
        with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
            y = x @ w
        return y.float() + 1


class NamedTupleIO(nn.Module):
    def forward(self, p: Point, scale):
        return Point(x=p.x * scale, y=p.y + p.x)


class ItemSizes(nn.Module):
    """A size read from a tensor's value (an unbacked symbol with runtime asserts)."""
    def forward(self, x, n):
        k = n.item()
        torch._check_is_size(k)
        torch._check(k <= x.shape[0])
        return x[:k] * 2, torch.zeros(k, 2)


class InterpolateScale(nn.Module):
    """interpolate with a scale factor on a dynamic size: sizes like TruncToInt(2.5*s0)."""
    def forward(self, x):
        return F.interpolate(x, scale_factor=2.5, mode="nearest")


class RotaryEmbedding(nn.Module):
    """RoPE as LLaMA writes it: frequencies through torch.polar, query pairs
    as complex numbers through view_as_complex, a complex multiply, then
    view_as_real back."""
    def __init__(self, dim=8, max_len=16):
        super().__init__()
        freqs = 1.0 / (10000 ** (torch.arange(0, dim, 2).float() / dim))
        angles = torch.outer(torch.arange(max_len).float(), freqs)
        self.register_buffer("angles", angles)

    def forward(self, x):
        n = x.shape[1]
        rot = torch.polar(torch.ones_like(self.angles[:n]), self.angles[:n])
        xc = torch.view_as_complex(x.float().reshape(*x.shape[:-1], -1, 2))
        return torch.view_as_real(xc * rot[:, None, :]).flatten(-2)


class SpectralFrontEnd(nn.Module):
    """An audio front end: a Hann-windowed STFT magnitude in decibels, and an
    rfft -> low-pass -> irfft filter of the same signal."""
    def forward(self, wave):
        window = torch.hann_window(64)
        spec = torch.stft(wave, n_fft=64, hop_length=16, window=window, return_complex=True)
        db = 10 * torch.log10(spec.abs() ** 2 + 1e-10)
        bins = torch.fft.rfft(wave)
        keep = torch.arange(bins.shape[-1]) < 20
        low = torch.fft.irfft(bins * keep, n=wave.shape[-1])
        return db, low


class ComplexInOut(nn.Module):
    """Complex inputs and outputs: arithmetic with a real tensor, conj,
    magnitude and angle, an inverse FFT."""
    def forward(self, z, x):
        w = z * x + z.conj()
        return w, w.abs(), torch.angle(z), torch.fft.ifft(z, norm="ortho"), torch.real(z) - torch.imag(z)


class DynamicArithmetic(nn.Module):
    def forward(self, x):
        n = x.shape[0]
        return x.reshape(n // 2, -1) * (n % 3), x.new_ones(max(n - 3, 1))


# Strides: torch's kernels choose their outputs' memory layout (attention
# writes (B, T, H, D) storage for a (B, H, T, D) result, elementwise results
# follow their input's dimension order, convolution keeps channels_last), and
# torch traced `view` (or `reshape` as a view) where that layout allowed it.
# pt2web must then find the same layout (docs/DECISIONS.md, "Strides like
# torch's").
class GPT2Block(nn.Module):
    """A GPT-2 block: causal scaled_dot_product_attention, heads merged back
    with transpose(1, 2).view(B, T, C), with or without .contiguous()."""
    def __init__(self, C=16, H=4, contiguous=False):
        super().__init__()
        self.H, self.contiguous = H, contiguous
        self.ln1, self.ln2 = nn.LayerNorm(C), nn.LayerNorm(C)
        self.c_attn, self.c_proj = nn.Linear(C, 3 * C), nn.Linear(C, C)
        self.fc, self.proj = nn.Linear(C, 4 * C), nn.Linear(4 * C, C)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.c_attn(self.ln1(x)).split(C, dim=2)
        q, k, v = (t.view(B, T, self.H, C // self.H).transpose(1, 2) for t in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True).transpose(1, 2)
        y = (y.contiguous() if self.contiguous else y).view(B, T, C)
        x = x + self.c_proj(y)
        return x + self.proj(F.gelu(self.fc(self.ln2(x)), approximate="tanh"))


class CrossAttention(nn.Module):
    """Queries from x, keys and values from a context of another length, an
    additive mask; heads merged with transpose(1, 2).reshape(B, T, C)."""
    def __init__(self, C=16, H=2):
        super().__init__()
        self.H = H
        self.q, self.kv, self.out = nn.Linear(C, C), nn.Linear(C, 2 * C), nn.Linear(C, C)

    def forward(self, x, context, mask):
        B, T, C = x.shape
        S = context.shape[1]
        q = self.q(x).view(B, T, self.H, -1).transpose(1, 2)
        k, v = self.kv(context).view(B, S, 2, self.H, -1).permute(2, 0, 3, 1, 4).unbind(0)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return self.out(y.transpose(1, 2).reshape(B, T, C))


class ElementwiseLayouts(nn.Module):
    """Elementwise results keep their input's dimension order (torch's
    TensorIterator), so permuting back gives a tensor that views freely;
    clone and dtype casts keep the layout too."""
    def forward(self, x, y):
        a = (x.permute(0, 2, 1) * 2 + 1).permute(0, 2, 1).view(x.shape[0], -1)
        b = torch.exp(x.transpose(1, 2)).transpose(1, 2).view(-1)
        c = x.transpose(0, 2).clone().transpose(0, 2).view(-1, x.shape[2])
        d = x.transpose(1, 2).to(torch.float64).transpose(1, 2).view(-1)
        e = (x.transpose(1, 2) + y.transpose(1, 2)).transpose(1, 2).view(-1)
        return a, b, c, d.float(), e


class ChannelsLastConv(nn.Module):
    """A channels_last convolution (its result stays channels_last) whose
    output is read as (B, H*W, C) tokens through permute + view."""
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)

    def forward(self, x):
        y = torch.relu(self.conv(x.contiguous(memory_format=torch.channels_last)))
        B, C, H, W = y.shape
        return y.permute(0, 2, 3, 1).view(B, H * W, C)


class TransposedOperands(nn.Module):
    """A matmul of transposed operands, an expand, layer_norm and softmax of
    transposed inputs, with reshapes that torch traced as views or copies
    after its own layouts."""
    def forward(self, a, b, x):
        m = (a.transpose(1, 2) @ b).reshape(-1)
        e = (x[:, :1].expand(-1, 4, -1) * x.transpose(1, 2)[:, :4, :5]).reshape(x.shape[0], -1)
        n = F.layer_norm(x.transpose(1, 2), (x.shape[1],)).transpose(1, 2).reshape(-1)
        s = torch.softmax(x.transpose(1, 2), dim=1).transpose(1, 2).reshape(x.shape[0], -1)
        return m, e, n, s


class AsStridedStorage(nn.Module):
    """as_strided reads storage in the order torch's kernel wrote it."""
    def forward(self, x):
        y = x.t() * 3
        return torch.as_strided(y, (2, 3), (1, 2)), y.view_as(y).t().reshape(-1)


class MutateThroughView(nn.Module):
    """An in-place write through a view of a permuted elementwise result
    (kept in-place in TRAINING IR): the write must land in the result."""
    def forward(self, x):
        y = x.transpose(0, 1) * 2
        y.transpose(0, 1).view(-1)[:3].add_(10)
        return y + 0


class ComplexOfPermuted(nn.Module):
    """view_as_complex needs the (real, imaginary) pairs adjacent: torch's
    product of a permuted input, permuted back, has them so."""
    def forward(self, x):
        return torch.view_as_complex((x.permute(0, 2, 1) * 2).permute(0, 2, 1)) * 3


def stride_models():
    M = {}
    tol = (1e-5, 1e-5)

    def gpt2(contiguous):
        def build():
            torch.manual_seed(3)
            m, x = GPT2Block(contiguous=contiguous).eval(), R(2, 5, 16)
            ds = None if contiguous else {"x": {1: Dim("T", min=2, max=32)}}
            cases = [("default", (x,), {}), ("other", (R(2, 5, 16),), {})]
            if not contiguous:
                cases.append(("t9", (R(2, 9, 16),), {}))
            return m, (x,), {}, ds, cases, (1e-4, 1e-5), \
                "a GPT-2 block: causal scaled_dot_product_attention, heads merged with transpose(1, 2)" + \
                (".contiguous().view (torch drops the contiguous: its layout already is)" if contiguous
                 else ".view on a dynamic length")
        return build
    M["stride_gpt2_sdpa"] = gpt2(False)
    M["stride_gpt2_sdpa_contiguous"] = gpt2(True)

    def cross():
        torch.manual_seed(4)
        args = (R(2, 3, 16), R(2, 7, 16), R(3, 7))
        return CrossAttention().eval(), args, {}, None, [
            ("default", args, {}), ("other", (R(2, 3, 16), R(2, 7, 16), R(3, 7)), {})], (1e-4, 1e-5), \
            "cross-attention: sdpa with an additive mask over a context of another length, heads merged by reshape"
    M["stride_cross_attention"] = cross

    def elementwise():
        args = (R(2, 3, 4), R(2, 3, 4))
        return ElementwiseLayouts(), args, {}, None, [("default", args, {}), ("other", (R(2, 3, 4), R(2, 3, 4)), {})], \
            tol, "elementwise results, clone and a cast of permuted inputs keep their layout; views of them"
    M["stride_elementwise_layouts"] = elementwise

    def conv():
        torch.manual_seed(5)
        x = R(2, 3, 5, 6)
        return ChannelsLastConv().eval(), (x,), {}, None, [("default", (x,), {}), ("other", (R(2, 3, 5, 6),), {})], \
            (1e-4, 1e-5), "a channels_last convolution read as tokens through permute + view"
    M["stride_channels_last_conv"] = conv

    def transposed():
        args = (R(2, 4, 3), R(2, 4, 5), R(2, 6, 5))
        return TransposedOperands(), args, {}, None, [
            ("default", args, {}), ("other", (R(2, 4, 3), R(2, 4, 5), R(2, 6, 5)), {})], (1e-4, 1e-5), \
            "matmul of a transposed operand, expand, layer_norm and softmax of transposed inputs, then reshapes"
    M["stride_transposed_operands"] = transposed

    def as_strided():
        x = R(3, 2)
        return AsStridedStorage(), (x,), {}, None, [("default", (x,), {}), ("other", (R(3, 2),), {})], tol, \
            "as_strided of an elementwise result of a transposed input reads torch's storage order"
    M["stride_as_strided"] = as_strided

    def mutate():
        x = R(3, 4)
        return MutateThroughView(), (x,), {}, None, [("default", (x,), {}), ("other", (R(3, 4),), {})], tol, \
            "an in-place add through a view of a permuted elementwise result"
    M["stride_mutate_through_view"] = mutate

    def complex_pairs():
        x = R(3, 5, 2)
        return ComplexOfPermuted(), (x,), {}, None, [("default", (x,), {}), ("other", (R(3, 5, 2),), {})], tol, \
            "view_as_complex of a product of a permuted input, permuted back"
    M["stride_view_as_complex"] = complex_pairs
    return M


# --- helper "archive": PT2-archive layouts (tests/unit/io/pt2_archive_layout_test.cpp
# converts archive_shared_storage to the torch 2.8+ layout, where views of one
# storage share a file) and dataclass pytrees ---

@dataclasses.dataclass
class Pair:
    a: torch.Tensor
    b: torch.Tensor
    note: object = None  # None here: the spec lists it among the None fields


@dataclasses.dataclass
class Summary:
    total: torch.Tensor
    diff: torch.Tensor


for _cls in (Pair, Summary):
    torch.export.register_dataclass(_cls, serialized_type_name="pt2web_tests." + _cls.__name__)
    # torch 2.6's ep.module() flattens inputs through torch.fx._pytree, which
    # needs its own flatten function for a registered class.
    torch.fx._pytree.register_pytree_flatten_spec(
        _cls, lambda obj, spec: [getattr(obj, name) for name in spec.context[0]])

_encode = gf.enc


def _encode_dataclass(v):
    """The cases format's encoding of a dataclass: its class name, fields and values."""
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        fields = [f.name for f in dataclasses.fields(v)]
        return {"dataclass": {"type": type(v).__name__, "fields": fields,
                              "values": [_encode(getattr(v, f)) for f in fields]}}
    return _encode(v)


gf.enc = _encode_dataclass


class DataclassIO(nn.Module):
    def forward(self, p: Pair, scale):
        return Summary(total=p.a + p.b * scale, diff=p.a - p.b)


class SharedStorage(nn.Module):
    """Weights that are views of one storage: an embedding tied to the output
    projection, buffers that slice (a storage offset) and transpose (strides)
    another buffer, a non-persistent buffer, and two tensor constants, one a
    view of the other."""
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 6)
        self.out = nn.Linear(6, 10, bias=False)
        self.out.weight = self.emb.weight
        base = torch.randn(4, 6)
        self.register_buffer("table", base)
        self.register_buffer("table_rows", base[1:3])
        self.register_buffer("table_t", base.t())
        self.register_buffer("scale", torch.rand(6) + 0.5, persistent=False)
        self.const = torch.randn(3, 6)
        self.const_tail = self.const[1:]

    def forward(self, idx):
        h = self.emb(idx) * self.scale + self.table_rows.sum(0) + self.table_t.sum(1)
        h = h + self.table.mean(0) + self.const.sum(0) - self.const_tail.mean(0)
        return self.out(h)


def archive_programs():
    tol = (1e-5, 1e-6)

    def ss():
        torch.manual_seed(3)
        idx = torch.tensor([[1, 4, 9], [0, 2, 2]])
        return SharedStorage(), (idx,), {}, None, [
            ("default", (idx,), {}), ("other", (torch.tensor([[7, 3, 5], [8, 6, 1]]),), {})], tol, \
            "tied weights and buffers and constants that are views of one storage (PT2-archive layout tests)"
    def dc():
        p = Pair(R(3), R(3))
        return DataclassIO(), (p, R(3)), {}, None, [
            ("default", (p, R(3)), {}), ("other", (Pair(R(3), R(3)), R(3)), {})], tol, \
            "a dataclass input and output (torch.export.register_dataclass); the example inputs pickle __main__.Pair"
    return {"archive_shared_storage": ss, "pytree_dataclass": dc}

# --- end of the PT2-archive block ---


def models():
    M = {}
    tol = (1e-5, 1e-6)

    def wl():
        x = torch.tensor([0.5, 0.25, 1.0])
        return WhileLoop(), (x, torch.tensor([20.0])), {}, None, [
            ("three_steps", (x, torch.tensor([20.0])), {}),
            ("no_step", (x, torch.tensor([0.5])), {}),
            ("many_steps", (torch.tensor([1e-3, 2e-3, 1e-3]), torch.tensor([100.0])), {})], tol, \
            "torch._higher_order_ops.while_loop with a data-dependent trip count and a carried counter"
    M["hop_while_loop"] = wl

    def mp():
        xs, y = R(4, 3), R(3)
        return MapOverRows(), (xs, y), {}, None, [("default", (xs, y), {}), ("other", (R(4, 3), R(3)), {})], tol, \
            "functorch control_flow.map over the rows of xs with a shared extra argument"
    M["hop_map"] = mp

    def nc():
        x = R(5)
        return NestedCond(), (x,), {}, None, [
            ("pos_pos", (torch.tensor([1.0, 2, 3, 4, 5]),), {}),
            ("neg", (torch.tensor([-1.0, -2, 3, -4, -5]),), {}),
            ("pos_mean_neg", (torch.tensor([5.0, -1, -1, -1, -1.5]),), {})], tol, "torch.cond inside a torch.cond branch"
    M["hop_nested_cond"] = nc

    def cb():
        return CondReadsBuffer(), (R(3),), {}, None, [
            ("pos", (torch.tensor([1.0, 2, 3]),), {}), ("neg", (torch.tensor([-1.0, -2, -3]),), {})], tol, \
            "torch.cond whose branches read a buffer (lifted into the branch operands)"
    M["hop_cond_buffer"] = cb

    def gr():
        torch.manual_seed(1)
        return GradRegions().eval(), (R(2, 4),), {}, None, [("default", (R(2, 4),), {})], tol, \
            "no_grad / enable_grad regions (wrap_with_set_grad_enabled in TRAINING IR)"
    M["hop_grad_regions"] = gr

    def ac():
        return AutocastRegion(), (R(3, 4), R(4, 2)), {}, None, [("default", (R(3, 4), R(4, 2)), {})], (2e-2, 2e-2), \
            "an autocast region to bfloat16 (wrap_with_autocast in TRAINING IR)"
    M["hop_autocast"] = ac

    def nt():
        p = Point(R(3), R(3))
        return NamedTupleIO(), (p, R(3)), {}, None, [
            ("default", (p, R(3)), {}),
            ("other", (Point(R(3), R(3)), R(3)), {})], tol, \
            "a namedtuple input and output; the archive's example inputs pickle __main__.Point"
    M["pytree_namedtuple"] = nt

    def it():
        x = R(6, 2)
        return ItemSizes(), (x, torch.tensor(4)), {}, None, [
            ("four", (x, torch.tensor(4)), {}), ("zero", (x, torch.tensor(0)), {}), ("six", (x, torch.tensor(6)), {}),
            ("too_many", (x, torch.tensor(7)), {}, True)], tol, \
            "item() feeding sizes: an unbacked symbol with torch._check runtime asserts"
    M["data_item_sizes"] = it

    # A dataclass pytree is left out: the cases format (gen_fixtures.enc) has
    # no encoding for dataclass values yet.

    def ip():
        x = R(1, 2, 4, 6)
        return InterpolateScale(), (x,), {}, {"x": {2: Dim("h", min=2, max=64), 3: Dim("w", min=2, max=64)}}, [
            ("4x6", (x,), {}), ("5x7", (R(1, 2, 5, 7),), {}), ("3x3", (R(1, 2, 3, 3),), {})], tol, \
            "F.interpolate with scale_factor 2.5 on dynamic sizes (TruncToInt, ToFloat, Float in size expressions)"
    M["sym_interpolate_scale"] = ip

    def da():
        x = R(8, 3)
        return DynamicArithmetic(), (x,), {}, {"x": {0: Dim("n", min=4, max=64) * 2}}, [
            ("8", (x,), {}), ("14", (R(14, 3),), {}), ("30", (R(30, 3),), {})], tol, \
            "floor division, modulo and max of a dynamic size"
    M["sym_arithmetic"] = da

    def rope():
        x = R(2, 6, 4, 8)
        return RotaryEmbedding(), (x,), {}, None, [("default", (x,), {}), ("other", (R(2, 6, 4, 8),), {})], tol, \
            "rotary position embedding through torch.polar, view_as_complex and a complex multiply"
    M["complex_rope"] = rope

    def sfe():
        w = R(2, 400)
        return SpectralFrontEnd(), (w,), {}, None, [("default", (w,), {}), ("other", (R(2, 400),), {})], \
            (1e-4, 1e-4), "stft with a Hann window in decibels, and an rfft low-pass filter back through irfft"
    M["complex_spectral_front_end"] = sfe

    def cio():
        def z(*s):
            return torch.complex(R(*s), R(*s))
        return ComplexInOut(), (z(3, 5), R(3, 5)), {}, None, [
            ("default", (z(3, 5), R(3, 5)), {}), ("other", (z(3, 5), R(3, 5)), {})], tol, \
            "complex64 inputs and outputs: arithmetic with a real tensor, conj, abs, angle, ifft"
    M["complex_io"] = cio
    M.update(stride_models())
    M.update(archive_programs())
    return M


# ---- torchvision operators (torchvision::roi_align, roi_pool, nms,
# ps_roi_align, ps_roi_pool, deform_conv2d). Importing torchvision registers
# its operators with torch; it must happen before export and before load.
import torchvision  # noqa: E402
from torchvision.ops import deform_conv2d as tv_deform_conv2d  # noqa: E402

tvops = torch.ops.torchvision


class RoiAlignBoth(nn.Module):
    """roi_align four ways: aligned or not, a fixed or an adaptive sampling
    ratio, two spatial scales."""
    def forward(self, x, rois):
        return (tvops.roi_align(x, rois, 0.5, 3, 3, 2, False),
                tvops.roi_align(x, rois, 0.5, 2, 4, -1, True),
                tvops.roi_align(x, rois, 1.0, 4, 2, 0, False),
                tvops.roi_align(x, rois, 0.25, 2, 2, 3, True))


class RoiPoolBoth(nn.Module):
    """roi_pool's (output, argmax) at two scales and pooled sizes."""
    def forward(self, x, rois):
        a, ia = tvops.roi_pool(x, rois, 0.5, 3, 3)
        b, ib = tvops.roi_pool(x, rois, 1.0, 2, 4)
        return a, ia, b, ib


class PsRoiAlignBoth(nn.Module):
    """ps_roi_align's (output, channel_mapping): 3x3 bins on 18 channels with
    a fixed and an adaptive sampling ratio, and 2x2 bins."""
    def forward(self, x, rois):
        a, ma = tvops.ps_roi_align(x, rois, 0.5, 3, 3, 2)
        b, mb = tvops.ps_roi_align(x, rois, 1.0, 3, 3, -1)
        c, mc = tvops.ps_roi_align(x[:, :8], rois, 0.5, 2, 2, 0)
        return a, ma, b, mb, c, mc


class PsRoiPoolBoth(nn.Module):
    def forward(self, x, rois):
        a, ma = tvops.ps_roi_pool(x, rois, 0.5, 3, 3)
        b, mb = tvops.ps_roi_pool(x[:, :8], rois, 1.0, 2, 2)
        return a, ma, b, mb


class NmsKeep(nn.Module):
    """nms at two IoU thresholds; the number of kept boxes depends on data.
    torchvision's fake nms declares at least two kept boxes, so the exported
    program asserts that at run time: cases keeping one box are errors in
    torch too."""
    def forward(self, boxes, scores):
        return tvops.nms(boxes, scores, 0.5), tvops.nms(boxes, scores, 0.2)


class DeformConv(nn.Module):
    """deform_conv2d with a mask, two weight groups and two offset groups;
    then without a mask or bias, strided and dilated."""
    def __init__(self):
        super().__init__()
        torch.manual_seed(3)
        self.w1 = nn.Parameter(torch.randn(6, 2, 3, 3) * 0.3)
        self.b1 = nn.Parameter(torch.randn(6))
        self.w2 = nn.Parameter(torch.randn(5, 4, 2, 2) * 0.3)

    def forward(self, x, off1, mask1, off2):
        y1 = tv_deform_conv2d(x, off1, self.w1, self.b1, padding=(1, 1), mask=mask1)
        y2 = tv_deform_conv2d(x, off2, self.w2, None, stride=(2, 1), padding=(0, 1), dilation=(2, 2))
        return y1, y2


class TinyDetector(nn.Module):
    """A detection head in miniature: a conv backbone at stride 2, roi_align
    of the proposals on its features, flatten, linear class scores and box
    deltas; proposals scoring under 0.2 are dropped (a data-dependent
    count) and nms keeps the rest."""
    def __init__(self):
        super().__init__()
        torch.manual_seed(4)
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
                                      nn.Conv2d(8, 8, 3, stride=2, padding=1), nn.ReLU())
        self.head = nn.Linear(8 * 4 * 4, 16)
        self.cls = nn.Linear(16, 3)
        self.box = nn.Linear(16, 4)

    def forward(self, images, rois):
        feats = self.backbone(images)
        pooled = torchvision.ops.roi_align(feats, rois, (4, 4), spatial_scale=0.5, sampling_ratio=2, aligned=True)
        h = F.relu(self.head(pooled.flatten(1)))
        logits = self.cls(h)
        boxes = rois[:, 1:] + self.box(h)
        scores = logits.softmax(-1)[:, 1]
        keep = scores > 0.2
        kept = torchvision.ops.nms(boxes[keep], scores[keep], 0.6)
        return logits, boxes, kept


class MultiScalePooler(nn.Module):
    """torchvision's MultiScaleRoIAlign (the FPN pooler of Faster R-CNN):
    each box goes to the feature level its size picks (data-dependent
    where/index/index_put around roi_align)."""
    def __init__(self):
        super().__init__()
        self.pool = torchvision.ops.MultiScaleRoIAlign(["0", "1"], 3, 2)

    def forward(self, f0, f1, boxes0, boxes1):
        return self.pool({"0": f0, "1": f1}, [boxes0, boxes1], [(64, 64), (64, 64)])


class AllInFloat64(nn.Module):
    """Every torchvision operator on float64 inputs."""
    def forward(self, x, rois, boxes, scores, offset, weight):
        a = tvops.roi_align(x, rois, 0.5, 2, 3, -1, True)
        p, ia = tvops.roi_pool(x, rois, 0.5, 2, 2)
        pa, ma = tvops.ps_roi_align(x, rois, 0.5, 2, 2, 2)
        pp, mp = tvops.ps_roi_pool(x, rois, 0.5, 2, 2)
        keep = tvops.nms(boxes, scores, 0.3)
        d = tv_deform_conv2d(x, offset, weight, padding=(1, 1))
        return a, p, ia, pa, ma, pp, mp, keep, d


def _rois(rows):
    return torch.tensor(rows, dtype=torch.float32)


def torchvision_models():
    M = {}
    tol = (1e-5, 1e-6)
    k = Dim("k", min=1, max=64)

    # Several rois per image, rois partly or wholly outside the 8x10 map,
    # one with negative coordinates, degenerate (x2 < x1, zero-size) rois.
    rois_a = _rois([[0, 1.0, 1.0, 9.0, 7.0], [1, 0.0, 0.0, 19.0, 15.0], [0, -4.0, -3.0, 6.0, 5.0],
                    [1, 14.0, 10.0, 30.0, 24.0], [0, 5.0, 5.0, 5.0, 5.0], [1, 8.0, 6.0, 3.0, 2.0]])
    rois_b = _rois([[1, 2.5, 1.25, 11.75, 9.5], [0, -30.0, -30.0, -20.0, -20.0], [1, 0.3, 0.6, 2.2, 1.7]])
    rois_c = _rois([[0, 0.0, 0.0, 40.0, 32.0]])

    def roi_program(module, channels, with_big_roi, desc):
        def build():
            x = R(2, channels, 8, 10)
            cases = [("six_rois", (x, rois_a), {}), ("three_rois", (R(2, channels, 8, 10), rois_b), {})]
            if with_big_roi:
                cases.append(("one_big_roi", (x, rois_c), {}))
            return module(), (x, rois_a), {}, {"x": None, "rois": {0: k}}, cases, tol, desc
        return build

    M["tv_roi_align"] = roi_program(
        RoiAlignBoth, 3, True,
        "torchvision::roi_align aligned and not, fixed and adaptive sampling ratios, rois outside the image")
    M["tv_roi_pool"] = roi_program(
        RoiPoolBoth, 3, True, "torchvision::roi_pool (output and int32 argmax) with rois partly outside the image")
    M["tv_ps_roi_align"] = roi_program(
        PsRoiAlignBoth, 18, False,
        "torchvision::ps_roi_align (output and channel_mapping), fixed and adaptive sampling ratios")
    M["tv_ps_roi_pool"] = roi_program(PsRoiPoolBoth, 18, False, "torchvision::ps_roi_pool (output and channel_mapping)")

    def nm():
        n = Dim("n", min=1, max=256)
        g = torch.Generator().manual_seed(5)

        def boxes(count, spread):
            xy = torch.rand(count, 2, generator=g) * spread
            wh = torch.rand(count, 2, generator=g) * 6 + 1
            return torch.cat([xy, xy + wh], 1)
        b0, s0 = boxes(12, 10), torch.rand(12, generator=g)
        # Ties: equal scores, and identical boxes with equal scores.
        bt = torch.cat([boxes(6, 8), boxes(1, 1).repeat(3, 1)])
        st = torch.tensor([0.5, 0.9, 0.5, 0.2, 0.9, 0.5, 0.7, 0.7, 0.7])
        # Every box but the best overlaps it: all the others are suppressed.
        ba = torch.tensor([[0.0, 0, 10, 10], [0.5, 0.5, 10, 10], [0, 0, 9.5, 9.5], [1, 1, 10, 10.5]])
        sa = torch.tensor([0.3, 0.8, 0.6, 0.1])
        return NmsKeep(), (b0, s0), {}, {"boxes": {0: n}, "scores": {0: n}}, [
            ("twelve", (b0, s0), {}), ("ties", (bt, st), {}), ("all_suppressed", (ba, sa), {}),
            ("one_box", (ba[:1], sa[:1]), {}), ("many", (boxes(200, 40), torch.rand(200, generator=g)), {})], tol, \
            ("torchvision::nms: a data-dependent number of kept boxes, ties; all but one suppressed (torch's program"
             " asserts at least two kept boxes, from torchvision's fake nms)")
    M["tv_nms"] = nm

    def dc():
        torch.manual_seed(6)
        x = R(2, 4, 7, 7)
        off1 = R(2, 2 * 2 * 9, 7, 7) * 2
        mask1 = torch.rand(2, 2 * 9, 7, 7)
        # stride (2, 1), padding (0, 1), dilation 2, 2x2 kernel: output 3x7.
        off2 = R(2, 2 * 1 * 4, 3, 7) * 3
        return DeformConv().eval(), (x, off1, mask1, off2), {}, None, [
            ("default", (x, off1, mask1, off2), {}),
            ("other", (R(2, 4, 7, 7), R(2, 36, 7, 7) * 4, torch.rand(2, 18, 7, 7), R(2, 8, 3, 7)), {})], \
            (1e-4, 1e-5), "torchvision::deform_conv2d with a mask and two offset groups, and strided, dilated, no mask"
    M["tv_deform_conv2d"] = dc

    def msr():
        f0, f1 = R(2, 4, 16, 16), R(2, 4, 8, 8)
        b0 = torch.tensor([[0.0, 0, 10, 10], [5, 5, 60, 60], [2, 3, 30, 20]])
        b1 = torch.tensor([[1.0, 1, 50, 40], [0, 0, 8, 8]])
        small = torch.tensor([[0.0, 0, 6, 6], [3, 3, 9, 12], [1, 2, 5, 4]])
        large = torch.tensor([[0.0, 0, 63, 63], [10, 5, 60, 50]])
        return MultiScalePooler(), (f0, f1, b0, b1), {}, None, [
            ("mixed_levels", (f0, f1, b0, b1), {}),
            ("all_on_level_0", (R(2, 4, 16, 16), R(2, 4, 8, 8), small, small[:2]), {}),
            ("all_on_level_1", (f0, f1, large.repeat(2, 1)[:3], large), {})], tol, \
            "torchvision.ops.MultiScaleRoIAlign: boxes assigned to feature levels by size, roi_align per level"
    M["tv_multiscale_roi_align"] = msr

    def f64():
        def inputs():
            x = torch.randn(2, 8, 8, 10, dtype=torch.float64)
            g = torch.Generator().manual_seed(7)
            xy = torch.rand(10, 2, generator=g, dtype=torch.float64) * 8
            boxes = torch.cat([xy, xy + torch.rand(10, 2, generator=g, dtype=torch.float64) * 5 + 1], 1)
            scores = torch.rand(10, generator=g, dtype=torch.float64)
            offset = torch.randn(2, 18, 8, 10, dtype=torch.float64) * 2
            weight = torch.randn(3, 8, 3, 3, dtype=torch.float64) * 0.2
            return x, rois_a.double(), boxes, scores, offset, weight
        first = inputs()
        return AllInFloat64(), first, {}, None, [("default", first, {}), ("other", inputs(), {})], (1e-7, 1e-9), \
            "every torchvision operator on float64 inputs"
    M["tv_float64"] = f64

    def det():
        imgs = R(2, 3, 16, 16)
        rois = _rois([[0, 1, 1, 9, 9], [0, 2, 2, 10, 10], [1, 4, 0, 15, 12], [1, 5, 1, 15, 13],
                      [0, 8, 8, 16, 16], [1, -2, -2, 6, 6]])
        return TinyDetector().eval(), (imgs, rois), {}, {"images": None, "rois": {0: k}}, [
            ("six_proposals", (imgs, rois), {}),
            ("other_images", (R(2, 3, 16, 16) * 3, rois), {}),
            ("two_proposals", (imgs, rois[:2]), {})], (1e-4, 1e-5), \
            "a tiny detector: conv backbone, roi_align, flatten, linear scores; nms on the proposals that pass a score threshold"
    M["tv_detection"] = det
    return M


# Programs that torch 2.6 cannot run once read back from its own file (a
# reloaded while_loop gets its carried inputs as a list and rejects them):
# their expected values come from the exported program itself, before saving.
RUN_BEFORE_SAVING = {"hop_while_loop"}


class _ResultsBeforeSaving:
    """Within this block torch.export.load returns the program that was
    saved to that path in the same block, instead of reading the file."""
    def __enter__(self):
        self.saved, self.save, self.load = {}, torch.export.save, torch.export.load

        def save(ep, path, *a, **k):
            self.saved[path] = ep
            return self.save(ep, path, *a, **k)
        torch.export.save = save
        torch.export.load = lambda path, *a, **k: self.saved[path]
        return self

    def __exit__(self, *exc):
        torch.export.save, torch.export.load = self.save, self.load


def export_training_only(name, builder, outdir):
    """For programs whose Core ATen form torch itself cannot save: the
    TRAINING program and its cases only."""
    import json
    import os
    m, args, kwargs, ds, cases, tol, desc = builder()
    d = os.path.join(outdir, name)
    os.makedirs(d, exist_ok=True)
    for f in ("model.core.pt2", "cases.core.json", "meta.core.json", "model.onnx"):
        if os.path.exists(os.path.join(d, f)):
            os.remove(os.path.join(d, f))
    ep = torch.export.export(m, args, kwargs, dynamic_shapes=ds)
    torch.export.save(ep, os.path.join(d, "model.pt2"))
    with torch.no_grad():
        cs = gf.run_cases(torch.export.load(os.path.join(d, "model.pt2")), cases, tol)
    with open(os.path.join(d, "cases.json"), "w") as fh:
        json.dump({"format": "pt2web-cases/1", "model": "model.pt2", "torch_version": torch.__version__.split("+")[0],
                   "strict_export": True, "description": desc + " (torch 2.6 cannot save its Core ATen form)",
                   "cases": cs}, fh, indent=1)
    with open(os.path.join(d, "meta.json"), "w") as fh:
        json.dump(gf.meta_json(ep), fh, indent=1)
    print(f"{name}: ok (TRAINING only)", file=sys.stderr)


def main():
    outdir = sys.argv[1]
    only = set(sys.argv[2:])
    for name, builder in {**models(), **torchvision_models()}.items():
        if only and name not in only:
            continue
        try:
            if name in RUN_BEFORE_SAVING:
                with _ResultsBeforeSaving():
                    gf.export_one(name, builder, outdir)
            else:
                gf.export_one(name, builder, outdir)
        except Exception:  # noqa: BLE001
            import traceback
            traceback.print_exc()
            try:
                export_training_only(name, builder, outdir)
            except Exception:  # noqa: BLE001
                print(f"{name}: FAILED", file=sys.stderr)
                traceback.print_exc()


if __name__ == "__main__":
    main()
