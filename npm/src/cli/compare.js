// Compares a result with an expected value in the fixtures' encoding:
// pytree structure, dtypes and shapes must match; floats within
// |got - want| <= atol + rtol * |want| elementwise (NaN equals NaN, infinities
// must be equal); integers, bools and strings exactly.

import { bfloat16ToNumber, float16ToNumber } from '../half.js';
import { decodeFloat, decodeTensor } from './cases.js';

const FLOAT_DTYPES = new Set(['float16', 'bfloat16', 'float32', 'float64', 'complex64', 'complex128']);

function numbers(tensor) {
  if (tensor.dtype === 'float16') return Array.from(tensor.data, float16ToNumber);
  if (tensor.dtype === 'bfloat16') return Array.from(tensor.data, bfloat16ToNumber);
  return tensor.data;
}

// Strips run()'s input tags ({tuple}, {list}, {dict}, {float}, {int}) so
// mutated inputs can be compared like outputs.
function untag(value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || ArrayBuffer.isView(value.data)) {
    return value;
  }
  const keys = Object.keys(value);
  if (keys.length !== 1) return value;
  const [tag] = keys;
  if (tag === 'tuple' || tag === 'list') return value[tag];
  if (tag === 'float') return value.float;
  if (tag === 'int') return typeof value.int === 'string' ? BigInt(value.int) : value.int;
  if (tag === 'dict') return Object.fromEntries(value.dict);
  return value;
}

class Comparison {
  constructor(rtol, atol) {
    this.rtol = rtol;
    this.atol = atol;
    this.maxError = 0;
    this.problem = null;
  }

  fail(path, message) {
    if (!this.problem) this.problem = `${path || 'output'}: ${message}`;
  }

  float(path, got, want) {
    if (Number.isNaN(want)) {
      if (!Number.isNaN(got)) this.fail(path, `got ${got}, want nan`);
      return;
    }
    if (!Number.isFinite(want)) {
      if (got !== want) this.fail(path, `got ${got}, want ${want}`);
      return;
    }
    const error = Math.abs(got - want);
    if (!(error <= this.atol + this.rtol * Math.abs(want))) {
      this.fail(path, `got ${got}, want ${want} (error ${error.toExponential(3)})`);
    }
    if (Number.isFinite(error)) this.maxError = Math.max(this.maxError, error);
    else this.maxError = Infinity;
  }

  tensor(path, got, wantEncoded) {
    if (!got || typeof got !== 'object' || !ArrayBuffer.isView(got.data)) {
      return this.fail(path, `got ${describe(got)}, want a tensor`);
    }
    const want = decodeTensor(wantEncoded);
    if (got.dtype !== want.dtype) return this.fail(path, `dtype ${got.dtype}, want ${want.dtype}`);
    if (got.shape.length !== want.shape.length || got.shape.some((d, i) => d !== want.shape[i])) {
      return this.fail(path, `shape [${got.shape.join(', ')}], want [${want.shape.join(', ')}]`);
    }
    if (FLOAT_DTYPES.has(want.dtype)) {
      const g = numbers(got);
      const w = numbers(want);
      for (let i = 0; i < w.length; i++) this.float(`${path}[flat ${i}]`, g[i], w[i]);
      return;
    }
    for (let i = 0; i < want.data.length; i++) {
      if (got.data[i] !== want.data[i]) {
        return this.fail(path, `element ${i} is ${got.data[i]}, want ${want.data[i]}`);
      }
    }
  }

  value(path, got, want) {
    got = untag(got);
    if (want === null) {
      if (got !== null) this.fail(path, `got ${describe(got)}, want None`);
      return;
    }
    if ('tensor' in want) return this.tensor(path, got, want.tensor);
    if ('int' in want) {
      const ok = typeof got === 'bigint' ? got === BigInt(want.int) : got === want.int;
      if (!ok) this.fail(path, `got ${describe(got)}, want int ${want.int}`);
      return;
    }
    if ('float' in want) {
      if (typeof got !== 'number') return this.fail(path, `got ${describe(got)}, want a float`);
      return this.float(path, got, decodeFloat(want.float));
    }
    if ('bool' in want) {
      if (got !== want.bool) this.fail(path, `got ${describe(got)}, want ${want.bool}`);
      return;
    }
    if ('str' in want) {
      if (got !== want.str) this.fail(path, `got ${describe(got)}, want '${want.str}'`);
      return;
    }
    const items = want.tuple ?? want.list ?? want.namedtuple?.values;
    if (items) {
      if (!Array.isArray(got)) return this.fail(path, `got ${describe(got)}, want a sequence of ${items.length}`);
      if (got.length !== items.length) return this.fail(path, `got ${got.length} items, want ${items.length}`);
      items.forEach((item, i) => this.value(`${path}[${i}]`, got[i], item));
      return;
    }
    if (want.dict) {
      if (!got || typeof got !== 'object' || Array.isArray(got)) return this.fail(path, `got ${describe(got)}, want a dict`);
      const gotKeys = Object.keys(got);
      const wantKeys = want.dict.map(([k]) => String(k));
      if (gotKeys.join('\u0000') !== wantKeys.join('\u0000')) {
        return this.fail(path, `keys [${gotKeys.join(', ')}], want [${wantKeys.join(', ')}]`);
      }
      want.dict.forEach(([k, v]) => this.value(`${path}['${k}']`, got[String(k)], v));
      return;
    }
    if (want.dataclass) {
      // A plain object with the field names (fields that were None come last).
      const { fields, values } = want.dataclass;
      if (!got || typeof got !== 'object' || Array.isArray(got)) return this.fail(path, `got ${describe(got)}, want a dataclass`);
      const gotKeys = Object.keys(got).sort();
      if (gotKeys.join('\u0000') !== [...fields].sort().join('\u0000')) {
        return this.fail(path, `fields [${Object.keys(got).join(', ')}], want [${fields.join(', ')}]`);
      }
      fields.forEach((field, k) => this.value(`${path}.${field}`, got[field], values[k]));
      return;
    }
    this.fail(path, `unknown expected encoding ${JSON.stringify(want).slice(0, 60)}`);
  }
}

function describe(value) {
  if (value === null) return 'None';
  if (Array.isArray(value)) return `a sequence of ${value.length}`;
  if (value && typeof value === 'object' && ArrayBuffer.isView(value.data)) return `a ${value.dtype} tensor`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

/**
 * Compares pairs of [label, got, want]; returns {ok, maxError, problem}
 * (problem: the first mismatch, naming where it is).
 */
export function compareAll(pairs, { rtol = 0, atol = 0 } = {}) {
  const comparison = new Comparison(rtol, atol);
  for (const [label, got, want] of pairs) comparison.value(label, got, want);
  return { ok: comparison.problem === null, maxError: comparison.maxError, problem: comparison.problem };
}
