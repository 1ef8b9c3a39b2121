// Complex tensors through the public API: programs made by torch 2.6 with
// complex64 inputs and outputs (tests/fixtures-export/complex_*), checked
// against torch's results in their cases files. A complex tensor in JS is
// {dtype: 'complex64' | 'complex128', shape (the logical shape), data: an
// interleaved Float32Array / Float64Array of (real, imaginary) pairs}.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';

import { BadInputError, Tensor, load } from '../../npm/src/index.js';
import { decodeCall, readCases } from '../../npm/src/cli/cases.js';
import { compareAll } from '../../npm/src/cli/compare.js';
import { REPO } from './helpers.mjs';

const EXPORT_FIXTURES = join(REPO, 'tests', 'fixtures-export');

for (const fixture of ['complex_io', 'complex_rope', 'complex_spectral_front_end']) {
  for (const [file, casesFile] of [['model.pt2', 'cases.json'], ['model.core.pt2', 'cases.core.json']]) {
    test(`${fixture} (${file}): torch's outputs`, async () => {
      const program = await load(join(EXPORT_FIXTURES, fixture, file));
      try {
        const { cases } = await readCases(join(EXPORT_FIXTURES, fixture, casesFile));
        for (const testCase of cases) {
          const { args, kwargs } = decodeCall(testCase);
          const output = program.run(args, kwargs);
          const result = compareAll([['output', output, testCase.expected]], { rtol: testCase.rtol, atol: testCase.atol });
          assert.ok(result.ok, `${testCase.name}: ${result.problem}`);
        }
      } finally {
        program.dispose();
      }
    });
  }
}

test('complex inputs and outputs are interleaved float arrays with the logical shape', async () => {
  const program = await load(join(EXPORT_FIXTURES, 'complex_io', 'model.pt2'));
  try {
    // z = 1+2i everywhere, x = 2: w = z*x + conj(z) = 3+2i
    const z = new Tensor('complex64', new Float32Array(30).map((_, i) => (i % 2 === 0 ? 1 : 2)), [3, 5]);
    const x = new Tensor('float32', new Float32Array(15).fill(2), [3, 5]);
    const [w, magnitude] = program.run([z, x]);
    assert.equal(w.dtype, 'complex64');
    assert.deepEqual(Array.from(w.shape), [3, 5]);
    assert.ok(w.data instanceof Float32Array);
    assert.equal(w.data.length, 30);
    assert.deepEqual(Array.from(w.data.slice(0, 4)), [3, 2, 3, 2]);
    assert.equal(magnitude.dtype, 'float32');
    assert.ok(Math.abs(magnitude.data[0] - Math.hypot(3, 2)) < 1e-6);
    const wrongArray = { dtype: 'complex64', shape: [3, 5], data: new Float32Array(15) };
    assert.throws(() => program.run([wrongArray, x]), (e) => e instanceof BadInputError && /30/.test(e.message));
  } finally {
    program.dispose();
  }
});
