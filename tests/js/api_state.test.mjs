// State across calls, mutated inputs written back to the caller's arrays,
// and outputs that are fresh arrays rather than views of wasm memory.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';

import { Tensor, load } from '../../npm/src/index.js';
import { FIXTURES } from './helpers.mjs';

for (const file of ['model.pt2', 'model.core.pt2']) {
  test(`input_mutation/${file}: mutated inputs reach the caller's arrays`, async () => {
    const program = await load(join(FIXTURES, 'input_mutation', file));
    try {
      const x = new Tensor('float32', [1, 2, 3], [3]);
      const y = new Tensor('float32', [1, 2, 3], [3]);
      const out = program.run([x, y]);
      assert.deepEqual(Array.from(x.data), [2, 3, 4]);  // x.add_(1.0)
      assert.deepEqual(Array.from(y.data), [2, 4, 6]);  // y.mul_(2.0)
      assert.deepEqual(Array.from(out.data), [4, 7, 10]);
    } finally {
      program.dispose();
    }
  });

  test(`counter_buffer/${file}: buffers persist across calls and reset`, async () => {
    const program = await load(join(FIXTURES, 'counter_buffer', file));
    try {
      const x = new Tensor('float32', new Float32Array(12).fill(1), [3, 4]);
      for (let call = 1; call <= 3; call++) {
        program.run([x]);
        assert.deepEqual(Array.from(program.stateDict().count.data), [call]);
      }
      assert.deepEqual(Array.from(x.data), new Array(12).fill(1), 'the input is not mutated');
      program.resetState();
      assert.deepEqual(Array.from(program.stateDict().count.data), [0]);
    } finally {
      program.dispose();
    }
  });
}

test('outputs are fresh arrays, not views of the wasm heap', async () => {
  const program = await load(join(FIXTURES, 'mlp', 'model.pt2'));
  try {
    const [batch, features] = program.inputs[0].shape;
    const x = new Tensor('float32', new Float32Array(batch * features).fill(0.5), [batch, features]);
    const first = program.run([x]);
    const copy = Float32Array.from(first.data);
    assert.equal(first.data.buffer.byteLength, first.data.byteLength);
    program.run([new Tensor('float32', new Float32Array(batch * features).fill(-3), [batch, features])]);
    assert.deepEqual(first.data, copy, 'a later run must not change an earlier result');
  } finally {
    program.dispose();
  }
});

test('pytree inputs: nested dicts and tuples, keyword arguments, an integral float', async () => {
  const program = await load(join(FIXTURES, 'pytree_io', 'model.pt2'));
  try {
    const t = (shape) => new Tensor('float32', new Float32Array(shape.reduce((a, b) => a * b, 1)).fill(1), shape);
    const args = [{ a: t([2, 4]), b: t([3]) }, [t([5]), t([5])]];
    const out = program.run(args, { scale: 2.5, mask: t([2, 4]) });
    assert.ok(Array.isArray(out) && out.length === 2);
    assert.deepEqual(Object.keys(out[0]), ['a', 'rest']);
    assert.ok(out[1] instanceof Tensor);
    assert.throws(() => program.run(args, { scale: { float: 3 }, mask: t([2, 4]) }), (e) => e.code === 'BAD_INPUT');
    assert.throws(
      () => program.run([args[0], { list: args[1] }], { scale: 2.5, mask: t([2, 4]) }),
      (e) => e.code === 'BAD_INPUT' && /tuple/.test(e.message),
    );
  } finally {
    program.dispose();
  }
});
