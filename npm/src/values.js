// Program inputs and outputs as JS values (the calling convention of run()):
//   Tensor (or any {dtype, shape, data}) <-> tensor
//   Array <-> tuple or list (the program's input spec decides which)
//   plain object <-> dict;  null <-> None;  boolean <-> bool;  string <-> str
//   number <-> int when integral, float otherwise; BigInt -> int
// The helpers below say exactly what is meant where a plain JS value cannot:
// float(3) is a float although integral; tuple()/list() insist on one
// sequence kind (as torch does); dict() allows integer keys.
// Two more JS forms are accepted and turned into those (nativeCall): a Map
// is a dict, and an onnxruntime-web Tensor ({type, dims, data}) a tensor
// sharing its data.

import { BadInputError } from './errors.js';
import { DTYPES, Tensor } from './tensor.js';

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

/**
 * A Python dict from [key, value] pairs, keys strings or integers.
 * @param {Iterable<readonly [string | number, any]>} pairs
 * @returns {{dict: Array<[string | number, any]>}}
 */
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

function isPlainObject(value) {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

// onnxruntime-web's Tensor: {type, dims, data}, no dtype.
function isOrtTensor(value) {
  return typeof value.type === 'string' && Array.isArray(value.dims) && !('dtype' in value) && 'data' in value;
}

function fromOrtTensor(value) {
  if (!DTYPES.includes(value.type)) {
    throw new BadInputError(`an onnxruntime-web Tensor of type '${value.type}' has no pt2web dtype (pt2web holds ${DTYPES.join(', ')})`);
  }
  return new Tensor(value.type, value.data, value.dims);
}

// One value for the bindings (see the header).
function toNativeValue(value) {
  if (value === null || typeof value !== 'object' || isRawTensor(value) || value instanceof Tensor) return value;
  if (value instanceof Map) return { dict: Array.from(value, ([key, item]) => [key, toNativeValue(item)]) };
  if (isOrtTensor(value)) return fromOrtTensor(value);
  if (Array.isArray(value)) return value.map(toNativeValue);
  if (!isPlainObject(value)) return value;
  const out = {};
  for (const [key, item] of Object.entries(value)) out[key] = toNativeValue(item);
  return out;
}

function hasOwnKeys(object) {
  for (const key in object) if (Object.hasOwn(object, key)) return true;
  return false;
}

/**
 * run()'s (args, kwargs) as the bindings read them: Maps as dicts,
 * onnxruntime-web Tensors as tensors; everything else as given (the
 * bindings check it). kwargs may be a Map too.
 */
export function nativeCall(args, kwargs) {
  const named = kwargs instanceof Map ? Object.fromEntries(kwargs) : kwargs;
  return {
    args: Array.isArray(args) ? args.map(toNativeValue) : args,
    // No keywords travel as null: the bindings then skip reading an empty object.
    kwargs:
      named !== null && typeof named === 'object' && isPlainObject(named)
        ? hasOwnKeys(named)
          ? toNativeValue(named)
          : null
        : named,
  };
}

/**
 * run(feeds): one object (or Map) and no second argument, as onnxruntime-web
 * users pass their feeds, is run([], feeds) for a program whose inputs are
 * all keywords (every transformers model). A program that also takes
 * positional inputs says which, and how to call it. `inputs` is the
 * program's input description (Program.inputs).
 */
export function callOf(args, kwargs, inputs) {
  const feeds =
    kwargs === undefined && args !== null && typeof args === 'object' && !Array.isArray(args) &&
    !(args instanceof Tensor) && !isRawTensor(args) && (args instanceof Map || isPlainObject(args));
  if (!feeds) return nativeCall(args, kwargs);
  const positional = inputs.filter((input) => input.path.startsWith('*args'));
  if (positional.length > 0) {
    const keywords = inputs.filter((input) => input.path.startsWith('**kwargs')).map((input) => input.path);
    throw new BadInputError(
      `run(feeds) with one object is for programs whose inputs are all keywords; this one takes ` +
        `${positional.length} positional input${positional.length === 1 ? '' : 's'} (` +
        `${positional.map((input) => input.path).join(', ')})` +
        (keywords.length ? ` and keywords ${keywords.join(', ')}` : '') +
        ': call run([positional...], {keywords...})',
    );
  }
  return nativeCall([], args);
}

