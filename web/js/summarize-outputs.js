// Summaries of a program's outputs (or inputs) for display: every leaf of
// the pytree with its path in Python's spelling (output[0]['logits']), and
// for tensors the dtype, shape, first values and min/max/mean (and, for a
// classifier's scores, the top classes by softmax probability); other leaves
// with their Python type and value, as small plain objects for the views.

import { formatNumber } from './format.js';

const FIRST_VALUES = 8;

function isTensor(value) {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof value.dtype === 'string' &&
    Array.isArray(value.shape) &&
    ArrayBuffer.isView(value.data)
  );
}

// The elements as plain numbers/booleans/BigInts (Tensor.toArray decodes
// 16-bit floats and bools); plain {dtype, shape, data} objects use data.
function elementsOf(tensor) {
  return typeof tensor.toArray === 'function' ? tensor.toArray() : Array.from(tensor.data);
}

function statsOf(values, dtype) {
  if (values.length === 0 || dtype === 'bool' || dtype.startsWith('complex')) return null;
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let finite = 0;
  for (const raw of values) {
    const v = Number(raw);
    if (v < min) min = v;
    if (v > max) max = v;
    if (Number.isFinite(v)) {
      sum += v;
      finite += 1;
    }
  }
  return { min: formatNumber(min), max: formatNumber(max), mean: finite ? formatNumber(sum / finite) : 'nan' };
}

const TOP_CLASSES = 5;

// A classifier's scores: a float tensor of shape [C] or [1, C] with a few
// classes or more. Its top classes by softmax probability, or null.
function topClasses(values, shape, dtype) {
  const classes = shape.at(-1);
  const looksLikeScores = /^(float|bfloat)/.test(dtype) && (shape.length === 1 || (shape.length === 2 && shape[0] === 1));
  if (!looksLikeScores || !(classes >= 3) || values.some((v) => !Number.isFinite(Number(v)))) return null;
  const scores = values.map(Number);
  const top = Math.max(...scores);
  const weights = scores.map((v) => Math.exp(v - top));
  const total = weights.reduce((a, b) => a + b, 0);
  return weights
    .map((weight, index) => ({ index, probability: weight / total }))
    .sort((a, b) => b.probability - a.probability)
    .slice(0, TOP_CLASSES);
}

function tensorSummary(path, tensor) {
  const values = elementsOf(tensor);
  return {
    classes: topClasses(values, Array.from(tensor.shape), tensor.dtype),
    path,
    kind: 'tensor',
    dtype: tensor.dtype,
    shape: Array.from(tensor.shape),
    size: values.length,
    first: values.slice(0, FIRST_VALUES).map(formatNumber),
    stats: statsOf(values, tensor.dtype),
  };
}

// Paths in Python's spelling, like the description's input paths: [0], ['key'].
function childPath(path, key) {
  return typeof key === 'number' ? `${path}[${key}]` : `${path}['${String(key).replaceAll("'", "\\'")}']`;
}

// The package's explicit value helpers (float(), int(), tuple(), list(),
// dict() in npm/src/values.js) are one-key objects; show what they stand for.
function unwrapHelper(value) {
  const keys = Object.keys(value);
  if (keys.length !== 1) return null;
  const [kind] = keys;
  const inner = value[kind];
  if ((kind === 'float' || kind === 'int') && (typeof inner === 'number' || typeof inner === 'bigint' || typeof inner === 'string')) {
    return { scalar: kind, value: inner };
  }
  if ((kind === 'tuple' || kind === 'list') && Array.isArray(inner)) return { items: inner };
  if (kind === 'dict' && Array.isArray(inner) && inner.every((pair) => Array.isArray(pair) && pair.length === 2)) return { pairs: inner };
  return null;
}

function walk(value, path, leaves) {
  if (isTensor(value)) return leaves.push(tensorSummary(path, value));
  if (Array.isArray(value)) return value.forEach((item, i) => walk(item, childPath(path, i), leaves));
  if (value !== null && typeof value === 'object') {
    const helper = unwrapHelper(value);
    if (helper?.scalar) return leaves.push(scalarLeaf(path, helper.scalar, helper.value));
    if (helper?.items) return walk(helper.items, path, leaves);
    if (helper?.pairs) return helper.pairs.forEach(([key, item]) => walk(item, childPath(path, key), leaves));
    return Object.entries(value).forEach(([key, item]) => walk(item, childPath(path, key), leaves));
  }
  return leaves.push(scalarLeaf(path, pythonKind(value), value));
}

// The Python type a plain JS value stands for (values.js's rules).
function pythonKind(value) {
  if (value === null) return 'None';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  return { boolean: 'bool', string: 'str', bigint: 'int' }[typeof value] ?? typeof value;
}

// A non-tensor leaf, its value written as Python would print it.
function scalarLeaf(path, kind, value) {
  let text = formatNumber(value);
  if (kind === 'None') text = 'None';
  else if (kind === 'str') text = `'${value}'`;
  else if (kind === 'float' && /^-?\d+$/.test(text)) text += '.0';
  return { path, kind, value: text };
}

/** Flat list of leaf summaries; `root` names the top of the tree ("output", "args"...). */
export function summarizeTree(value, root) {
  const leaves = [];
  walk(value, root, leaves);
  return leaves;
}
