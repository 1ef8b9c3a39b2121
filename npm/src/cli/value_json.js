// Program values (outputs, and the inputs `run` used) as plain JSON, readable
// and easy to use from any language:
//   Tensor   -> {"dtype": "float32", "shape": [2, 3], "data": [...]} with the
//               elements flat and row-major: numbers (16-bit floats decoded),
//               booleans for bool, 64-bit integers as numbers when exact and
//               as decimal strings otherwise
//   float    -> number, or "nan" / "inf" / "-inf" (JSON has no such numbers)
//   arrays, plain objects, strings, booleans, null -> themselves
// run()'s input tags (float(x), tuple(...), ...) are written as their content.

import { Tensor } from '../tensor.js';

function number(x) {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  return x;
}

function bigint(x) {
  return x >= BigInt(Number.MIN_SAFE_INTEGER) && x <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(x) : String(x);
}

function element(x) {
  if (typeof x === 'bigint') return bigint(x);
  if (typeof x === 'number') return number(x);
  return x;
}

function isTensorLike(value) {
  return value instanceof Tensor || (typeof value?.dtype === 'string' && Array.isArray(value.shape) && ArrayBuffer.isView(value.data));
}

/** The JSON form of a value (see the header). */
export function toJsonValue(value) {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'bigint') return element(value);
  if (typeof value !== 'object') return value;
  if (isTensorLike(value)) {
    const tensor = value instanceof Tensor ? value : Tensor.fromRaw(value);
    return { dtype: tensor.dtype, shape: [...tensor.shape], data: tensor.toArray().map(element) };
  }
  if (Array.isArray(value)) return value.map(toJsonValue);
  const keys = Object.keys(value);
  if (keys.length === 1 && ['float', 'int', 'tuple', 'list'].includes(keys[0])) return toJsonValue(value[keys[0]]);
  if (keys.length === 1 && keys[0] === 'dict') {
    return Object.fromEntries(value.dict.map(([k, v]) => [String(k), toJsonValue(v)]));
  }
  return Object.fromEntries(keys.map((key) => [key, toJsonValue(value[key])]));
}

/**
 * Every tensor and scalar leaf with its path: [[path, value], ...], e.g.
 * ['[0]["a"]', Tensor]. For printing.
 */
export function leaves(value, path = '') {
  if (value === null || typeof value !== 'object' || isTensorLike(value)) return [[path || '(output)', value]];
  if (Array.isArray(value)) return value.flatMap((item, i) => leaves(item, `${path}[${i}]`));
  return Object.entries(value).flatMap(([key, item]) => leaves(item, `${path}[${JSON.stringify(key)}]`));
}

/**
 * JSON text indented like JSON.stringify(value, null, 2), except that arrays
 * of numbers, strings, booleans and nulls stay on one line (tensor data and
 * shapes remain readable).
 */
export function formatJson(value, indent = '') {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.every((item) => item === null || typeof item !== 'object')) return `[${value.map((item) => JSON.stringify(item)).join(', ')}]`;
    return `[\n${value.map((item) => inner + formatJson(item, inner)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${formatJson(item, inner)}`).join(',\n')}\n${indent}}`;
}
