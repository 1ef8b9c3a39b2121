"""The wider benchmark's models (issue 17): one model per family, random
weights from a fixed seed (nothing is downloaded), each exported by real
torch 2.6 in the fixture format of tests/fixtures/README.md: model.pt2,
model.core.pt2, cases.json (torch's outputs on the benchmark input, which
the harness checks pt2web against before timing it), meta.json, and
model.onnx (opset 17, dynamic axes where the program has dynamic sizes).

The files are tens of megabytes, so they are not committed: they go to
tests/bench/models/ (gitignored). Usually run through the wrapper, which
copies this script into the torch chroot and the results back:
    bash tools/torch/gen_bench_models.sh TORCH_CHROOT [name ...]
or directly with torch 2.6 and ../shared/tools/gen_fixtures.py importable:
    python3 gen_bench_models.py OUTDIR [name ...]
"""
import math
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim

import gen_fixtures as gf


def seeded(seed):
    torch.manual_seed(seed)


def output_tolerance(m, args, kwargs=None):
    """rtol 1e-3 and an atol of 1e-4 times the output's largest magnitude:
    float32 sums taken in another order differ by a fraction of the largest
    value, not of each one. Buffers the call writes (KV caches) are restored."""
    saved = {name: b.clone() for name, b in m.named_buffers()}
    with torch.no_grad():
        out = m(*args, **(kwargs or {}))
        for name, b in m.named_buffers():
            b.copy_(saved[name])
    leaves = [t for t in torch.utils._pytree.tree_leaves(out) if isinstance(t, torch.Tensor)]
    peak = max(float(t.abs().max()) for t in leaves)
    if not peak > 0:
        raise ValueError("the model's outputs are all zero: a check against them would prove nothing")
    return (1e-3, 1e-4 * peak)


def calibrate(m, shape, batches=2):
    """Gives random weights realistic activations: batch norms take their
    running statistics from random inputs (left at mean 0 / variance 1, deep
    networks' activations vanish: EfficientNet's logits were 1e-14), and
    layers initialised to zero (ViT's head) get small random weights.
    Returns m in eval mode."""
    with torch.no_grad():
        for layer in m.modules():
            if isinstance(layer, (nn.Linear, nn.Conv2d)) and not layer.weight.any():
                layer.weight.normal_(0, 0.02)
            if isinstance(layer, nn.modules.batchnorm._BatchNorm):
                layer.reset_running_stats()
                layer.momentum = None  # a plain average over the batches
        m.train()
        for _ in range(batches):
            m(torch.randn(*shape))
    return m.eval()


def entry(m, args, description, dynamic_shapes=None):
    """What gen_fixtures.export_one takes: the model, its one benchmark case
    (torch's result on it becomes the reference) and the tolerance."""
    return m, args, {}, dynamic_shapes, [("bench", args, {})], output_tolerance(m, args), description


def vision(seed, make, size=224, note=""):
    """A torchvision classifier at 1x3xSIZExSIZE, static shapes."""
    def build():
        seeded(seed)
        m = calibrate(make(), (4, 3, size, size))
        x = torch.randn(1, 3, size, size)
        return entry(m, (x,), note)
    return build


# ----------------------------------------------------------------------------- U-Net

