// Tensor: a dtype, a shape and the elements in a typed array (row-major).
//
// Each dtype has one typed array class: Float32Array (float32), Float64Array
// (float64), BigInt64Array (int64), Int32Array, Int16Array, Int8Array,
// Uint8Array (uint8, and bool as 0/1), Uint16Array (float16 and bfloat16 as
// raw bits: a Uint16Array is taken as bits, any other data as numbers to
// encode); complex64/complex128 interleave real and imaginary parts in a
// Float32Array/Float64Array. Data of another kind (a plain array, another
// typed array) is converted into a new array of the right class; numbers
// for 64-bit integer dtypes must be integers (BigInts are taken as they are),
// and numbers for the smaller integer dtypes must fit (no silent wrapping).
//
// A Tensor is plain JS memory: it owns nothing in the wasm heap and needs no
// dispose(). run() copies inputs in and outputs out.

import { BadInputError } from './errors.js';
import { bfloat16ToNumber, float16ToNumber, numberToBfloat16, numberToFloat16 } from './half.js';

/**
 * @typedef {'float32'|'float64'|'float16'|'bfloat16'|'int64'|'int32'|'int16'|'int8'|'uint8'|'bool'|'uint16'|'uint32'|'uint64'|'complex64'|'complex128'} DType
 * @typedef {Float32Array|Float64Array|BigInt64Array|Int32Array|Int16Array|Int8Array|Uint8Array|Uint16Array|Uint32Array|BigUint64Array} TypedArray
 * @typedef {{float32: Float32Array, float64: Float64Array, float16: Uint16Array, bfloat16: Uint16Array,
 *   int64: BigInt64Array, int32: Int32Array, int16: Int16Array, int8: Int8Array, uint8: Uint8Array,
 *   bool: Uint8Array, uint16: Uint16Array, uint32: Uint32Array, uint64: BigUint64Array,
 *   complex64: Float32Array, complex128: Float64Array}} TypedArrayOf
 */

const ARRAY_CLASSES = {
  float32: Float32Array,
  float64: Float64Array,
  float16: Uint16Array,
  bfloat16: Uint16Array,
  int64: BigInt64Array,
  int32: Int32Array,
  int16: Int16Array,
  int8: Int8Array,
  uint8: Uint8Array,
  bool: Uint8Array,
  uint16: Uint16Array,
  uint32: Uint32Array,
  uint64: BigUint64Array,
  complex64: Float32Array,
  complex128: Float64Array,
};

/**
 * The dtypes a Tensor can hold.
 * @type {readonly DType[]}
 */
export const DTYPES = Object.freeze(/** @type {DType[]} */ (Object.keys(ARRAY_CLASSES)));

/** The typed array class that holds a dtype's elements. */
export function arrayClassOf(dtype) {
  const ArrayClass = ARRAY_CLASSES[dtype];
  if (!ArrayClass) throw new BadInputError(`unknown dtype '${dtype}' (expected one of ${DTYPES.join(', ')})`);
  return ArrayClass;
}

// The dtype a typed array holds when no dtype is given (new Tensor(data, shape)).
const DTYPE_OF_ARRAY = new Map([
  [Float32Array, 'float32'],
  [Float64Array, 'float64'],
  [BigInt64Array, 'int64'],
  [Int32Array, 'int32'],
  [Int16Array, 'int16'],
  [Int8Array, 'int8'],
  [Uint8Array, 'uint8'],
  [Uint8ClampedArray, 'uint8'],
  [Uint16Array, 'uint16'],
  [Uint32Array, 'uint32'],
  [BigUint64Array, 'uint64'],
]);

// The values of the integer dtypes up to 32 bits.
const INTEGER_RANGES = {
  int8: [-128, 127],
  uint8: [0, 255],
  int16: [-32768, 32767],
  uint16: [0, 65535],
  int32: [-2147483648, 2147483647],
  uint32: [0, 4294967295],
};

function lanesOf(dtype) {
  return dtype === 'complex64' || dtype === 'complex128' ? 2 : 1;
}

