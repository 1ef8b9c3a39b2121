"""Programs that torch 2.14's TRAINING IR keeps operators for, as transformers and
torchaudio write them, exported by real torch in the fixture format
(tests/fixtures/README.md): Python's bitwise operators on tensors (every
attention mask of transformers' text models is `a & b`), in-place view
operators (t_, unsqueeze_, squeeze_, transpose_, swapdims_, as_strided_),
random operators and dropout in training mode (outputs that hold for any
draws: pt2web's stream is not torch's), and the operators whose results
depend on how torch's CPU kernels order ties or count (sort, argsort,
topk, mode on tie-heavy lines; unique_consecutive, unique over a dim,
bincount; quantile and nanquantile with every interpolation), and the 16-bit
floating products of a language model's decode step.

Run with torch 2.14 (the sid chroot of ../shared/tools/README.md), with
../shared/tools/gen_fixtures.py importable (same folder or PYTHONPATH):
    python3 gen_torch214_programs.py OUTDIR [name ...]
"""
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

import gen_fixtures as gf


class BitwiseOperators(nn.Module):
    """Masks combined as transformers combines them, and integer bit arithmetic
    with Python's operators, also in place."""
    def forward(self, x, ids, shift):
        pad = ids != 0
        causal = torch.ones(ids.shape[1], ids.shape[1], dtype=torch.bool).tril()
        mask = pad[:, None, :] & causal[None]
        either = pad | (ids > 5)
        odd = (ids & 1) ^ (ids >> 2)
        grown = ids << shift
        acc = ids.clone()
        acc &= 6
        acc |= ids & 8
        acc ^= 3
        acc <<= 1
        acc >>= shift
        flags = pad.clone()
        flags &= ids < 9
        return x.masked_fill(~mask, 0.0).sum(-1), either, odd, grown, acc, flags, (ids << 2) >> shift


class InplaceViews(nn.Module):
    """In-place view operators on intermediate tensors: the later reads see
    the new sizes and strides."""
    def forward(self, x, v):
        a = x * 2
        a.t_()
        b = a + 1
        c = v.clone()
        c.unsqueeze_(0)
        c.unsqueeze_(-1)
        d = c * 3
        c.squeeze_()
        e = x.clone()
        e.transpose_(0, 1)
        f = x.clone()
        f.swapdims_(0, 1)
        g = x.clone().reshape(-1)
        g.as_strided_((2, 2), (1, 3), 1)
        h = x.clone()[None]
        h.squeeze_(0)
        return b, d, c + 0, e + f, g * 1, h - 1


class RandomOperators(nn.Module):
    """rand, randn, randint, randperm, bernoulli and dropout (plain, 2-D
    feature, alpha) in training mode, returned as facts that hold whatever
    the draws: ranges, a sorted permutation, kept values scaled by 1/(1-p)."""
    def forward(self, x, image):
        perm = torch.randperm(8)
        u = torch.rand(3, 4)
        n = torch.randn_like(x)
        k = torch.randint(2, 5, (16,))
        b = torch.bernoulli(torch.ones(2, 3))
        kept = F.dropout(x, 0.5, training=True)
        channels = F.dropout2d(image, 0.25, training=True)
        alpha = F.alpha_dropout(x, 0.2, training=True)
        in_range = ((u >= 0) & (u < 1)).all() & ((k >= 2) & (k < 5)).all() & n.isfinite().all()
        dropped = ((kept == 0) | torch.isclose(kept, 2 * x)).all()
        whole = ((channels == 0).flatten(2).all(-1) | torch.isclose(channels, image / 0.75).flatten(2).all(-1)).all()
        return perm.sort().values, in_range, b, dropped, whole, alpha.shape[0] * alpha.isfinite(), F.dropout(x, 1.0, training=True)


class OrderTies(nn.Module):
    """Lines with many equal values (and NaNs): where sort, argsort, topk and
    mode put ties is what torch's CPU algorithms leave, not a rule."""
    def forward(self, x, ids):
        up = x.sort()
        down = x.sort(dim=0, descending=True)
        stable = x.sort(stable=True, descending=True)
        few = x.topk(1)
        some = x.topk(3, largest=False)
        many = x.topk(50, sorted=False)
        many_sorted = x.topk(50, dim=-1)
        spread = x[:, :1].expand(3, 70).sort()
        return (up.values, up.indices, down.indices, stable.indices, few.indices, some.indices,
                many.values, many.indices, many_sorted.indices, ids.argsort(), ids.argsort(dim=0, descending=True),
                x.mode(-1).indices, ids.mode(0).indices, spread.indices)