class DoubleConv(nn.Sequential):
    def __init__(self, cin, cout):
        super().__init__(
            nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
            nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class UNet(nn.Module):
    """Three downsamplings, transposed-convolution upsampling, skip concatenation."""
    def __init__(self, cin=3, classes=2, base=16):
        super().__init__()
        c = [base, base * 2, base * 4, base * 8]
        self.down = nn.ModuleList([DoubleConv(cin, c[0])] + [DoubleConv(c[i], c[i + 1]) for i in range(3)])
        self.up = nn.ModuleList([nn.ConvTranspose2d(c[i + 1], c[i], 2, stride=2) for i in reversed(range(3))])
        self.merge = nn.ModuleList([DoubleConv(2 * c[i], c[i]) for i in reversed(range(3))])
        self.head = nn.Conv2d(c[0], classes, 1)

    def forward(self, x):
        skips = []
        for i, block in enumerate(self.down):
            x = block(x if i == 0 else F.max_pool2d(x, 2))
            skips.append(x)
        for up, merge, skip in zip(self.up, self.merge, reversed(skips[:-1])):
            x = merge(torch.cat([up(x), skip], dim=1))
        return self.head(x)


# ----------------------------------------------------------------------------- BERT-style encoder

class SelfAttention(nn.Module):
    """Multi-head attention over the sizes of its input (no fixed length, so
    the ONNX export keeps the sequence axis dynamic). `bias` is added to the
    scores: an attention mask or a causal mask, broadcast over heads."""
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)

    def split(self, x):
        b, s, d = x.shape
        return x.view(b, s, self.heads, d // self.heads).transpose(1, 2)

    def project(self, x):
        return [self.split(t) for t in self.qkv(x).chunk(3, dim=-1)]

    def attend(self, q, k, v, bias):
        scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1]) + bias
        y = scores.softmax(dim=-1) @ v
        b, h, s, dh = y.shape
        return self.out(y.transpose(1, 2).reshape(b, s, h * dh))

    def forward(self, x, bias):
        q, k, v = self.project(x)
        return self.attend(q, k, v, bias)


class BertLayer(nn.Module):
    def __init__(self, d, heads, ff):
        super().__init__()
        self.attn = SelfAttention(d, heads)
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.ff1, self.ff2 = nn.Linear(d, ff), nn.Linear(ff, d)

    def forward(self, x, bias):
        x = self.ln1(x + self.attn(x, bias))
        return self.ln2(x + self.ff2(F.gelu(self.ff1(x))))


class Bert(nn.Module):
    """BERT-style encoder (post-norm, learned positions, token types), pooled output."""
    def __init__(self, vocab=8000, d=256, heads=4, layers=4, ff=1024, max_len=512):
        super().__init__()
        self.tok, self.pos, self.typ = nn.Embedding(vocab, d), nn.Embedding(max_len, d), nn.Embedding(2, d)
        self.ln = nn.LayerNorm(d)
        self.layers = nn.ModuleList([BertLayer(d, heads, ff) for _ in range(layers)])
        self.pool = nn.Linear(d, d)

    def forward(self, input_ids, attention_mask):
        s = input_ids.shape[1]
        positions = torch.arange(s, device=input_ids.device).unsqueeze(0)
        x = self.ln(self.tok(input_ids) + self.pos(positions) + self.typ(torch.zeros_like(input_ids)))
        bias = (1.0 - attention_mask[:, None, None, :].to(x.dtype)) * -10000.0
        for layer in self.layers:
            x = layer(x, bias)
        return x, torch.tanh(self.pool(x[:, 0]))


# ----------------------------------------------------------------------------- GPT-style decoder with a KV cache

class GptBlock(nn.Module):
    def __init__(self, d, heads, max_len):
        super().__init__()
        self.attn = SelfAttention(d, heads)
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.ff1, self.ff2 = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)
        shape = (1, heads, max_len, d // heads)
        # The cache: zeros for prefill; the decode program's cache holds random
        # keys and values, standing for an earlier prefill.
        self.register_buffer("k_cache", torch.zeros(shape))
        self.register_buffer("v_cache", torch.zeros(shape))

    def prefill(self, x, causal):
        q, k, v = self.attn.project(self.ln1(x))
        s = x.shape[1]
        self.k_cache[:, :, :s] = k
        self.v_cache[:, :, :s] = v
        x = x + self.attn.attend(q, k, v, causal)
        return x + self.ff2(F.gelu(self.ff1(self.ln2(x))))

    def decode(self, x, pos, visible):
        q, k, v = self.attn.project(self.ln1(x))
        self.k_cache.index_copy_(2, pos, k)
        self.v_cache.index_copy_(2, pos, v)
        x = x + self.attn.attend(q, self.k_cache, self.v_cache, visible)
        return x + self.ff2(F.gelu(self.ff1(self.ln2(x))))


class Gpt(nn.Module):
    def __init__(self, vocab=4096, d=256, heads=4, layers=4, max_len=256):
        super().__init__()
        self.max_len = max_len
        self.tok, self.pos = nn.Embedding(vocab, d), nn.Embedding(max_len, d)
        self.blocks = nn.ModuleList([GptBlock(d, heads, max_len) for _ in range(layers)])
        self.ln = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)


