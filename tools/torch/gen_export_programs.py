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
    M.update(archive_programs())
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
    for name, builder in models().items():
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
