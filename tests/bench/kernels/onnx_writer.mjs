// Hand-encodes minimal ONNX models (ModelProto, IR version 8, opset 17) for
// the kernel-level benchmark rows: one graph of a few nodes, float32
// tensors, weights stored as initializers (raw little-endian data).
//
// Field numbers follow onnx/onnx.proto3: ModelProto{ir_version=1,
// producer_name=2, graph=7, opset_import=8}, GraphProto{node=1, name=2,
// initializer=5, input=11, output=12}, NodeProto{input=1, output=2, name=3,
// op_type=4, attribute=5}, AttributeProto{name=1, i=3, ints=8, type=20},
// TensorProto{dims=1, data_type=2, name=8, raw_data=9}, ValueInfoProto{name=1,
// type=2}, TypeProto{tensor_type=1}, TypeProto.Tensor{elem_type=1, shape=2},
// TensorShapeProto{dim=1}, Dimension{dim_value=1}.

import { MessageWriter } from './protobuf.mjs';

const ONNX_FLOAT = 1;
const ATTRIBUTE_INT = 2;
const ATTRIBUTE_INTS = 7;
const IR_VERSION = 8;
const OPSET = 17;

function tensorProto(name, dims, data) {
  if (!(data instanceof Float32Array)) throw new TypeError(`initializer ${name}: expected a Float32Array`);
  const raw = new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice();
  return new MessageWriter().varints(1, dims).varint(2, ONNX_FLOAT).string(8, name).bytes(9, raw).finish();
}

function valueInfo(name, shape) {
  const dims = new MessageWriter();
  for (const d of shape) dims.bytes(1, new MessageWriter().varint(1, d).finish());
  const tensorType = new MessageWriter().varint(1, ONNX_FLOAT).bytes(2, dims.finish()).finish();
  const type = new MessageWriter().bytes(1, tensorType).finish();
  return new MessageWriter().string(1, name).bytes(2, type).finish();
}

function attributeProto(name, value) {
  const w = new MessageWriter().string(1, name);
  if (Array.isArray(value)) w.varints(8, value).varint(20, ATTRIBUTE_INTS);
  else if (Number.isInteger(value)) w.varint(3, value).varint(20, ATTRIBUTE_INT);
  else throw new TypeError(`attribute ${name}: only ints and int lists are supported`);
  return w.finish();
}

function nodeProto({ opType, inputs, outputs, name, attributes = {} }) {
  const w = new MessageWriter();
  for (const i of inputs) w.string(1, i);
  for (const o of outputs) w.string(2, o);
  w.string(3, name ?? opType).string(4, opType);
  for (const [key, value] of Object.entries(attributes)) w.bytes(5, attributeProto(key, value));
  return w.finish();
}

/**
 * Encodes a float32 ONNX model.
 * @param {object} spec
 * @param {Array<{opType, inputs, outputs, name?, attributes?}>} spec.nodes
 * @param {Array<{name, shape}>} spec.inputs graph inputs (static shapes)
 * @param {Array<{name, shape}>} spec.outputs graph outputs
 * @param {Array<{name, dims, data: Float32Array}>} [spec.initializers]
 * @returns {Uint8Array} the serialized ModelProto
 */
export function encodeOnnxModel({ name = 'bench', nodes, inputs, outputs, initializers = [] }) {
  const graph = new MessageWriter();
  for (const node of nodes) graph.bytes(1, nodeProto(node));
  graph.string(2, name);
  for (const init of initializers) graph.bytes(5, tensorProto(init.name, init.dims, init.data));
  for (const input of inputs) graph.bytes(11, valueInfo(input.name, input.shape));
  for (const output of outputs) graph.bytes(12, valueInfo(output.name, output.shape));
  const opset = new MessageWriter().string(1, '').varint(2, OPSET).finish();
  return new MessageWriter()
    .varint(1, IR_VERSION)
    .string(2, 'pt2web-bench')
    .bytes(7, graph.finish())
    .bytes(8, opset)
    .finish();
}
