"""The q_mobile_blocks fixture (tests/fixtures-int8/q_mobile_blocks): real
torchvision building blocks quantized by PT2E with XNNPACKQuantizer (static,
per-channel), small enough to commit, holding the elementwise int8 chains the
plan rewrites (runtime/quantized_elementwise_fusion.h): dequantize ->
hardswish_ / hardsigmoid -> quantize (MobileNetV3's activations and
squeeze-excite gate, a 5x5 depthwise convolution between them), ResNet's
stem max pool and residual add_ -> relu_ -> quantize (a BasicBlock).

    cp tools/torch/gen_int8_blocks.py ../shared/tools/gen_fixtures.py CHROOT/tmp/
    chroot CHROOT sh -c 'cd /tmp && python3 gen_int8_blocks.py out'
    cp -r CHROOT/tmp/out/q_mobile_blocks tests/fixtures-int8/ && rm tests/fixtures-int8/q_mobile_blocks/model.onnx
(CHROOT: the Debian trixie root with python3-torch 2.6, ../shared/tools/README.md)
"""
import sys

import torch
from torch import nn
from torch.ao.quantization.quantize_pt2e import convert_pt2e, prepare_pt2e
from torch.ao.quantization.quantizer.xnnpack_quantizer import (
    XNNPACKQuantizer, get_symmetric_quantization_config)
from torchvision.models.mobilenetv3 import InvertedResidual, InvertedResidualConfig
from torchvision.models.resnet import BasicBlock
from torchvision.ops.misc import Conv2dNormActivation

from gen_fixtures import export_one


class MobileBlocks(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = Conv2dNormActivation(3, 16, stride=2, activation_layer=nn.Hardswish)
        self.max_pool = nn.MaxPool2d(3, 2, 1)  # as ResNet's stem pool, on a quantized input
        # 16 -> 48 -> 16, 5x5 depthwise, squeeze-excite, hardswish, residual
        self.inverted = InvertedResidual(InvertedResidualConfig(16, 5, 48, 16, True, "HS", 1, 1, 1.0),
                                         nn.BatchNorm2d)
        self.basic = BasicBlock(16, 16)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.head = nn.Linear(16, 10)

    def forward(self, x):
        y = self.basic(self.max_pool(self.inverted(self.stem(x))))
        return self.head(torch.flatten(self.pool(y), 1))


def build():
    torch.manual_seed(23)
    m = MobileBlocks()
    with torch.no_grad():  # batch norm statistics of random inputs (else activations vanish)
        m.train()
        for _ in range(4):
            m(torch.randn(8, 3, 32, 32))
    m.eval()
    args = (torch.randn(1, 3, 32, 32),)
    graph = torch.export.export_for_training(m, args).module()
    quantizer = XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=True))
    prepared = prepare_pt2e(graph, quantizer)
    with torch.no_grad():
        for _ in range(4):
            prepared(torch.randn(1, 3, 32, 32))
    converted = convert_pt2e(prepared)
    cases = [("random_%d" % i, (torch.randn(1, 3, 32, 32) * (1 + i),), {}) for i in range(3)]
    return converted, args, {}, None, cases, (2e-2, 5e-2), \
        "int8 PT2E (static, per-channel weights, XNNPACKQuantizer) of torchvision blocks: a hardswish stem, " \
        "a MobileNetV3 inverted residual (5x5 depthwise, squeeze-excite, hardswish), a 3x3 stride-2 max pool, " \
        "a ResNet BasicBlock (add_ -> relu_), pool and linear head; input 1x3x32x32"


if __name__ == "__main__":
    export_one("q_mobile_blocks", build, sys.argv[1])
