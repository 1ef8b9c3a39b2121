# Writes a dynamically quantized int8 ONNX model from a float ONNX transformer,
# for onnxruntime-web's row beside q_encoder_small_dyn in the benchmark
# (tests/bench/models.mjs, INT8_MODELS). It is the pattern onnxruntime's own
# quantize_dynamic writes, built with onnx's helpers because onnxruntime's
# Python quantization tool in Debian trixie fails on its schemas:
#
#   x --DynamicQuantizeLinear--> (x_q uint8, x_scale, x_zero_point)
#   MatMulInteger(x_q, w_q int8, x_zero_point) -> int32 -> Cast float
#   -> Mul(x_scale * w_scale[n]) (-> Add bias for a Gemm)
#
# for every MatMul whose right operand is a constant 2-d weight and every Gemm
# (transB=1, alpha=beta=1) with a constant weight: per-output-channel
# symmetric int8 weights (zero point 0), as XNNPACKQuantizer's dynamic
# configuration makes them. Activation-by-activation products (attention
# scores) stay float, as they do in the PT2E program.
#
#   cp tests/fixtures/encoder_small/model.onnx CHROOT/tmp/enc.onnx
#   cp tools/torch/make_dynamic_int8_onnx.py CHROOT/tmp/
#   chroot CHROOT python3 /tmp/make_dynamic_int8_onnx.py /tmp/enc.onnx /tmp/encoder_small.dyn_int8.onnx
#   cp CHROOT/tmp/encoder_small.dyn_int8.onnx tests/bench/models/
# (CHROOT: the Debian trixie root with python3-onnx, ../shared/tools/README.md)
import sys
import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto

src, dst = sys.argv[1], sys.argv[2]
model = onnx.load(src)
graph = model.graph
initializers = {i.name: i for i in graph.initializer}
alias = {n.output[0]: n.input[0] for n in graph.node if n.op_type == 'Identity'}


def source(name):
    while name in alias:
        name = alias[name]
    return name


def constant(name):
    name = source(name)
    return numpy_helper.to_array(initializers[name]) if name in initializers else None


def attribute(node, name, default):
    for a in node.attribute:
        if a.name == name:
            return helper.get_attribute_value(a)
    return default


def quantize_columns(weight_kn):
    # Per output column n: scale = max|w| / 127, zero point 0, rounding half to even.
    scale = np.maximum(np.abs(weight_kn).max(axis=0) / 127.0, 1e-12).astype(np.float32)
    q = np.clip(np.rint(weight_kn / scale), -127, 127).astype(np.int8)
    return q, scale


nodes, added = [], []
rewritten = 0
quantized = {}  # (weight's source initializer, transposed) -> names of its int8 weight and scales
for node in graph.node:
    weight_kn, bias = None, None
    if node.op_type == 'MatMul':
        w = constant(node.input[1])
        if w is not None and w.ndim == 2:
            weight_kn = w
    elif node.op_type == 'Gemm':
        w = constant(node.input[1])
        plain = attribute(node, 'alpha', 1.0) == 1.0 and attribute(node, 'beta', 1.0) == 1.0
        if w is not None and plain and attribute(node, 'transA', 0) == 0:
            weight_kn = w.T if attribute(node, 'transB', 0) else w
            bias = node.input[2] if len(node.input) > 2 else None
    if weight_kn is None:
        nodes.append(node)
        continue
    rewritten += 1
    p = f'dynq{rewritten}'
    # The exporter shares one initializer between layers with equal weights; so do we.
    key = (source(node.input[1]), node.op_type == 'Gemm' and attribute(node, 'transB', 0))
    if key not in quantized:
        w_q, w_scale = quantize_columns(weight_kn.astype(np.float32))
        added += [numpy_helper.from_array(w_q, f'{p}_w_q'), numpy_helper.from_array(w_scale, f'{p}_w_scale')]
        quantized[key] = (f'{p}_w_q', f'{p}_w_scale')
    w_q_name, w_scale_name = quantized[key]
    out = node.output[0]
    nodes += [
        helper.make_node('DynamicQuantizeLinear', [node.input[0]], [f'{p}_x_q', f'{p}_x_scale', f'{p}_x_zp']),
        helper.make_node('MatMulInteger', [f'{p}_x_q', w_q_name, f'{p}_x_zp'], [f'{p}_acc']),
        helper.make_node('Cast', [f'{p}_acc'], [f'{p}_acc_f'], to=TensorProto.FLOAT),
        helper.make_node('Mul', [f'{p}_x_scale', w_scale_name], [f'{p}_scale']),
        helper.make_node('Mul', [f'{p}_acc_f', f'{p}_scale'], [f'{p}_y' if bias else out]),
    ]
    if bias:
        nodes.append(helper.make_node('Add', [f'{p}_y', bias], [out]))

# Drop the float weights nothing reads any more (and Identity nodes that only
# forwarded them), so the file holds the int8 weights alone.
graph_outputs = {o.name for o in graph.output}
while True:
    read = {i for n in nodes for i in n.input}
    kept = [n for n in nodes if n.op_type != 'Identity' or n.output[0] in read or n.output[0] in graph_outputs]
    if len(kept) == len(nodes):
        break
    nodes = kept
read = {i for n in nodes for i in n.input}
unused = [i for i in graph.initializer if i.name not in read]
for i in unused:
    graph.initializer.remove(i)
del graph.node[:]
graph.node.extend(nodes)
graph.initializer.extend(added)
onnx.checker.check_model(model)
onnx.save(model, dst)
print(f'{rewritten} products quantized dynamically -> {dst}', file=sys.stderr)
