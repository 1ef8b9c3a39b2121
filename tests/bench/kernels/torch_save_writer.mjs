// Writes what torch.save writes for a dict of float32 parameters: a ZIP
// (root folder "archive/") holding data.pkl, a protocol-2 pickle that
// rebuilds each tensor with torch._utils._rebuild_tensor_v2 from a
// persistent-id storage record and wraps it with _rebuild_parameter,
// plus one data/<key> record of raw little-endian bytes per storage.
// Only the opcodes the pickle allowlist of torch.load(weights_only=True)
// accepts are used (see /work/shared/docs/PT2-FORMAT.md section 3).

import { writeStoredZip } from './zip_writer.mjs';

const textEncoder = new TextEncoder();

class PickleWriter {
  #bytes = [];

  op(code) {
    this.#bytes.push(code.charCodeAt(0));
    return this;
  }

  global(module, name) {
    this.op('c');
    for (const b of textEncoder.encode(`${module}\n${name}\n`)) this.#bytes.push(b);
    return this;
  }

  string(text) {
    const body = textEncoder.encode(text);
    this.op('X');
    this.#int32(body.length);
    for (const b of body) this.#bytes.push(b);
    return this;
  }

  int(value) {
    if (!Number.isInteger(value) || value < -(2 ** 31) || value >= 2 ** 31) {
      throw new RangeError(`pickle writer: ${value} does not fit BININT`);
    }
    this.op('J');
    this.#int32(value);
    return this;
  }

  intTuple(values) {
    this.op('(');
    for (const v of values) this.int(v);
    return this.op('t');
  }

  emptyOrderedDict() {
    return this.global('collections', 'OrderedDict').op(')').op('R');
  }

  #int32(value) {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setInt32(0, value, true);
    this.#bytes.push(...b);
  }

  finish() {
    return Uint8Array.from(this.#bytes);
  }
}

function contiguousStrides(shape) {
  const strides = new Array(shape.length);
  let s = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    strides[i] = s;
    s *= shape[i];
  }
  return strides;
}

/**
 * torch.save of {name: nn.Parameter} (float32, contiguous).
 * @param {Array<{name: string, shape: number[], data: Float32Array}>} parameters
 * @returns {Uint8Array} the torch.save ZIP
 */
export function torchSaveParameters(parameters) {
  const p = new PickleWriter().op('\x80').op('\x02').op('}');
  const storages = [];
  if (parameters.length > 0) p.op('(');
  parameters.forEach(({ name, shape, data }, key) => {
    const numel = shape.reduce((a, b) => a * b, 1);
    if (!(data instanceof Float32Array) || data.length !== numel) {
      throw new TypeError(`parameter ${name}: expected ${numel} float32 elements`);
    }
    p.string(name).global('torch._utils', '_rebuild_parameter').op('(');
    p.global('torch._utils', '_rebuild_tensor_v2').op('(');
    p.op('(').string('storage').global('torch', 'FloatStorage').string(String(key)).string('cpu').int(numel).op('t');
    p.op('Q'); // BINPERSID: the storage record data/<key>
    p.int(0).intTuple(shape).intTuple(contiguousStrides(shape)).op('\x89').emptyOrderedDict();
    p.op('t').op('R'); // the tensor
    p.op('\x88').emptyOrderedDict().op('t').op('R'); // Parameter(tensor, requires_grad=True)
    storages.push({ name: `archive/data/${key}`, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) });
  });
  if (parameters.length > 0) p.op('u');
  p.op('.');
  return writeStoredZip([
    { name: 'archive/data.pkl', data: p.finish() },
    { name: 'archive/byteorder', data: 'little' },
    ...storages,
    { name: 'archive/version', data: '3\n' },
  ]);
}
