// The `wasm` option and independence: a module instance per distinct option
// (URL or path, bytes, compiled module), each with its own heap; programs
// side by side on one module do not disturb each other; a bad .wasm is a
// clear BAD_FILE error.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { BadFileError, BadInputError, Tensor, heapStats, load } from '../../npm/src/index.js';
import { FIXTURES, REPO } from './helpers.mjs';

const WASM_PATH = join(REPO, 'npm', 'dist', 'pt2web.wasm');
const MLP = join(FIXTURES, 'mlp', 'model.pt2');

function mlpInput(program, fill) {
  const [batch, features] = program.inputs[0].shape;
  return new Tensor('float32', Float32Array.from({ length: batch * features }, (_, i) => Math.sin(i * fill)), [batch, features]);
}

test('wasm bytes give a separate module with its own heap', async () => {
  const wasm = new Uint8Array(readFileSync(WASM_PATH));
  const beforeDefault = (await heapStats()).inUse;
  const beforeOwn = (await heapStats({ wasm })).inUse;
  const program = await load(MLP, { wasm });
  try {
    assert.ok((await heapStats({ wasm })).inUse > beforeOwn + 1000, 'the program lives in the module made from the bytes');
    assert.equal((await heapStats()).inUse, beforeDefault, 'the default module is untouched');
    const output = program.run([mlpInput(program, 1)]);
    assert.equal(output.dtype, 'float32');
  } finally {
    program.dispose();
  }
  assert.equal((await heapStats()).inUse, beforeDefault, 'the default module is still untouched');
});

test('the same wasm option reuses its module; a path, a file URL and a compiled module work', async () => {
  const compiled = await WebAssembly.compile(readFileSync(WASM_PATH));
  for (const wasm of [WASM_PATH, pathToFileURL(WASM_PATH), compiled]) {
    const program = await load(MLP, { wasm });
    const inUse = (await heapStats({ wasm })).inUse;
    const second = await load(MLP, { wasm });
    assert.ok((await heapStats({ wasm })).inUse > inUse, `a second load with ${wasm} uses the same heap`);
    second.dispose();
    program.dispose();
  }
});

test('a missing or corrupt .wasm is BAD_FILE naming it, and loading recovers', async () => {
  const missing = join(REPO, 'npm', 'dist', 'no-such.wasm');
  await assert.rejects(load(MLP, { wasm: missing }), (e) => e instanceof BadFileError && e.message.includes(missing));
  await assert.rejects(load(MLP, { wasm: new Uint8Array([0, 97, 115, 109, 9, 9, 9, 9]) }), (e) =>
    e instanceof BadFileError && /WebAssembly binary from the bytes given/.test(e.message));
  await assert.rejects(load(MLP, { wasm: 12 }), BadInputError);
  const program = await load(MLP);
  program.dispose();
});

test('two programs side by side: interleaved runs match runs alone', async () => {
  const first = await load(MLP);
  const second = await load(join(FIXTURES, 'mlp', 'model.core.pt2'));
  try {
    const alone = first.run([mlpInput(first, 1)]);
    const inputs = [mlpInput(first, 1), mlpInput(second, 2)];
    const outputs = [];
    for (let round = 0; round < 3; round++) {
      outputs.push(first.run([inputs[0]]), second.run([inputs[1]]));
    }
    for (let i = 0; i < outputs.length; i += 2) assert.deepEqual(outputs[i].data, alone.data);
    assert.notDeepEqual(outputs[1].data, alone.data);
    first.dispose();
    assert.throws(() => first.run([inputs[0]]), (e) => e instanceof BadInputError && /disposed/.test(e.message));
    assert.deepEqual(second.run([inputs[1]]).data, outputs[1].data, 'disposing one leaves the other working');
  } finally {
    first.dispose();
    second.dispose();
  }
});

test('Symbol.dispose frees the program (using declarations)', async () => {
  const before = (await heapStats()).inUse;
  const program = await load(MLP);
  assert.ok((await heapStats()).inUse > before);
  const dispose = program[Symbol.dispose ?? Symbol.for('Symbol.dispose')];
  assert.equal(typeof dispose, 'function');
  dispose.call(program);
  assert.equal(program.disposed, true);
  assert.equal((await heapStats()).inUse, before);
  program.dispose();  // twice is fine
});
