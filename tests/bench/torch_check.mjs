// The generated models' check against torch (tools/torch/gen_bench_models.py
// writes each with a cases.json whose first case is torch's own run on the
// benchmark input): the benchmark feeds that case's inputs to both runtimes
// and compares pt2web's first outputs with torch's, so it never times a
// wrong result. Comparison rule and encoding: tests/fixtures/README.md.

import { readFileSync } from 'node:fs';
import { decodeCall } from '../../npm/src/cli/cases.js';
import { compareAll } from '../../npm/src/cli/compare.js';

/**
 * The first case of a cases.json: its inputs in the benchmark's plain form
 * and what torch returned.
 * @returns {{name, inputs: Array<{dtype, shape, data}>, expected, rtol, atol}}
 */
export function readBenchCase(casesPath) {
  const file = JSON.parse(readFileSync(casesPath, 'utf8'));
  const testCase = file.cases?.[0];
  if (!testCase?.expected) throw new Error(`${casesPath}: the first case has no expected outputs`);
  const { args, kwargs } = decodeCall(testCase);
  if (Object.keys(kwargs).length) throw new Error(`${casesPath}: the benchmark passes positional tensors only, the case has kwargs`);
  const inputs = args.map((arg, i) => {
    if (!arg || !ArrayBuffer.isView(arg.data)) throw new Error(`${casesPath}: argument ${i} is not a tensor`);
    return { dtype: arg.dtype, shape: [...arg.shape], data: arg.data };
  });
  return { name: testCase.name, inputs, expected: testCase.expected, rtol: testCase.rtol ?? 0, atol: testCase.atol ?? 0 };
}

// The tensors of an encoded pytree, depth first (the order pt2web's runner flattens outputs in).
function expectedLeaves(encoded, out = []) {
  if (encoded === null || typeof encoded !== 'object') return out;
  if ('tensor' in encoded) {
    out.push(encoded);
    return out;
  }
  const items = encoded.tuple ?? encoded.list ?? encoded.namedtuple?.values ?? encoded.dict?.map(([, v]) => v) ?? [];
  for (const item of items) expectedLeaves(item, out);
  return out;
}

/**
 * @param {Array<{dtype, shape, data}>} outputs pt2web's flattened outputs
 * @returns {{ok: boolean, maxError: number, problem: string|null}}
 */
export function checkAgainstTorch(outputs, benchCase) {
  const wanted = expectedLeaves(benchCase.expected);
  if (wanted.length !== outputs.length) {
    return { ok: false, maxError: Infinity, problem: `pt2web gave ${outputs.length} output tensors, torch ${wanted.length}` };
  }
  const pairs = wanted.map((want, i) => [`output ${i}`, outputs[i], want]);
  return compareAll(pairs, { rtol: benchCase.rtol, atol: benchCase.atol });
}