class GptPrefill(nn.Module):
    """forward(ids [1, S]) -> logits of the last token; writes the cache's first S rows."""
    def __init__(self, gpt):
        super().__init__()
        self.gpt = gpt

    def forward(self, ids):
        g = self.gpt
        s = ids.shape[1]
        positions = torch.arange(s, device=ids.device)
        x = g.tok(ids) + g.pos(positions)
        causal = torch.full((s, s), float("-inf"), device=ids.device).triu(1)
        for block in g.blocks:
            x = block.prefill(x, causal)
        return g.head(g.ln(x[:, -1:]))


class GptDecode(nn.Module):
    """forward(ids [1, 1], pos [1]) -> logits; writes row `pos` of the cache and
    attends to rows 0..pos (a static-size cache with a mask, as static KV
    caches do)."""
    def __init__(self, gpt):
        super().__init__()
        self.gpt = gpt

    def forward(self, ids, pos):
        g = self.gpt
        x = g.tok(ids) + g.pos(pos).unsqueeze(0)
        rows = torch.arange(g.max_len, device=ids.device)
        visible = torch.where(rows <= pos, 0.0, float("-inf"))
        for block in g.blocks:
            x = block.decode(x, pos, visible)
        return g.head(g.ln(x))


# ----------------------------------------------------------------------------- LSTM

class LstmTagger(nn.Module):
    """Two-layer LSTM over a feature sequence, a linear head on every step."""
    def __init__(self, features=64, hidden=256, layers=2, classes=32):
        super().__init__()
        self.lstm = nn.LSTM(features, hidden, layers, batch_first=True)
        self.head = nn.Linear(hidden, classes)

    def forward(self, x):
        y, _ = self.lstm(x)
        return self.head(y)


# ----------------------------------------------------------------------------- the list

def bench_models():
    import torchvision.models as tvm
    from torchvision.models.vision_transformer import VisionTransformer

    M = {
        "resnet18": vision(11, tvm.resnet18, note="torchvision ResNet-18 (random weights), 1x3x224x224"),
        "efficientnet_b0": vision(12, tvm.efficientnet_b0,
                                  note="torchvision EfficientNet-B0 (random weights), 1x3x224x224"),
        "regnet_y_400mf": vision(13, tvm.regnet_y_400mf,
                                 note="torchvision RegNetY-400MF (random weights), 1x3x224x224"),
        "mobilenet_v3_small": vision(14, tvm.mobilenet_v3_small,
                                     note="torchvision MobileNetV3-Small (random weights), 1x3x224x224"),
        "vit_tiny": vision(15, lambda: VisionTransformer(image_size=224, patch_size=16, num_layers=6, num_heads=3,
                                                          hidden_dim=192, mlp_dim=768),
                           note="torchvision VisionTransformer, reduced (6 layers, d=192, 3 heads, patch 16), "
                                "1x3x224x224"),
    }

    def unet():
        seeded(16)
        m = calibrate(UNet(), (4, 3, 128, 128))
        x = torch.randn(1, 3, 128, 128)
        return entry(m, (x,),
                     "small U-Net (16-128 channels, 3 downsamplings, ConvTranspose2d upsampling), 1x3x128x128")
    M["unet_small"] = unet

    def bert():
        seeded(17)
        m = Bert().eval()
        seq = Dim("seq", min=2, max=512)
        ids = torch.randint(0, 8000, (1, 128))
        mask = torch.ones(1, 128, dtype=torch.int64)
        mask[:, 100:] = 0
        return entry(m, (ids, mask),
                     "BERT-style encoder (4 layers, d=256, 4 heads, vocab 8000), input_ids and attention_mask "
                     "1x128 (last 28 positions padded), dynamic sequence length",
                     {"input_ids": {1: seq}, "attention_mask": {1: seq}})
    M["bert_mini"] = bert

    def gpt_prefill():
        seeded(18)
        # No gradients: run_decompositions rejects a buffer written from values that need them.
        m = GptPrefill(Gpt()).eval().requires_grad_(False)
        ids = torch.randint(0, 4096, (1, 64))
        return entry(m, (ids,),
                     "GPT-style decoder prefill (4 layers, d=256, 4 heads, vocab 4096): ids 1x64, writes the "
                     "KV cache buffers (1x4x256x64 per layer), dynamic sequence length",
                     {"ids": {1: Dim("seq", min=2, max=256)}})
    M["gpt_prefill"] = gpt_prefill

    def gpt_decode():
        seeded(18)
        m = GptDecode(Gpt()).eval().requires_grad_(False)
        for b in m.gpt.blocks:
            b.k_cache.normal_()
            b.v_cache.normal_()
        ids = torch.randint(0, 4096, (1, 1))
        pos = torch.tensor([64])
        return entry(m, (ids, pos),
                     "GPT-style decoder, one-token decode step at position 64 over a static KV cache in buffers "
                     "(4 layers, 256 rows, random contents standing for a prefill)")
    M["gpt_decode"] = gpt_decode

    def lstm():
        seeded(19)
        m = LstmTagger().eval()
        x = torch.randn(1, 50, 64)
        # Static length: torch.export specializes the sequence length of aten.lstm.
        return entry(m, (x,), "2-layer LSTM (64 -> 256) with a linear head, 1x50x64")
    M["lstm_tagger"] = lstm
    return M


