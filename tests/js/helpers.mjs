// Shared helpers of the Node tests: paths of the repository and a way to run
// the CLI and capture its exit code and output.

import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const FIXTURES = join(REPO, 'tests', 'fixtures');
export const CLI = join(REPO, 'npm', 'bin', 'pt2web.mjs');

/** Runs `node npm/bin/pt2web.mjs ...args`; returns {status, stdout, stderr}. */
export function runCli(...args) {
  const result = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Names of the fixture folders (each holds model.pt2 and model.core.pt2). */
export function fixtureNames() {
  return readdirSync(FIXTURES)
    .filter((name) => statSync(join(FIXTURES, name)).isDirectory())
    .sort();
}

/**
 * A fixture case's call in plain JS values, the way a user writes them:
 * arrays for tuples and lists, plain objects for dicts, numbers for ints and
 * non-integral floats (an integral float keeps its float() tag: plain JS
 * cannot say 2.0).
 */
export function plainCall(testCase, decodeCall) {
  const plain = (value) => {
    if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value.data)) return value;
    if (Array.isArray(value)) return value.map(plain);
    if ('tuple' in value) return value.tuple.map(plain);
    if ('list' in value) return value.list.map(plain);
    if ('dict' in value) return Object.fromEntries(value.dict.map(([k, v]) => [k, plain(v)]));
    return value;
  };
  const { args, kwargs } = decodeCall(testCase);
  return { args: args.map(plain), kwargs: Object.fromEntries(Object.entries(kwargs).map(([k, v]) => [k, plain(v)])) };
}

const SPECIAL_NUMBERS = { nan: NaN, inf: Infinity, '-inf': -Infinity };

/**
 * The inverse of the CLI's JSON encoding (npm/src/cli/value_json.js):
 * {dtype, shape, data} objects become Tensors again, so results can be
 * compared with the fixtures' expected values.
 */
export async function fromJsonValue(value) {
  const { Tensor } = await import('../../npm/src/index.js');
  const decode = (v) => {
    if (v === null || typeof v !== 'object') return typeof v === 'string' && v in SPECIAL_NUMBERS ? SPECIAL_NUMBERS[v] : v;
    if (Array.isArray(v)) return v.map(decode);
    const keys = Object.keys(v).sort().join(',');
    if (keys === 'data,dtype,shape') {
      const items = v.data.map((x) => (typeof x === 'string' && x in SPECIAL_NUMBERS ? SPECIAL_NUMBERS[x] : x));
      const big = v.dtype === 'int64' || v.dtype === 'uint64';
      return new Tensor(v.dtype, big ? items.map((x) => BigInt(x)) : items, v.shape);
    }
    return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, decode(item)]));
  };
  return decode(value);
}
