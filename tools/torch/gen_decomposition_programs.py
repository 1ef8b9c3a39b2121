"""Programs that exercise pt2web's decompositions (src/passes/decompositions)
beyond what the model fixtures reach: every matmul case of ATen's
_matmul_impl, linear on inputs of other ranks and layouts, attention with
boolean, additive and causal masks and 3-d inputs, reflect / replicate /
constant padding, var and std with and without keepdim and corrections,
tril and triu of several dtypes, resizing (nearest, linear modes),
pixel_shuffle and instance_norm, einsum (diagonals, ellipses, implicit
outputs, sums of one operand, contractions of two and three). Exported and decomposed by real torch 2.6
in the fixture format (tests/fixtures/README.md): model.core.pt2 and
meta.core.json say what torch's run_decompositions gives.

Run with torch 2.6 (the trixie chroot of ../shared/tools/README.md), with
../shared/tools/gen_fixtures.py importable (same folder or PYTHONPATH):
    python3 gen_decomposition_programs.py OUTDIR [name ...]
"""
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim

import gen_fixtures as gf


def R(*s):
    return torch.randn(*s)


class MatmulCases(nn.Module):
    """One output per branch of ATen's matmul."""
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(R(6, 3))
        self.v = nn.Parameter(R(6))
        self.m = nn.Parameter(R(4, 6))

    def forward(self, x, y):
        # x: [B, 5, 6] contiguous; y: [B, 6, 2]
        return (
            self.v @ self.v,                   # dot
            self.m @ self.v,                   # mv
            self.v @ self.w,                   # vector @ matrix
            x @ self.w,                        # batch @ matrix, folded into one mm
            x.transpose(1, 2).transpose(1, 2).contiguous().permute(1, 0, 2) @ self.w,  # permuted batch: bmm
            x @ self.v,                        # batch @ vector, folded into mv
            self.m @ y.transpose(1, 2).transpose(1, 2),  # matrix @ batch: bmm
            self.v @ y,                        # vector @ batch: folded with a transpose
            x @ y,                             # batch @ batch
            x.unsqueeze(1) @ y,                # broadcast batch dims
        )