# ----------------------------------------------------------------------------- int8 twins

def int8_twin(build, dynamic, calibration_batches=4):
    """The PT2E int8 program of a float benchmark model, as a PyTorch user
    quantizing for a CPU runtime gets it (XNNPACKQuantizer, symmetric
    per-channel int8 weights): static activations calibrated on a few seeded
    random inputs of the benchmark input's shape and dtype, or dynamic
    activation quantization. The reference outputs are the quantized
    program's own, and the tolerance allows a one-step difference where a
    float rounding flips a requantization (as ../shared/tools/gen_quant.py)."""
    def build_twin():
        from torch.ao.quantization.quantize_pt2e import convert_pt2e, prepare_pt2e
        from torch.ao.quantization.quantizer.xnnpack_quantizer import (
            XNNPACKQuantizer, get_symmetric_quantization_config)
        m, args, kwargs, ds, cases, _tol, desc = build()
        graph = torch.export.export_for_training(m, args, kwargs, dynamic_shapes=ds).module()
        quantizer = XNNPACKQuantizer().set_global(
            get_symmetric_quantization_config(is_per_channel=True, is_dynamic=dynamic))
        prepared = prepare_pt2e(graph, quantizer)
        with torch.no_grad():
            prepared(*args, **kwargs)
            if not dynamic:
                for _ in range(calibration_batches - 1):
                    prepared(*[torch.randn_like(a) if a.is_floating_point() else a for a in args], **kwargs)
        converted = convert_pt2e(prepared)
        kind = "dynamic" if dynamic else "static"
        return converted, args, kwargs, ds, cases, (2e-2, 5e-2), \
            f"int8 PT2E ({kind} activations, per-channel weights, XNNPACKQuantizer) of {desc}"
    return build_twin


def int8_models():
    """The int8 twins the harness lists beside their float models
    (tests/bench/models.mjs, INT8_MODELS: keep the two in step)."""
    floats = bench_models()

    def twin(name, dynamic):
        def build():
            seeded(21)
            return int8_twin(floats[name], dynamic)()
        return build
    return {
        "q_resnet18": twin("resnet18", dynamic=False),
        "q_mobilenet_v3_small": twin("mobilenet_v3_small", dynamic=False),
        "q_vit_tiny_dyn": twin("vit_tiny", dynamic=True),
        "q_bert_mini_dyn": twin("bert_mini", dynamic=True),
    }


def main():
    outdir = sys.argv[1]
    only = set(sys.argv[2:])
    models = {**bench_models(), **int8_models()}
    unknown = only - set(models)
    if unknown:
        sys.exit(f"unknown model(s) {sorted(unknown)}; known: {sorted(models)}")
    failed = []
    for name, build in models.items():
        if only and name not in only:
            continue
        try:
            gf.export_one(name, build, outdir)
        except Exception:  # noqa: BLE001
            import traceback
            traceback.print_exc()
            failed.append(name)
    if failed:
        sys.exit(f"failed: {failed}")


if __name__ == "__main__":
    main()
