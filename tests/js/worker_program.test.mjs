// load(source, {worker: true}) in Node: the program runs in a worker thread,
// run() resolves to the same outputs as on the calling thread, errors keep
// their class, code and message, state persists between runs, the calling
// thread stays free while a run is in flight, transfer moves the inputs,
// and an idle worker never keeps the process alive.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';

import { BadInputError, Program, Tensor, WorkerProgram, load } from '../../npm/src/index.js';
import { FIXTURES, REPO } from './helpers.mjs';

const model = (fixture) => join(FIXTURES, fixture, 'model.pt2');

test('the same outputs, description and errors as on the calling thread', async () => {
  const here = await load(model('digits_cnn'));
  const there = await load(model('digits_cnn'), { worker: true });
  try {
    assert.ok(there instanceof WorkerProgram && !(there instanceof Program));
    assert.deepEqual(there.description, here.description);
    assert.equal(there.toString(), here.toString());
    const { args } = here.exampleInputs();
    assert.deepEqual(await there.exampleInputs(), here.exampleInputs());
    const expected = here.run(args);
    assert.deepEqual(await there.run(args), expected);
    assert.deepEqual(there.memory, here.memory);
    const profiled = await there.runProfiled(args);
    assert.deepEqual(profiled.outputs, expected);
    assert.ok(profiled.profile.length > 0);
    const bad = [new Tensor('float32', new Float32Array(3 * 64), [1, 3, 8, 8])];
    let sync;
    try {
      here.run(bad);
    } catch (error) {
      sync = error;
    }
    await assert.rejects(there.run(bad), (error) => {
      assert.ok(error instanceof BadInputError);
      assert.equal(error.message, sync.message);
      return true;
    });
    assert.deepEqual(await there.run(args), expected);  // still usable
  } finally {
    here.dispose();
    there.dispose();
  }
});

test('state persists between runs in the worker, and resetState restores it', async () => {
  const program = await load(model('counter_buffer'), { worker: true });
  try {
    const { args, kwargs } = await program.exampleInputs();
    const before = await program.stateDict();
    await program.run(args, kwargs);
    const after = await program.stateDict();
    assert.notDeepEqual(after, before);
    await program.resetState();
    assert.deepEqual(await program.stateDict(), before);
  } finally {
    program.dispose();
  }
});

test('the calling thread stays free while the worker runs', async () => {
  const program = await load(model('mobilenet_v2'), { worker: true });
  try {
    const { args } = await program.exampleInputs();
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const started = performance.now();
    for (let i = 0; i < 3; i++) await program.run(args);
    const elapsed = performance.now() - started;
    clearInterval(timer);
    // A synchronous run would let no timer fire until it returned.
    assert.ok(ticks >= 3, `${ticks} timer ticks during ${elapsed.toFixed(0)} ms of runs`);
  } finally {
    program.dispose();
  }
});

test('transfer: true moves the input buffers to the worker', async () => {
  const program = await load(model('mlp'), { worker: true });
  try {
    const [x] = (await program.exampleInputs()).args;
    const copy = new Tensor(x.dtype, x.data.slice(), x.shape);
    const expected = await program.run([copy]);
    assert.equal(copy.data.length, x.data.length);  // copied: still there
    assert.deepEqual(await program.run([copy], {}, { transfer: true }), expected);
    assert.equal(copy.data.length, 0);  // moved
  } finally {
    program.dispose();
  }
});

test('after dispose every call rejects; bad options are refused', async () => {
  const program = await load(model('mlp'), { worker: true });
  program.dispose();
  assert.equal(program.disposed, true);
  await assert.rejects(program.run([]), { code: 'BAD_INPUT', message: /disposed/ });
  await assert.rejects(load(model('mlp'), { worker: 'yes' }), { code: 'BAD_INPUT', message: /options\.worker must be true or false/ });
  await assert.rejects(load(new Uint8Array([1, 2, 3, 4, 5]), { worker: true }), { code: 'BAD_FILE', message: /not a zip archive/ });
});

test('an idle worker does not keep Node running', () => {
  const script = `
    import { load } from ${JSON.stringify(join(REPO, 'npm', 'src', 'index.js'))};
    const program = await load(${JSON.stringify(model('mlp'))}, { worker: true });
    const { args } = await program.exampleInputs();
    console.log((await program.run(args)).shape.join('x'));
  `;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(result.signal, null, `the process did not exit by itself: ${result.stderr}`);
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /^\d+x\d+$/m);
});
