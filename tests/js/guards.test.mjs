// torch 2.14's guards through the public API: the description lists them,
// a call that breaks one is refused with torch's sentence before anything
// runs, and the program goes on running valid calls
// (tests/fixtures-export/guarded_sizes, exported with Dim.AUTO sizes).

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';

import { BadInputError, Tensor, load } from '../../npm/src/index.js';
import { REPO } from './helpers.mjs';

const MODEL = join(REPO, 'tests', 'fixtures-export', 'guarded_sizes', 'model.pt2');
const vector = (n) => new Tensor('float32', Float32Array.from({ length: n }, (_, i) => i / n), [n]);

test('a broken guard is refused with torch\'s message, and the program stays usable', async () => {
  const program = await load(MODEL);
  try {
    assert.deepEqual(program.description.guards,
                     ['x.size()[0] % 2 == 0', 'x.size()[0] != y.size()[0]', '2 * x.size()[0] <= z.size()[0]']);
    assert.throws(() => program.run([vector(5), vector(3), vector(12)]),
                  (e) => e instanceof BadInputError && e.message.includes('Guard failed: x.size()[0] % 2 == 0'));
    assert.throws(() => program.run([vector(6), vector(3), vector(11)]),
                  (e) => e instanceof BadInputError && e.message.includes('Guard failed: 2 * x.size()[0] <= z.size()[0]'));
    const out = program.run([vector(6), vector(3), vector(12)]);
    assert.equal(out.shape.length, 0);
  } finally {
    program.dispose();
  }
});
