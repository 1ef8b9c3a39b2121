# Writes a QDQ int8 ONNX model from a float ONNX CNN, for onnxruntime-web's
# int8 row of the benchmark (tests/bench/models.mjs, INT8_MODELS): per-channel
# symmetric int8 weights and int32 biases for every Conv, and a
# QuantizeLinear -> DequantizeLinear pair (asymmetric int8, calibrated on one
# seeded random input with onnx's reference evaluator) on every tensor a Conv
# or Add reads; the rest stays float. Built with onnx's own helpers, because
# onnxruntime's Python quantization tool in Debian trixie fails on its schemas.
#
#   cp tests/fixtures/mobilenet_v2/model.onnx CHROOT/tmp/mnv2.onnx
#   cp tools/torch/make_qdq_onnx.py CHROOT/tmp/
#   chroot CHROOT python3 /tmp/make_qdq_onnx.py /tmp/mnv2.onnx /tmp/mobilenet_v2.qdq.onnx   # ~30 s
#   cp CHROOT/tmp/mobilenet_v2.qdq.onnx tests/bench/models/
# (CHROOT: the Debian trixie root with python3-onnx, ../shared/tools/README.md)
import sys, time
import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto
from onnx.reference import ReferenceEvaluator

src, dst = sys.argv[1], sys.argv[2]
model = onnx.load(src)
g = model.graph
inits = {i.name: i for i in g.initializer}
consts = {}
for n in g.node:
    if n.op_type == 'Constant':
        consts[n.output[0]] = numpy_helper.to_array(n.attribute[0].t)

alias = {n.output[0]: n.input[0] for n in g.node if n.op_type == 'Identity'}
def value(name):
    while name in alias: name = alias[name]
    if name in inits: return numpy_helper.to_array(inits[name])
    return consts.get(name)

# calibration: every Conv/Add data input as an extra output
watched = []
for n in g.node:
    if n.op_type == 'Conv': watched.append(n.input[0])
    if n.op_type == 'Add': watched += [i for i in n.input if value(i) is None]
watched = list(dict.fromkeys(watched))
calib = onnx.ModelProto(); calib.CopyFrom(model)
known = {o.name for o in calib.graph.output}
for name in watched:
    if name not in known: calib.graph.output.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, None))
rng = np.random.default_rng(0)
feed = {g.input[0].name: rng.standard_normal((1, 3, 224, 224)).astype(np.float32)}
t = time.time()
outs = ReferenceEvaluator(calib).run(None, feed)
print(f'calibrated in {time.time() - t:.1f} s', file=sys.stderr)
ranges = {o.name: (float(min(v.min(), 0)), float(max(v.max(), 0))) for o, v in zip(calib.graph.output, outs)}

new_nodes, new_inits = [], []
qdq_of = {}
def qdq(name):
    global new_inits
    if name in qdq_of: return qdq_of[name]
    lo, hi = ranges[name]
    scale = max((hi - lo) / 255.0, 1e-8)
    zp = int(np.clip(round(-128 - lo / scale), -128, 127))
    s, z = f'{name}_scale', f'{name}_zp'
    new_inits += [numpy_helper.from_array(np.array(scale, np.float32), s), numpy_helper.from_array(np.array(zp, np.int8), z)]
    new_nodes.append(helper.make_node('QuantizeLinear', [name, s, z], [f'{name}_q']))
    new_nodes.append(helper.make_node('DequantizeLinear', [f'{name}_q', s, z], [f'{name}_dq']))
    qdq_of[name] = (f'{name}_dq', scale)
    return qdq_of[name]

for n in g.node:
    if n.op_type == 'Conv':
        x, x_scale = qdq(n.input[0])
        w = value(n.input[1]).astype(np.float32)
        w_scale = np.maximum(np.abs(w).reshape(w.shape[0], -1).max(axis=1) / 127.0, 1e-8).astype(np.float32)
        wq = np.clip(np.round(w / w_scale.reshape(-1, 1, 1, 1)), -127, 127).astype(np.int8)
        base = n.name.replace('/', '_')
        new_inits += [numpy_helper.from_array(wq, base + '_wq'), numpy_helper.from_array(w_scale, base + '_ws'),
                      numpy_helper.from_array(np.zeros(w.shape[0], np.int8), base + '_wz')]
        new_nodes.append(helper.make_node('DequantizeLinear', [base + '_wq', base + '_ws', base + '_wz'], [base + '_wdq'], axis=0))
        inputs = [x, base + '_wdq']
        if len(n.input) > 2 and n.input[2]:
            b = value(n.input[2]).astype(np.float32)
            b_scale = (w_scale * np.float32(x_scale)).astype(np.float32)
            bq = np.round(b / b_scale).astype(np.int32)
            new_inits += [numpy_helper.from_array(bq, base + '_bq'), numpy_helper.from_array(b_scale, base + '_bs'),
                          numpy_helper.from_array(np.zeros(w.shape[0], np.int32), base + '_bz')]
            new_nodes.append(helper.make_node('DequantizeLinear', [base + '_bq', base + '_bs', base + '_bz'], [base + '_bdq'], axis=0))
            inputs.append(base + '_bdq')
        c = onnx.NodeProto(); c.CopyFrom(n); del c.input[:]; c.input.extend(inputs)
        new_nodes.append(c)
    elif n.op_type == 'Add' and all(value(i) is None for i in n.input):
        a = onnx.NodeProto(); a.CopyFrom(n); del a.input[:]; a.input.extend(qdq(i)[0] for i in n.input)
        new_nodes.append(a)
    else:
        new_nodes.append(n)
# the adds' outputs are read by a Conv or Add, so they were quantized above; Q nodes must follow
# their producers: sort topologically
produced = {i.name for i in g.input} | {i.name for i in g.initializer} | {i.name for i in new_inits}
order, pending = [], list(new_nodes)
while pending:
    rest = []
    for n in pending:
        if all((not i) or i in produced for i in n.input):
            order.append(n); produced.update(n.output)
        else:
            rest.append(n)
    if len(rest) == len(pending): raise SystemExit('cycle or missing input')
    pending = rest
graph_outputs = {o.name for o in g.output}
while True:  # drop nodes nothing reads (the float weights' Identity nodes)
    used = {i for n in order for i in n.input} | graph_outputs
    live = [n for n in order if any(o in used for o in n.output)]
    if len(live) == len(order): break
    order = live
del g.node[:]; g.node.extend(order)
keep = [i for i in g.initializer if i.name in used]
del g.initializer[:]; g.initializer.extend(keep + new_inits)
onnx.checker.check_model(model)
onnx.save(model, dst)
print(f'{dst}: {sum(n.op_type == "QuantizeLinear" for n in order)} QuantizeLinear, {len(order)} nodes', file=sys.stderr)