function convertData(dtype, data) {
  const ArrayClass = ARRAY_CLASSES[dtype];
  if (data instanceof ArrayClass) return data;
  if (dtype === 'uint8' && data instanceof Uint8ClampedArray) return data;
  const items = Array.from(data);
  if (ArrayClass === BigInt64Array || ArrayClass === BigUint64Array) {
    return ArrayClass.from(items, (x, i) => {
      if (typeof x === 'bigint') return x;
      const n = Number(x);
      if (!Number.isInteger(n)) throw new BadInputError(`${dtype} element ${i} is ${x}, not an integer`);
      return BigInt(n);
    });
  }
  if (dtype === 'bool') return Uint8Array.from(items, (x) => (x ? 1 : 0));
  if (dtype === 'float16') return Uint16Array.from(items, (x) => numberToFloat16(Number(x)));
  if (dtype === 'bfloat16') return Uint16Array.from(items, (x) => numberToBfloat16(Number(x)));
  const range = INTEGER_RANGES[dtype];
  if (!range) return ArrayClass.from(items, (x) => Number(x));
  // Like torch.tensor(): fractions truncate toward zero, values out of range are refused (a typed array would wrap them).
  return ArrayClass.from(items, (x, i) => {
    const n = Math.trunc(Number(x));
    if (!(n >= range[0] && n <= range[1])) {
      throw new BadInputError(`${dtype} element ${i} is ${x}, which ${dtype} cannot hold (it holds ${range[0]} to ${range[1]})`);
    }
    return n;
  });
}

/** @template {DType} [T=DType] */
export class Tensor {
  /**
   * new Tensor(dtype, data, shape) or new Tensor(typedArray, shape)
   * (../index.d.ts spells out the two forms).
   * @param {T | TypedArray | Uint8ClampedArray} dtype one of DTYPES, or a typed array whose class names the dtype
   * @param {any} [data] elements in row-major order (ArrayLike<number|bigint|boolean>), or the typed array form's shape
   * @param {readonly number[]} [shape] defaults to a 1-d shape holding all of data
   */
  constructor(dtype, data, shape) {
    if (typeof dtype !== 'string') {
      const inferred = DTYPE_OF_ARRAY.get(dtype?.constructor);
      if (!inferred) {
        throw new BadInputError('new Tensor() needs a dtype string first, or a typed array whose class names the dtype');
      }
      [dtype, data, shape] = [inferred, dtype, data];
    }
    arrayClassOf(dtype);
    if (data === null || typeof data !== 'object' || typeof data.length !== 'number') {
      throw new BadInputError(`new Tensor('${dtype}', data): data must be an array or typed array`);
    }
    const array = convertData(dtype, data);
    const lanes = lanesOf(dtype);
    if (shape !== undefined && (shape === null || typeof shape !== 'object' || typeof shape.length !== 'number')) {
      throw new BadInputError(`tensor shape must be an array of sizes, got ${String(shape)}`);
    }
    const dims = shape === undefined ? [array.length / lanes] : Array.from(shape, Number);
    for (const d of dims) {
      if (!Number.isInteger(d) || d < 0) throw new BadInputError(`invalid tensor shape [${dims.join(', ')}]`);
    }
    const size = dims.reduce((a, b) => a * b, 1);
    if (size * lanes !== array.length) {
      throw new BadInputError(`shape [${dims.join(', ')}] needs ${size * lanes} elements, data has ${array.length}`);
    }
    /** @type {T} */
    this.dtype = dtype;
    /** @type {TypedArrayOf[T]} */
    this.data = array;
    /** @type {readonly number[]} */
    this.shape = Object.freeze(dims);
  }

  /** A Tensor around a binding's raw {dtype, shape, data} (no copy). */
  static fromRaw(raw) {
    return new Tensor(raw.dtype, raw.data, raw.shape);
  }

  /** Number of elements. */
  get size() {
    return this.shape.reduce((a, b) => a * b, 1);
  }

  get rank() {
    return this.shape.length;
  }

  /**
   * The elements as plain JS values, row-major and flat: numbers (16-bit
   * floats decoded), BigInts for 64-bit integers, booleans for bool.
   */
  toArray() {
    if (this.dtype === 'float16') return Array.from(this.data, float16ToNumber);
    if (this.dtype === 'bfloat16') return Array.from(this.data, bfloat16ToNumber);
    if (this.dtype === 'bool') return Array.from(this.data, (x) => x !== 0);
    return Array.from(this.data);
  }

  toString() {
    return `Tensor(${this.dtype}[${this.shape.join(', ')}])`;
  }
}
