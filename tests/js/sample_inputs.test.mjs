// sampleInputs(): the archive's example inputs when present; otherwise
// random inputs of valid shapes, which every fixture program must accept
// (its input checks are torch's), with one value per symbol inside its
// range, reproducible by seed. The core makes them (src/runtime/random_inputs.h;
// its rules are tested in tests/unit/loaded_program_test.cpp).

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';

import { load, sampleInputs } from '../../npm/src/index.js';
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