class LinearLayouts(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(6, 3)
        self.nobias = nn.Linear(6, 3, bias=False)

    def forward(self, x):
        # x: [B, 4, 6]
        return (
            self.fc(x.unsqueeze(0)),           # 4-d input with a bias: matmul + add
            self.fc(x.transpose(0, 1)),        # non-contiguous 3-d input with a bias
            self.fc(x[0, 0]),                  # 1-d input
            self.nobias(x),                    # 3-d input without a bias
        )


class AttentionMasks(nn.Module):
    def forward(self, q, k, v, keep, bias):
        return (
            F.scaled_dot_product_attention(q, k, v, attn_mask=keep),
            F.scaled_dot_product_attention(q, k, v, attn_mask=bias),
            F.scaled_dot_product_attention(q, k[:, :, :3], v[:, :, :3], is_causal=True),
            F.scaled_dot_product_attention(q[0], k[0], v[0], scale=0.5),
        )


class Pads(nn.Module):
    def forward(self, x):
        # x: [2, 3, 5, 6]
        return (
            F.pad(x, (1, 2, 2, 1), mode="reflect"),
            F.pad(x[0], (2, 1), mode="replicate"),
            F.pad(x, (1, 1, 0, 2), mode="replicate"),
            F.pad(x[0], (3, 0), mode="reflect"),
            F.pad(x, (1, 0, 0, 1), value=-1.5),
        )


class VarStd(nn.Module):
    def forward(self, x):
        return (
            torch.var(x, dim=1, keepdim=True),
            torch.var(x, dim=[0, 2], unbiased=False),
            torch.std(x, dim=-1),
            torch.std(x, dim=(1, 2), correction=0, keepdim=True),
            torch.var(x, dim=2, correction=2),
        )


class Triangles(nn.Module):
    def forward(self, x, n):
        return (
            torch.tril(x, -1),
            torch.triu(x, 2),
            torch.triu(x > 0),
            torch.tril(n, 1),
        )


class Resizing(nn.Module):
    def __init__(self):
        super().__init__()
        self.inorm = nn.InstanceNorm2d(4, affine=True)
        self.plain_inorm = nn.InstanceNorm2d(4)

    def forward(self, x, h):
        # x: [2, 4, 5, 6]; h: the same in float16
        return (
            F.interpolate(x, scale_factor=1.5, mode="nearest"),
            F.interpolate(x, size=(7, 4), mode="nearest"),
            F.interpolate(x, size=(9, 11), mode="bilinear", align_corners=True),
            F.interpolate(x, scale_factor=2.0, mode="bilinear"),
            F.interpolate(x[:, :, 0], size=9, mode="linear"),
            F.interpolate(x.unsqueeze(2), size=(2, 3, 4), mode="trilinear"),
            F.interpolate(h, size=(3, 8), mode="bilinear"),
            F.pixel_shuffle(x, 2),
            self.inorm(x),
            self.plain_inorm(x.transpose(2, 3)),
        )


class Einsums(nn.Module):
    """One output per branch of ATen's einsum and of its pairwise contraction."""
    def forward(self, a, b, c, s):
        # a: [B, 3, 4]; b: [B, 4, 5]; c: [5, 2]; s: [4, 4]
        return (
            torch.einsum("bij,bjk->bik", a, b),          # batched product: bmm
            torch.einsum("bij,bjk,kl->bil", a, b, c),    # three operands, left to right
            torch.einsum("ii->i", s),                    # diagonal
            torch.einsum("ii", s),                       # trace (implicit output)
            torch.einsum("ij->", s),                     # sum of everything
            torch.einsum("ij->ji", s),                   # permutation only
            torch.einsum("...ij,...jk->...ik", a, b),    # ellipsis
            torch.einsum("bij,jk", a, s),                # implicit output, contraction
            torch.einsum("i,j->ij", s[0], c[:, 0]),      # outer product
            torch.einsum("bij,bij->b", a, a),            # full contraction but the batch
            torch.einsum("bij,kj->bik", a, s[:1]),       # a size-1 operand dim broadcasts
            torch.einsum("bij,bik->j", a, a[:, :, :2]),  # dims summed before the product
        )


def models():
    M = {}
    tol = (1e-5, 1e-6)

    def mm():
        x, y = R(3, 5, 6), R(3, 6, 2)
        b = Dim("b", min=2, max=32)
        return MatmulCases(), (x, y), {}, {"x": {0: b}, "y": {0: b}}, [
            ("b3", (x, y), {}), ("b7", (R(7, 5, 6), R(7, 6, 2)), {})], tol, \
            "every branch of matmul: dot, mv, vector-matrix, folded mm and mv, bmm with broadcasting"
    M["decomp_matmul"] = mm

    def lin():
        x = R(2, 4, 6)
        return LinearLayouts(), (x,), {}, {"x": {0: Dim("b", min=1, max=16)}}, [
            ("b2", (x,), {}), ("b5", (R(5, 4, 6),), {})], tol, \
            "linear on 4-d, non-contiguous 3-d and 1-d inputs, and without a bias"
    M["decomp_linear"] = lin

    def att():
        q, k, v = R(2, 2, 5, 4), R(2, 2, 6, 4), R(2, 2, 6, 4)
        keep = torch.rand(5, 6) > 0.3
        keep[:, 0] = True
        keep[2] = False  # one row fully masked: the safe softmax gives zeros there
        bias = R(2, 1, 5, 6)
        return AttentionMasks(), (q, k, v, keep, bias), {}, None, [
            ("masks", (q, k, v, keep, bias), {})], (1e-4, 1e-5), \
            "scaled_dot_product_attention with boolean, additive and causal masks, 3-d inputs and a scale"
    M["decomp_attention"] = att

    def pads():
        x = R(2, 3, 5, 6)
        return Pads(), (x,), {}, None, [("x", (x,), {})], tol, \
            "reflect, replicate and constant padding over one and two dims"
    M["decomp_pad"] = pads

    def vs():
        x = R(3, 4, 5)
        return VarStd(), (x,), {}, None, [("x", (x,), {})], tol, \
            "var and std over one and several dims, keepdim, unbiased=False and explicit corrections"
    M["decomp_var_std"] = vs

    def tri():
        x = R(2, 4, 5)
        n = torch.arange(12).reshape(3, 4)
        return Triangles(), (x, n), {}, None, [("x", (x, n), {})], tol, \
            "tril and triu with diagonals, of float, bool and int64 tensors"
    M["decomp_triangular"] = tri

    def rs():
        x = R(2, 4, 5, 6)
        return Resizing(), (x, x.half()), {}, None, [("x", (x, x.half()), {})], (1e-3, 1e-4), \
            "nearest, bilinear (with and without align_corners), linear and trilinear resizing, a float16 input, " \
            "pixel_shuffle and instance_norm (affine, plain, non-contiguous input)"
    M["decomp_resize"] = rs

    def es():
        a, b, c, s = R(2, 3, 4), R(2, 4, 5), R(5, 2), R(4, 4)
        return Einsums(), (a, b, c, s), {}, {"a": {0: Dim("b", min=1, max=16)}, "b": {0: Dim("b", min=1, max=16)},
                                             "c": None, "s": None}, [
            ("b2", (a, b, c, s), {}), ("b3", (R(3, 3, 4), R(3, 4, 5), c, s), {})], (1e-4, 1e-5), \
            "einsum: batched and chained products, diagonal, trace, sums, permutation, ellipsis, implicit " \
            "output, outer product, broadcast size-1 dims and dims summed before the product"
    M["decomp_einsum"] = es
    return M


def main():
    outdir = sys.argv[1]
    only = set(sys.argv[2:])
    torch.manual_seed(0)
    for name, builder in models().items():
        if only and name not in only:
            continue
        gf.export_one(name, builder, outdir)
        onnx = os.path.join(outdir, name, "model.onnx")
        if os.path.exists(onnx):
            os.remove(onnx)  # not needed: these programs are not benchmarked


if __name__ == "__main__":
    main()
