// Python values <-> JS values through the public API, checked against torch's
// results in the fixtures' cases.json: inputs written as plain JS (arrays,
// objects, numbers), outputs as Tensors in nested arrays and plain objects
// (dict keys in insertion order), ints as numbers; rejected inputs are
// BAD_INPUT errors naming the input.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';

import { BadInputError, Tensor, load } from '../../npm/src/index.js';
import { decodeCall, readCases } from '../../npm/src/cli/cases.js';
import { compareAll } from '../../npm/src/cli/compare.js';
import { FIXTURES, plainCall } from './helpers.mjs';

async function withProgram(fixture, file, body) {
  const program = await load(join(FIXTURES, fixture, file));
  try {
    return await body(program, (await readCases(join(FIXTURES, fixture, file === 'model.pt2' ? 'cases.json' : 'cases.core.json'))).cases);
  } finally {
    program.dispose();
  }
}

function assertMatches(output, testCase) {
  const result = compareAll([['output', output, testCase.expected]], { rtol: testCase.rtol, atol: testCase.atol });
  assert.ok(result.ok, `${testCase.name}: ${result.problem}`);
}

for (const fixture of ['pytree_io', 'sym_shapes', 'scalar_inputs', 'tiny_transformer', 'bf16_mlp', 'cond_branch', 'lstm_gru']) {
  test(`${fixture}: plain JS inputs give torch's outputs; rejected inputs are BAD_INPUT`, () =>
    withProgram(fixture, 'model.pt2', (program, cases) => {
      for (const testCase of cases) {
        if (testCase.expected !== undefined) {
          const { args, kwargs } = plainCall(testCase, decodeCall);
          assertMatches(program.run(args, kwargs), testCase);
        } else if (testCase.error !== undefined && testCase.note === undefined) {
          // Tagged values: a plain array stands for a tuple or a list, so a list-for-tuple mistake needs list().
          const { args, kwargs } = decodeCall(testCase);
          assert.throws(() => program.run(args, kwargs), (e) => e instanceof BadInputError && e.message.length > 10, testCase.name);
        }
      }
    }));
}

test('pytree outputs: arrays for tuples and lists, plain objects in key order, 0-d tensors', () =>
  withProgram('pytree_io', 'model.pt2', (program, cases) => {
    const { args, kwargs } = plainCall(cases[0], decodeCall);
    const [first, second] = program.run(args, kwargs);
    assert.deepEqual(Object.keys(first), ['a', 'rest']);
    assert.equal(Object.getPrototypeOf(first), Object.prototype);
    assert.ok(Array.isArray(first.rest) && Array.isArray(first.rest[1]));
    assert.ok(second instanceof Tensor);
    assert.deepEqual(second.shape, []);
    assert.equal(second.size, 1);
  }));

test('symbolic int outputs are numbers', () =>
  withProgram('sym_shapes', 'model.pt2', (program) => {
    const x = new Tensor('float32', new Float32Array(4 * 6), [4, 6]);
    const [, count] = program.run([x]);
    assert.equal(count, 24);
    assert.equal(typeof count, 'number');
  }));

test('int64 inputs: BigInt64Array and plain numbers give the same result', () =>
  withProgram('tiny_transformer', 'model.pt2', (program, cases) => {
    const { args } = decodeCall(cases[0]);
    const asNumbers = new Tensor('int64', Array.from(args[0].data, Number), args[0].shape);
    assert.ok(asNumbers.data instanceof BigInt64Array);
    assert.deepEqual(program.run([asNumbers]).data, program.run(args).data);
  }));

test('errors name the input: wrong shape, wrong dtype, out of range', () =>
  withProgram('mlp_dynamic', 'model.pt2', (program) => {
    const x = (shape, dtype = 'float32') => new Tensor(dtype, new Array(shape[0] * shape[1]).fill(0), shape);
    assert.throws(() => program.run([x([2, 15])]), (e) => e instanceof BadInputError && /\*args\[0\]/.test(e.message) && /16/.test(e.message));
    assert.throws(() => program.run([x([2, 16], 'float64')]), (e) => e instanceof BadInputError && /float/.test(e.message));
    assert.throws(() => program.run([x([513, 16])]), (e) => e instanceof BadInputError && /512/.test(e.message));
    assert.throws(() => program.run([]), (e) => e instanceof BadInputError);
    assert.equal(program.run([x([3, 16])]).shape[0], 3, 'still usable after the errors');
  }));

test('program.inputs and rangeConstraints describe dynamic sizes', () =>
  withProgram('mlp_dynamic', 'model.pt2', (program) => {
    assert.deepEqual(program.inputs[0], { ...program.inputs[0], path: '*args[0]', kind: 'tensor', dtype: 'float32', shape: ['s0', 16], ranges: { s0: [1, 512] } });
    assert.deepEqual(program.rangeConstraints, { s0: [1, 512] });
    assert.equal(program.outputs.length, 1);
    assert.ok(program.operators.length > 0 && program.operators.every((op) => op.supported));
  }));
