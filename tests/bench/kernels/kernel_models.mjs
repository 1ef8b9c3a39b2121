// The kernel-level benchmark rows: GEMM/GEMV and convolution shapes, each
// built as the same one-operator model for both runtimes. Weights are
// constants in both (pt2web: a parameter in the state dict; ONNX: an
// initializer), so each runtime may prepare (pack) them at load time as it
// would for a real model; only the activation is a per-run input.
//
//   gemm:  y = x @ w          x [m, k], w [k, n]   aten.mm.default      / MatMul
//   linear: y = x @ w^T + b   x [m, k], w [n, k]   aten.linear.default  / Gemm (transB)
//   conv:  y = conv2d(x, w)   no bias              aten.convolution     / Conv
//
// Weights are seeded pseudo-random, uniform in +-1/sqrt(fan_in).

import { randomFloats, sizeOf } from '../inputs.mjs';
import { encodeOnnxModel } from './onnx_writer.mjs';
import { arg, writeSingleNodePt2 } from './pt2_writer.mjs';

export const KERNEL_SPECS = [
  { name: 'gemm_256x256x256', kind: 'gemm', m: 256, k: 256, n: 256 },
  { name: 'gemm_512x512x512', kind: 'gemm', m: 512, k: 512, n: 512 },
  { name: 'gemm_1024x1024x1024', kind: 'gemm', m: 1024, k: 1024, n: 1024 },
  { name: 'gemv_1x1024x1024', kind: 'gemm', m: 1, k: 1024, n: 1024 },
  { name: 'gemm_4x1024x1024', kind: 'gemm', m: 4, k: 1024, n: 1024 },
  { name: 'linear_1x1024x1000', kind: 'linear', m: 1, k: 1024, n: 1000 },
  { name: 'linear_4x1024x1000', kind: 'linear', m: 4, k: 1024, n: 1000 },
  { name: 'linear_8x1024x1000', kind: 'linear', m: 8, k: 1024, n: 1000 },
  { name: 'conv3x3_64to64_56x56', kind: 'conv', batch: 1, cin: 64, h: 56, w: 56, cout: 64, kernel: 3, stride: 1, pad: 1, groups: 1 },
  { name: 'conv1x1_24to144_56x56', kind: 'conv', batch: 1, cin: 24, h: 56, w: 56, cout: 144, kernel: 1, stride: 1, pad: 0, groups: 1 },
  { name: 'conv1x1_160to960_7x7', kind: 'conv', batch: 1, cin: 160, h: 7, w: 7, cout: 960, kernel: 1, stride: 1, pad: 0, groups: 1 },
  { name: 'dwconv3x3_144_56x56', kind: 'conv', batch: 1, cin: 144, h: 56, w: 56, cout: 144, kernel: 3, stride: 1, pad: 1, groups: 144 },
  { name: 'dwconv3x3_96_112x112_s2', kind: 'conv', batch: 1, cin: 96, h: 112, w: 112, cout: 96, kernel: 3, stride: 2, pad: 1, groups: 96 },
];

const INPUT = 'x';
const OUTPUT = 'y';

function buildGemm({ name, m, k, n }) {
  const w = randomFloats(`${name}/w`, k * n, 1 / Math.sqrt(k));
  const pt2 = writeSingleNodePt2({
    target: 'torch.ops.aten.mm.default',
    input: { name: INPUT, shape: [m, k] },
    parameters: [{ fqn: 'w', placeholder: 'p_w', shape: [k, n], data: w }],
    nodeInputs: [
      { name: 'self', arg: arg.tensor(INPUT) },
      { name: 'mat2', arg: arg.tensor('p_w') },
    ],
    output: { name: OUTPUT, shape: [m, n] },
  });
  const onnx = encodeOnnxModel({
    name,
    nodes: [{ opType: 'MatMul', inputs: [INPUT, 'w'], outputs: [OUTPUT] }],
    inputs: [{ name: INPUT, shape: [m, k] }],
    outputs: [{ name: OUTPUT, shape: [m, n] }],
    initializers: [{ name: 'w', dims: [k, n], data: w }],
  });
  return { pt2, onnx, inputShape: [m, k], flops: 2 * m * k * n };
}

