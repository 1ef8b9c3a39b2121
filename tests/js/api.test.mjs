// The JavaScript API: load, run, errors with codes, state, disposal.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { BadInputError, Pt2webError, Tensor, inspect, load } from '../../npm/src/index.js';
import { FIXTURES } from './helpers.mjs';

const MLP = join(FIXTURES, 'mlp', 'model.core.pt2');

function input(batch, features) {
  const data = Float32Array.from({ length: batch * features }, (_, i) => Math.sin(i));
  return new Tensor('float32', data, [batch, features]);
}

test('load() describes the program', async () => {
  const program = await load(MLP);
  try {
    assert.equal(program.dialect, 'ATEN');
    assert.equal(program.inputs.length, 1);
    assert.equal(program.inputs[0].kind, 'tensor');
    assert.equal(program.inputs[0].dtype, 'float32');
    assert.ok(program.operators.every((op) => typeof op.supported === 'boolean'));
    assert.match(program.toString(), /addmm/);
  } finally {
    program.dispose();
  }
});

test('outputs have paths into what run() returns, and the description prints the program', async () => {
  const program = await load(join(FIXTURES, 'pytree_io', 'model.pt2'));
  try {
    // torch's out_spec: (dict {a, rest: [*, (*, *)]}, *)
    const paths = program.outputs.map((o) => o.path);
    assert.deepEqual(paths, ["[0]['a']", "[0]['rest'][0]", "[0]['rest'][1][0]", "[0]['rest'][1][1]", '[1]']);
    const out = program.run(...Object.values(program.exampleInputs()));
    assert.ok(out[0].rest[1][1] instanceof Tensor && out[1] instanceof Tensor);
    assert.equal(program.description.printed, program.toString());
    assert.equal(program.description, program.description, 'made once');
  } finally {
    program.dispose();
  }
});

test('load() accepts bytes and ArrayBuffers', async () => {
  const bytes = readFileSync(MLP);
  const fromView = await load(new Uint8Array(bytes));
  const fromBuffer = await load(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  assert.deepEqual(fromView.signature, fromBuffer.signature);
  fromView.dispose();
  fromBuffer.dispose();
});

test('a wrong input shape throws BAD_INPUT and the program still runs afterwards', async () => {
  const program = await load(MLP);
  try {
    const features = program.inputs[0].shape[1];
    const batch = program.inputs[0].shape[0];
    assert.throws(
      () => program.run([input(batch, features + 1)]),
      (error) => error instanceof BadInputError && error instanceof Pt2webError && error.code === 'BAD_INPUT' &&
        /shape/.test(error.message),
    );
    const output = program.run([input(batch, features)]);
    assert.ok(output instanceof Tensor);
    assert.equal(output.dtype, 'float32');
    assert.equal(output.shape[0], batch);
    assert.ok(output.data.every(Number.isFinite));
  } finally {
    program.dispose();
  }
});

test('malformed JS values are BAD_INPUT errors, not crashes', async () => {
  const program = await load(MLP);
  try {
    const [batch, features] = program.inputs[0].shape;
    const cases = [
      [new Float32Array(batch * features)],
      [{ dtype: 'float32', shape: [batch, features], data: new Float64Array(batch * features) }],
      [{ dtype: 'float32', shape: [batch, features], data: new Float32Array(3) }],
      [{ dtype: 'complex999', shape: [batch], data: new Float32Array(batch) }],
      [() => 1],
      'not an array',
    ];
    for (const args of cases) {
      assert.throws(() => program.run(args), (e) => e.code === 'BAD_INPUT', String(args));
    }
    assert.ok(program.run([input(batch, features)]) instanceof Tensor);
  } finally {
    program.dispose();
  }
});

test('a disposed program refuses to run', async () => {
  const program = await load(MLP);
  program.dispose();
  assert.throws(() => program.run([]), /disposed/);
});

test('inspect() describes without preparing to run', async () => {
  const description = await inspect(join(FIXTURES, 'mlp_dynamic', 'model.pt2'));
  assert.equal(description.dialect, 'TRAINING');
  assert.deepEqual(description.range_constraints, { s0: [1, 512] });
});

test('load() of garbage bytes throws BAD_FILE', async () => {
  await assert.rejects(load(new Uint8Array([1, 2, 3, 4])), (e) => e.code === 'BAD_FILE');
});
