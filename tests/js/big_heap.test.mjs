// A wasm heap past 2.5 GiB: programs whose weights take 600 MB each are
// loaded until the heap is past 2.5 GiB, so the tensors of everything loaded
// after them lie above 2 GiB, where a pointer read as a signed 32-bit
// number turns negative in JavaScript. The last of them must still compute
// its result (a matrix-vector product of ones: every element is exactly K),
// and the MLP fixture, loaded last, must match torch's outputs
// (cases.json), inputs and outputs crossing into and out of memory there.
// The ballast programs come from ballast.mjs (one aten.mv node).

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';

import { decodeCall, decodeValue, readCases } from '../../npm/src/cli/cases.js';
import { heapStats, load } from '../../npm/src/index.js';
import { BALLAST_K, BALLAST_ROWS, ballastProgram } from './ballast.mjs';
import { FIXTURES } from './helpers.mjs';

const K = BALLAST_K;
const ROWS = BALLAST_ROWS; // 37,500 x 4,096 float32: 614 MB of weights per program
const PAST = 2.5 * 2 ** 30;

test('programs run with their memory past 2.5 GiB of wasm heap', async () => {
  const loaded = [];
  try {
    const bytes = ballastProgram();
    while ((await heapStats()).heapSize < PAST) {
      assert.ok(loaded.length < 8, `the heap stayed under 2.5 GiB after ${loaded.length} programs`);
      loaded.push(await load(bytes, { label: `ballast ${loaded.length}` }));
    }
    const last = loaded.at(-1);
    const y = last.run([{ dtype: 'float32', shape: [K], data: new Float32Array(K).fill(1) }]);
    assert.equal(y.data.length, ROWS);
    assert.ok(y.data.every((value) => value === K), 'every element of the product of ones is K');

    const mlp = await load(join(FIXTURES, 'mlp', 'model.pt2'));
    loaded.push(mlp);
    assert.ok((await heapStats()).heapSize > PAST);
    const { cases } = await readCases(join(FIXTURES, 'mlp', 'cases.json'));
    for (const testCase of cases.filter((c) => c.expected !== undefined)) {
      const { args, kwargs } = decodeCall(testCase);
      const got = mlp.run(args, kwargs);
      const want = decodeValue(testCase.expected);
      assert.deepEqual(got.shape, want.shape, testCase.name);
      for (let i = 0; i < want.data.length; i++) {
        const tolerance = (testCase.atol ?? 1e-5) + (testCase.rtol ?? 1e-4) * Math.abs(want.data[i]);
        assert.ok(Math.abs(got.data[i] - want.data[i]) <= tolerance, `${testCase.name}[${i}]: ${got.data[i]} vs torch ${want.data[i]}`);
      }
    }
  } finally {
    for (const program of loaded) program.dispose();
  }
});
