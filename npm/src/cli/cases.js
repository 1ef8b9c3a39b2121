// Reads the fixtures' cases.json encoding (tests/fixtures/README.md) into the
// values Program.run() takes, keeping every Python distinction with tagged
// forms: tuples, lists and dicts stay tagged, integral floats become float(x).

import { readFile } from 'node:fs/promises';

import { Tensor, arrayClassOf } from '../tensor.js';

const SPECIAL_FLOATS = { inf: Infinity, '-inf': -Infinity, nan: NaN };

/** A float from the encoding (a number, or "inf", "-inf", "nan"). */
export function decodeFloat(x) {
  return typeof x === 'string' ? SPECIAL_FLOATS[x] : x;
}

/** A Tensor from {dtype, shape, data: base64}; the bytes are copied into an aligned array. */
export function decodeTensor({ dtype, shape, data }) {
  const raw = Buffer.from(data, 'base64');
  const bytes = new Uint8Array(raw.length);
  bytes.set(raw);
  const ArrayClass = arrayClassOf(dtype);
  return new Tensor(dtype, new ArrayClass(bytes.buffer, 0, bytes.length / ArrayClass.BYTES_PER_ELEMENT), shape);
}

/** An encoded value as a program input. */
export function decodeValue(encoded) {
  if (encoded === null) return null;
  if ('tensor' in encoded) return decodeTensor(encoded.tensor);
  if ('int' in encoded) {
    const x = encoded.int;
    return Number.isSafeInteger(x) ? x : { int: String(x) };
  }
  if ('float' in encoded) {
    const x = decodeFloat(encoded.float);
    return Number.isInteger(x) ? { float: x } : x;
  }
  if ('bool' in encoded) return encoded.bool;
  if ('str' in encoded) return encoded.str;
  if ('tuple' in encoded) return { tuple: encoded.tuple.map(decodeValue) };
  if ('list' in encoded) return { list: encoded.list.map(decodeValue) };
  if ('dict' in encoded) return { dict: encoded.dict.map(([k, v]) => [k, decodeValue(v)]) };
  if ('namedtuple' in encoded) return { tuple: encoded.namedtuple.values.map(decodeValue) };
  // A dataclass: a plain object of its fields (what pt2web takes and returns).
  if ('dataclass' in encoded) {
    const { fields, values } = encoded.dataclass;
    return Object.fromEntries(fields.map((field, k) => [field, decodeValue(values[k])]));
  }
  throw new Error(`unknown value encoding: ${JSON.stringify(encoded).slice(0, 80)}`);
}

/** The call of a case: positional args as an array, kwargs as a plain object. */
export function decodeCall(testCase) {
  const args = testCase.args.tuple.map(decodeValue);
  const kwargs = Object.fromEntries(testCase.kwargs.dict.map(([k, v]) => [k, decodeValue(v)]));
  return { args, kwargs };
}

/** Parses a cases.json file. */
export async function readCases(path) {
  let cases;
  try {
    cases = JSON.parse(await readFile(path, 'utf8'));
  } catch (cause) {
    throw new Error(`cannot read cases: ${cause.message}`);
  }
  if (cases.format !== 'pt2web-cases/1') throw new Error(`${path}: unknown format ${cases.format}`);
  return cases;
}
