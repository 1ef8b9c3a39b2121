// sampleInputs(): the archive's example inputs when present; otherwise
// random inputs of valid shapes, which every fixture program must accept
// (its input checks are torch's), with one value per symbol inside its
// range, reproducible by seed. Also the building blocks on synthetic input
// descriptions: size expressions, pytree paths, constants.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';

import { BadInputError, Tensor, load, sampleInputs } from '../../npm/src/index.js';
import { randomInputs } from '../../npm/src/sample_inputs.js';
import { FIXTURES, fixtureNames } from './helpers.mjs';

for (const fixture of fixtureNames()) {
  test(`${fixture}: random inputs of valid shapes are accepted in both dialects`, async () => {
    for (const file of ['model.pt2', 'model.core.pt2']) {
      const program = await load(join(FIXTURES, fixture, file));
      try {
        for (const seed of [1, 2]) {
          const { args, kwargs, source } = sampleInputs(program, { random: true, seed });
          assert.equal(source, 'random');
          assert.doesNotThrow(() => program.run(args, kwargs), `${file} seed ${seed}`);
        }
      } finally {
        program.dispose();
      }
    }
  });
}

test('example inputs come first when the archive has them', async () => {
  const program = await load(join(FIXTURES, 'pytree_io', 'model.pt2'));
  try {
    const sample = sampleInputs(program);
    assert.equal(sample.source, 'example');
    const example = program.exampleInputs();
    assert.deepEqual(sample.args, example.args);
    assert.deepEqual(Object.keys(sample.kwargs), ['scale', 'mask']);
    assert.ok(Array.isArray(program.run(sample.args, sample.kwargs)));
  } finally {
    program.dispose();
  }
});

test('random sizes stay inside the ranges, prefer small values, and repeat by seed', async () => {
  const program = await load(join(FIXTURES, 'sym_shapes', 'model.pt2'));
  try {
    const [[low0, high0], [low1, high1]] = [program.rangeConstraints.s0, program.rangeConstraints.s1];
    const seen = new Set();
    for (let seed = 0; seed < 20; seed++) {
      const [x] = sampleInputs(program, { random: true, seed }).args;
      const [rows, cols] = x.shape;
      assert.ok(rows >= low0 && rows <= Math.min(high0, 8) && cols >= low1 && cols <= Math.min(high1, 8), `[${x.shape}]`);
      seen.add(x.shape.join('x'));
      assert.ok(x.data.every((v) => v >= -1 && v < 1));
    }
    assert.ok(seen.size > 3, `sizes vary with the seed: ${[...seen]}`);
    assert.deepEqual(sampleInputs(program, { random: true, seed: 5 }), sampleInputs(program, { random: true, seed: 5 }));
  } finally {
    program.dispose();
  }
});

test('randomInputs: one value per symbol, expressions, paths, constants and dtypes', () => {
  const inputs = [
    { path: '*args[0]', kind: 'tensor', dtype: 'float32', shape: ['s0', 3], ranges: { s0: [2, 100] } },
    { path: "*args[1]['ids']", kind: 'tensor', dtype: 'int64', shape: ['2*s0 + 1'], ranges: { s0: [2, 100] } },
    { path: "*args[1]['mask']", kind: 'tensor', dtype: 'bool', shape: ['s0'], ranges: { s0: [2, 100] } },
    { path: '*args[3][1]', kind: 'tensor', dtype: 'float16', shape: [4], ranges: {} },
    { path: "**kwargs['scale']", kind: 'constant', type: 'float', value: 2 },
    { path: "**kwargs['flag']", kind: 'constant', type: 'bool', value: true },
    { path: "**kwargs['n']", kind: 'int', symbol: 's0', ranges: { s0: [2, 100] } },
  ];
  const { args, kwargs } = randomInputs(inputs, { seed: 3 });
  const n = args[0].shape[0];
  assert.ok(n >= 2 && n <= 8);
  assert.deepEqual(args[1].ids.shape, [2 * n + 1]);
  assert.ok(args[1].ids.data instanceof BigInt64Array && args[1].ids.toArray().every((v) => v >= 0n && v <= 3n));
  assert.deepEqual(args[1].mask.shape, [n]);
  assert.equal(args[2], null, 'a position no input reaches is None');
  assert.deepEqual(args[3][0], null);
  assert.ok(args[3][1] instanceof Tensor && args[3][1].toArray().every((v) => v >= -1 && v < 1));
  assert.deepEqual(kwargs.scale, { float: 2 }, 'an integral float constant keeps its float tag');
  assert.equal(kwargs.flag, true);
  assert.equal(kwargs.n, n);
});

test('randomInputs: unreadable paths and sizes are BAD_INPUT naming them', () => {
  const tensor = (path, shape) => [{ path, kind: 'tensor', dtype: 'float32', shape, ranges: {} }];
  assert.throws(() => randomInputs(tensor('args[0]', [1])), (e) => e instanceof BadInputError && /args\[0\]/.test(e.message));
  assert.throws(() => randomInputs(tensor('*args[0].field', [1])), (e) => e instanceof BadInputError && /\.field/.test(e.message));
  assert.throws(() => randomInputs(tensor('*args[0]', ['s9'])), (e) => e instanceof BadInputError && /s9/.test(e.message));
  assert.throws(() => randomInputs(tensor('*args[0]', ['s0 ** 2'])), (e) => e instanceof BadInputError && /s0 \*\* 2/.test(e.message));
});