class CountingOps(nn.Module):
    """Counting and deduplicating: unique_consecutive (flat, over a dim),
    unique over a dim, bincount with and without weights."""
    def forward(self, ids, rows, w, w64):
        flat, inverse, counts = torch.unique_consecutive(ids, return_inverse=True, return_counts=True)
        by_row, row_inverse, row_counts = torch.unique_consecutive(rows, return_inverse=True, return_counts=True, dim=0)
        by_col = torch.unique_consecutive(rows, dim=1)
        distinct_rows, distinct_inverse, distinct_counts = torch.unique(rows, dim=0, return_inverse=True,
                                                                        return_counts=True)
        plain = ids.flatten()
        return (flat, inverse, counts, by_row, row_inverse, row_counts, by_col, distinct_rows, distinct_inverse,
                distinct_counts, torch.bincount(plain), torch.bincount(plain, minlength=20),
                torch.bincount(plain, weights=w), torch.bincount(plain, weights=w64),
                torch.bincount(plain, weights=plain))


class Quantiles(nn.Module):
    """quantile and nanquantile: tensor and float q, over all elements and a
    dim, keepdim, every interpolation; NaN in a line, a line all NaN."""
    def forward(self, x, q, holes):
        out = [x.quantile(q), x.quantile(0.3, dim=1), x.quantile(q, dim=0, keepdim=True)]
        for how in ("linear", "lower", "higher", "midpoint", "nearest"):
            out.append(x.quantile(q, dim=-1, interpolation=how))
            out.append(holes.nanquantile(q, dim=1, interpolation=how))
        out += [holes.quantile(0.5, dim=1), holes.nanquantile(0.25), holes.nanquantile(q, keepdim=True)]
        return tuple(out)


class GuardedSizes(nn.Module):
    """Branches on sizes that range constraints cannot express (a size's
    parity, two sizes differing, one size at most twice another): torch 2.14
    records them as guards_code, and ep.module() refuses inputs that break them."""
    def forward(self, x, y, z):
        if x.shape[0] % 2 == 0:
            x = x * 2
        if x.shape[0] != y.shape[0]:
            out = x.sum() + y.sum()
        else:
            out = x.sum() - y.sum()
        return out + z[: x.shape[0] * 2].sum()


class VmapRegions(nn.Module):
    """torch.vmap as TRAINING IR keeps it (functorch's _add_batch_dim /
    _remove_batch_dim markers around per-example operators): in_dims 0, 1 and
    None, a captured tensor, a reduction per example, nested vmap. (out_dims
    other than 0 are left out: torch 2.14's default, non-strict export of
    them fails with "a fake tensor in the exported program constant's list".)"""
    def forward(self, x, y, w, z):
        per_row = torch.vmap(lambda r: (r * w).sum() + r.max())(x)
        columns = torch.vmap(lambda c, v: (c * v).sum(), in_dims=(1, None))(y, w)
        outer = torch.vmap(torch.outer, in_dims=(0, None))(x, w)
        nested = torch.vmap(torch.vmap(lambda a: a.sin() * 2 + a.sum()))(z)
        return per_row, columns, outer, nested


class HalfWeightProducts(nn.Module):
    """Linear layers and products with bfloat16 and float16 weights at one to
    five rows (a decode step's products, which read the 16-bit weight in
    place) and at many rows, with and without a bias, and mm / matmul by a
    transposed weight."""
    def __init__(self):
        super().__init__()
        self.b16 = nn.Linear(40, 33).to(torch.bfloat16)
        self.b16_plain = nn.Linear(17, 9, bias=False).to(torch.bfloat16)
        self.f16 = nn.Linear(40, 33).to(torch.float16)
        self.w16 = nn.Parameter(torch.randn(19, 24).to(torch.float16))

    def forward(self, xb, xf, xs):
        out = []
        for rows in (1, 2, 3, 4, 5, 12):
            out.append(self.b16(xb[:rows]))
            out.append(self.f16(xf[:rows]))
            out.append(self.b16_plain(xb[:rows, :17]))
            out.append(xs[:rows] @ self.w16.t())
            out.append(torch.mm(xs[:rows], self.w16.t()))
        out.append(self.b16(xb[:2].unsqueeze(0)))  # rows in a leading batch dim
        return tuple(out)


def R(*s):
    return torch.randn(*s)


def ties(*s, high=3):
    """Values drawn from a few integers, as float, one in nine NaN."""
    x = torch.randint(0, high, s).float()
    x[torch.rand(s) < 1 / 9] = float("nan")
    return x


def nan_rows():
    x = R(4, 9)
    x[0, 3] = x[1, 0] = x[1, 5] = float("nan")
    x[2] = float("nan")
    return x