function buildLinear({ name, m, k, n }) {
  const w = randomFloats(`${name}/w`, n * k, 1 / Math.sqrt(k));
  const b = randomFloats(`${name}/b`, n, 1 / Math.sqrt(k));
  const pt2 = writeSingleNodePt2({
    target: 'torch.ops.aten.linear.default',
    input: { name: INPUT, shape: [m, k] },
    parameters: [
      { fqn: 'weight', placeholder: 'p_weight', shape: [n, k], data: w },
      { fqn: 'bias', placeholder: 'p_bias', shape: [n], data: b },
    ],
    nodeInputs: [
      { name: 'input', arg: arg.tensor(INPUT) },
      { name: 'weight', arg: arg.tensor('p_weight') },
      { name: 'bias', arg: arg.tensor('p_bias') },
    ],
    output: { name: OUTPUT, shape: [m, n] },
  });
  const onnx = encodeOnnxModel({
    name,
    nodes: [{ opType: 'Gemm', inputs: [INPUT, 'weight', 'bias'], outputs: [OUTPUT], attributes: { transB: 1 } }],
    inputs: [{ name: INPUT, shape: [m, k] }],
    outputs: [{ name: OUTPUT, shape: [m, n] }],
    initializers: [
      { name: 'weight', dims: [n, k], data: w },
      { name: 'bias', dims: [n], data: b },
    ],
  });
  return { pt2, onnx, inputShape: [m, k], flops: 2 * m * k * n };
}

function convOutputSize(size, kernel, stride, pad) {
  return Math.floor((size + 2 * pad - kernel) / stride) + 1;
}

function buildConv({ name, batch, cin, h, w, cout, kernel, stride, pad, groups }) {
  const ho = convOutputSize(h, kernel, stride, pad);
  const wo = convOutputSize(w, kernel, stride, pad);
  const weightShape = [cout, cin / groups, kernel, kernel];
  const fanIn = (cin / groups) * kernel * kernel;
  const weight = randomFloats(`${name}/w`, sizeOf(weightShape), 1 / Math.sqrt(fanIn));
  const inputShape = [batch, cin, h, w];
  const outputShape = [batch, cout, ho, wo];
  const pt2 = writeSingleNodePt2({
    target: 'torch.ops.aten.convolution.default',
    input: { name: INPUT, shape: inputShape },
    parameters: [{ fqn: 'weight', placeholder: 'p_weight', shape: weightShape, data: weight }],
    nodeInputs: [
      { name: 'input', arg: arg.tensor(INPUT) },
      { name: 'weight', arg: arg.tensor('p_weight') },
      { name: 'bias', arg: arg.none() },
      { name: 'stride', arg: arg.ints([stride, stride]) },
      { name: 'padding', arg: arg.ints([pad, pad]) },
      { name: 'dilation', arg: arg.ints([1, 1]) },
      { name: 'transposed', arg: arg.bool(false) },
      { name: 'output_padding', arg: arg.ints([0, 0]) },
      { name: 'groups', arg: arg.int(groups) },
    ],
    output: { name: OUTPUT, shape: outputShape },
  });
  const onnx = encodeOnnxModel({
    name,
    nodes: [
      {
        opType: 'Conv',
        inputs: [INPUT, 'weight'],
        outputs: [OUTPUT],
        attributes: {
          kernel_shape: [kernel, kernel],
          strides: [stride, stride],
          pads: [pad, pad, pad, pad],
          dilations: [1, 1],
          group: groups,
        },
      },
    ],
    inputs: [{ name: INPUT, shape: inputShape }],
    outputs: [{ name: OUTPUT, shape: outputShape }],
    initializers: [{ name: 'weight', dims: weightShape, data: weight }],
  });
  const flops = 2 * batch * cout * ho * wo * fanIn;
  return { pt2, onnx, inputShape, flops };
}

/**
 * Builds one kernel model for both runtimes.
 * @returns {{pt2: Uint8Array, onnx: Uint8Array, inputShape: number[], flops: number}}
 */
export function buildKernelModel(spec) {
  if (spec.kind === 'gemm') return buildGemm(spec);
  if (spec.kind === 'linear') return buildLinear(spec);
  if (spec.kind === 'conv') return buildConv(spec);
  throw new Error(`kernel ${spec.name}: unknown kind '${spec.kind}'`);
}

/**
 * A tiny model, y = relu(x) with x [1], for both runtimes: each runtime's
 * start-up loads and runs it once, so that one-time costs (instantiation,
 * first-call compilation of the common paths) stay out of the load times.
 * @returns {{pt2: Uint8Array, onnx: Uint8Array}}
 */
export function warmupModel() {
  const pt2 = writeSingleNodePt2({
    target: 'torch.ops.aten.relu.default',
    input: { name: INPUT, shape: [1] },
    parameters: [],
    nodeInputs: [{ name: 'self', arg: arg.tensor(INPUT) }],
    output: { name: OUTPUT, shape: [1] },
  });
  const onnx = encodeOnnxModel({
    name: 'warmup',
    nodes: [{ opType: 'Relu', inputs: [INPUT], outputs: [OUTPUT] }],
    inputs: [{ name: INPUT, shape: [1] }],
    outputs: [{ name: OUTPUT, shape: [1] }],
  });
  return { pt2, onnx };
}
