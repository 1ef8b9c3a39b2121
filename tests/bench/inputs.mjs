// Deterministic pseudo-random data for the benchmark: the same seed gives
// the same inputs (and kernel weights) in every process, so both runtimes
// see identical bytes. A plain array description {dtype, shape, data} is
// the common form; the runners wrap it in their own tensor classes. The
// generator is the package's (npm/src/random.js).

import { seededRandom } from '../../npm/src/random.js';

/** A stable 32-bit seed from a text (FNV-1a), e.g. a model or tensor name. */
export function seedOf(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export function sizeOf(shape) {
  return shape.reduce((a, b) => a * b, 1);
}

/** float32 values uniform in [-scale, scale). */
export function randomFloats(seedText, count, scale = 1) {
  const next = seededRandom(seedOf(seedText));
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) out[i] = (next() * 2 - 1) * scale;
  return out;
}

/** int64 values uniform in [0, high). */
export function randomIndices(seedText, count, high) {
  if (!(Number.isInteger(high) && high > 0)) throw new RangeError(`${seedText}: index bound must be a positive integer, got ${high}`);
  const next = seededRandom(seedOf(seedText));
  const out = new BigInt64Array(count);
  for (let i = 0; i < count; i++) out[i] = BigInt(Math.floor(next() * high));
  return out;
}

/**
 * One input of a benchmark model.
 * @param {string} seedText e.g. 'mobilenet_v2/x'
 * @param {string} dtype 'float32' or 'int64'
 * @param {number[]} shape
 * @param {{high?: number}} [range] int64: values in [0, high)
 * @returns {{dtype: string, shape: number[], data: Float32Array|BigInt64Array}}
 */
export function makeInput(seedText, dtype, shape, range = {}) {
  const count = sizeOf(shape);
  if (dtype === 'float32') return { dtype, shape, data: randomFloats(seedText, count) };
  if (dtype === 'int64') return { dtype, shape, data: randomIndices(seedText, count, range.high) };
  throw new Error(`${seedText}: the benchmark makes float32 and int64 inputs only, not ${dtype}`);
}
