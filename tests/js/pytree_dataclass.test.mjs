// Dataclass pytrees and the `model` load option through the public API.
// tests/fixtures-export/pytree_dataclass takes Pair(a, b, note=None) and
// returns Summary(total, diff), both registered with
// torch.export.register_dataclass: inputs as objects of the fields or arrays
// of their values, outputs as objects with the field names, checked against
// torch's results in its cases files.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';

import { BadInputError, Tensor, load } from '../../npm/src/index.js';
import { decodeCall, readCases } from '../../npm/src/cli/cases.js';
import { compareAll } from '../../npm/src/cli/compare.js';
import { FIXTURES, REPO } from './helpers.mjs';

const FOLDER = join(REPO, 'tests', 'fixtures-export', 'pytree_dataclass');

for (const [file, casesFile] of [['model.pt2', 'cases.json'], ['model.core.pt2', 'cases.core.json']]) {
  test(`pytree_dataclass (${file}): objects in, objects with the field names out, torch's values`, async () => {
    const program = await load(join(FOLDER, file));
    try {
      const { cases } = await readCases(join(FOLDER, casesFile));
      for (const testCase of cases) {
        const { args, kwargs } = decodeCall(testCase);
        const output = program.run(args, kwargs);
        assert.deepEqual(Object.keys(output), ['total', 'diff']);
        const result = compareAll([['output', output, testCase.expected]], { rtol: testCase.rtol, atol: testCase.atol });
        assert.ok(result.ok, `${testCase.name}: ${result.problem}`);
        // The same call with the dataclass as an array of its field values.
        const [pair, scale] = args;
        const again = program.run([[pair.a, pair.b], scale]);
        assert.deepEqual(Array.from(again.total.data), Array.from(output.total.data));
      }
    } finally {
      program.dispose();
    }
  });
}

test('a dataclass input missing a field is a BadInputError naming it', async () => {
  const program = await load(join(FOLDER, 'model.pt2'));
  try {
    const x = new Tensor('float32', new Float32Array(3), [3]);
    assert.throws(() => program.run([{ a: x }, x]), (e) => e instanceof BadInputError && /missing field\(s\) \['b'\]/.test(e.message));
  } finally {
    program.dispose();
  }
});

test("the model option: a legacy archive holds one program, 'model'", async () => {
  const path = join(FIXTURES, 'mlp', 'model.pt2');
  (await load(path, { model: 'model' })).dispose();
  await assert.rejects(load(path, { model: 'encoder' }), (e) => e instanceof BadInputError && /has no model 'encoder'/.test(e.message));
  await assert.rejects(load(path, { model: 3 }), (e) => e instanceof BadInputError && /options.model must be a string/.test(e.message));
});
