// Program inputs and outputs as JS values (the calling convention of run()):
//   Tensor (or any {dtype, shape, data}) <-> tensor
//   Array <-> tuple or list (the program's input spec decides which)
//   plain object <-> dict;  null <-> None;  boolean <-> bool;  string <-> str
//   number <-> int when integral, float otherwise; BigInt -> int
// The helpers below say exactly what is meant where a plain JS value cannot:
// float(3) is a float although integral; tuple()/list() insist on one
// sequence kind (as torch does); dict() allows integer keys.

import { Tensor } from './tensor.js';

/** A Python float, even when the number is integral. */
export function float(x) {
  return { float: x };
}

/** A Python int (number, BigInt or decimal string beyond 2^53). */
export function int(x) {
  return { int: x };
}

/** A Python tuple (a plain array where the program expects a list is accepted, this is not). */
export function tuple(items) {
  return { tuple: Array.from(items) };
}

/** A Python list. */
export function list(items) {
  return { list: Array.from(items) };
}

/** A Python dict from [key, value] pairs, keys strings or integers. */
export function dict(pairs) {
  return { dict: Array.from(pairs, ([k, v]) => [k, v]) };
}

function isRawTensor(value) {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof value.dtype === 'string' &&
    Array.isArray(value.shape) &&
    ArrayBuffer.isView(value.data)
  );
}

/** Turns a binding's output value into the public form (raw tensors -> Tensor). */
export function fromNative(value) {
  if (value === null || typeof value !== 'object') return value;
  if (isRawTensor(value)) return Tensor.fromRaw(value);
  if (Array.isArray(value)) return value.map(fromNative);
  const out = {};
  for (const [key, item] of Object.entries(value)) out[key] = fromNative(item);
  return out;
}