def models():
    ids = torch.tensor([[3, 7, 0, 12], [9, 2, 5, 0]])
    ids2 = torch.tensor([[1, 14, 6, 0], [4, 0, 0, 0]])
    def counting_inputs():
        ids = torch.randint(0, 4, (3, 12)).sort(dim=-1).values
        rows = torch.tensor([[1, 1, 0, 0, 2], [1, 1, 0, 0, 2], [0, 0, 3, 3, 1], [1, 1, 0, 0, 2], [0, 0, 3, 3, 1]])
        return ids, rows[torch.randperm(5)], torch.rand(36), torch.rand(36, dtype=torch.float64)

    def ordering_inputs():
        return ties(3, 70), torch.randint(0, 4, (24, 5))

    def quantile_inputs():
        return R(5, 8), torch.tensor([0.0, 0.1, 0.25, 0.5, 0.625, 0.9, 1.0]), nan_rows()

    from torch.export import Dim
    auto = {0: Dim.AUTO}
    def half_inputs():
        return (torch.randn(12, 40).to(torch.bfloat16), torch.randn(12, 40).to(torch.float16),
                torch.randn(12, 24).to(torch.float16))

    return {
        "half_weight_products": lambda: (
            HalfWeightProducts(), half_inputs(), {}, None,
            [("example", half_inputs(), {}), ("other_values", half_inputs(), {})],
            (1e-2, 1e-2), "bfloat16 / float16 linear (bias, no bias, leading batch dim), @ and mm by a transposed "
            "float16 weight, at 1-5 and 12 rows"),
        "vmap_regions": lambda: (
            VmapRegions(), (R(3, 4), R(4, 5), R(4), R(3, 2, 4)), {}, None,
            [("example", (R(3, 4), R(4, 5), R(4), R(3, 2, 4)), {}),
             ("other_values", (R(3, 4), R(4, 5), R(4), R(3, 2, 4)), {})],
            (1e-5, 1e-5), "torch.vmap in TRAINING IR: in_dims 0 / 1 / None, a captured input, nested vmap"),
        "guarded_sizes": lambda: (
            GuardedSizes(), (R(4), R(5), R(9)), {}, {"x": auto, "y": auto, "z": auto},
            [("example", (R(4), R(5), R(9)), {}), ("other_sizes", (R(6), R(3), R(12)), {}),
             ("odd_x", (R(5), R(3), R(12)), {}, True), ("equal_sizes", (R(4), R(4), R(9)), {}, True),
             ("short_z", (R(6), R(3), R(11)), {}, True)],
            (1e-5, 1e-5), "guards_code: x.size()[0] even, x and y sizes different, 2 * x.size()[0] <= z.size()[0]"),
        "order_ties": lambda: (
            OrderTies(), ordering_inputs(), {}, None,
            [("example", ordering_inputs(), {}), ("other_ties", ordering_inputs(), {})],
            (0, 0), "sort / argsort / topk / mode index order among ties and NaNs, as torch's CPU kernels leave it"),
        "counting_ops": lambda: (
            CountingOps(), counting_inputs(), {}, None,
            [("example", counting_inputs(), {}), ("other_values", counting_inputs(), {})],
            (1e-6, 1e-6), "unique_consecutive (flat, dim 0, dim 1), unique(dim=0), bincount (minlength, weights)"),
        "quantiles": lambda: (
            Quantiles(), quantile_inputs(), {}, None,
            [("example", quantile_inputs(), {}), ("other_values", quantile_inputs(), {})],
            (1e-6, 1e-6), "quantile / nanquantile: tensor and float q, dims, keepdim, all five interpolations, NaN lines"),
        "bitwise_operators": lambda: (
            BitwiseOperators(), (R(2, 4, 4), ids, 1), {}, None,
            [("example", (R(2, 4, 4), ids, 1), {}), ("other_ids", (R(2, 4, 4), ids2, 1), {})],
            (1e-6, 1e-6), "Python's & | ^ << >> and &= |= ^= <<= >>= on bool and int64 tensors"),
        "inplace_views": lambda: (
            InplaceViews(), (R(2, 3), R(4)), {}, None,
            [("example", (R(2, 3), R(4)), {}), ("other_values", (R(2, 3), R(4)), {})],
            (1e-6, 1e-6), "t_, unsqueeze_, squeeze_ (all, dim), transpose_, swapdims_, as_strided_ on intermediates"),
        "random_operators": lambda: (
            RandomOperators(), (R(4, 5), R(2, 3, 4, 4)), {}, None,
            [("example", (R(4, 5), R(2, 3, 4, 4)), {}), ("other_values", (R(4, 5), R(2, 3, 4, 4)), {})],
            (1e-6, 1e-6), "rand, randn_like, randint, randperm, bernoulli, dropout / dropout2d / alpha_dropout training"),
    }


def main():
    outdir, only = sys.argv[1], set(sys.argv[2:])
    torch.manual_seed(0)
    for name, builder in models().items():
        if only and name not in only:
            continue
        gf.export_one(name, builder, outdir)


if __name__ == "__main__":
    main()
