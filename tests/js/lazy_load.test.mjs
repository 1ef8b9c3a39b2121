// Loading copies only what the program reads into the wasm heap: the
// parameters no node reads (the float originals a PT2E int8 program keeps
// next to its int8 weights) stay in the bytes given to load() (or in the
// file a path names, or in the chunks a Blob streamed in), and
// stateDict() / save() read them from there. Golden values from torch 2.6
// (torch.export.load(...).state_dict of tests/fixtures-int8/q_digits_cnn).

import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { BadFileError, load, sampleInputs } from '../../npm/src/index.js';
import { REPO } from './helpers.mjs';

const MODEL = join(REPO, 'tests', 'fixtures-int8', 'q_digits_cnn', 'model.pt2');

// torch's state_dict order, and the float originals the graph does not read:
// [shape, sum, sum of magnitudes] (float64 sums of the float32 values).
const TORCH_ORDER = ['conv1.weight', 'conv1.bias', 'conv2.weight', 'conv2.bias', 'fc.weight', 'fc.bias',
  '_scale_0', '_zero_point_0', '_scale_1', '_zero_point_1', '_scale_2', '_zero_point_2',
  '_frozen_param0', '_frozen_param1', '_frozen_param2'];
const UNREAD = {
  'conv1.weight': [[16, 1, 3, 3], 4.172398446127772, 132.71754620037973],
  'conv2.weight': [[32, 16, 3, 3], 18.87419818220951, 731.985485447527],
  'fc.weight': [[10, 128], -16.43991362863744, 129.12600272310374],
};

function sums(tensor) {
  let sum = 0;
  let magnitude = 0;
  for (const x of tensor.data) {
    sum += x;
    magnitude += Math.abs(x);
  }
  return [sum, magnitude];
}

function checkUnread(state) {
  assert.deepEqual(Object.keys(state), TORCH_ORDER);
  for (const [name, [shape, sum, magnitude]] of Object.entries(UNREAD)) {
    const tensor = state[name];
    assert.equal(tensor.dtype, 'float32', name);
    assert.deepEqual(tensor.shape, shape, name);
    const [gotSum, gotMagnitude] = sums(tensor);
    assert.ok(Math.abs(gotSum - sum) < 1e-9 * magnitude, `${name}: sum ${gotSum}, torch ${sum}`);
    assert.ok(Math.abs(gotMagnitude - magnitude) < 1e-9 * magnitude, `${name}: ${gotMagnitude} vs ${magnitude}`);
  }
}

test('unread float originals come back from the file bytes in stateDict() and save()', async () => {
  const program = await load(new Uint8Array(readFileSync(MODEL)));
  try {
    checkUnread(program.stateDict());
    checkUnread(program.stateDict()); // read again, the same
    const reloaded = await load(program.save());
    checkUnread(reloaded.stateDict());
    reloaded.dispose();
  } finally {
    program.dispose();
  }
});

test('bytes detached after load(): stateDict() and save() fail with BAD_FILE, run() goes on', async () => {
  const bytes = new Uint8Array(readFileSync(MODEL));
  const program = await load(bytes);
  try {
    const { args, kwargs } = sampleInputs(program, { random: true, seed: 1 });
    const before = program.run(args, kwargs);
    structuredClone(bytes.buffer, { transfer: [bytes.buffer] });
    assert.equal(bytes.length, 0);
    assert.throws(() => program.stateDict(), (e) => e instanceof BadFileError && /detached/.test(e.message));
    assert.throws(() => program.save(), BadFileError);
    assert.deepEqual(Array.from(program.run(args, kwargs).data), Array.from(before.data));
  } finally {
    program.dispose();
  }
});

test('unread originals come back from the file a path names, and from a Blob', async () => {
  for (const source of [MODEL, new Blob([readFileSync(MODEL)])]) {
    const program = await load(source);
    try {
      checkUnread(program.stateDict());
      checkUnread((await load(program.save())).stateDict());
    } finally {
      program.dispose();
    }
  }
});

test('a file changed on disk after load(): stateDict() fails with BAD_FILE naming it, run() goes on', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'pt2web-lazy-'));
  const path = join(folder, 'model.pt2');
  try {
    copyFileSync(MODEL, path);
    const program = await load(path);
    try {
      const { args, kwargs } = sampleInputs(program, { random: true, seed: 1 });
      const before = program.run(args, kwargs);
      writeFileSync(path, new Uint8Array(100));
      assert.throws(() => program.stateDict(), (e) => e instanceof BadFileError && e.message.includes(path) && /changed on disk/.test(e.message));
      assert.deepEqual(Array.from(program.run(args, kwargs).data), Array.from(before.data));
    } finally {
      program.dispose();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
