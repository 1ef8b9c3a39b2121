// load(source, {worker: true}) in Node: the same Program class, held in a
// worker thread. Every method resolves to what it returns on the calling
// thread (save and runDecompositions included), errors keep their class,
// code and message and reject rather than throw, state persists between
// runs, the calling thread stays free while a run is in flight, transfer
// moves the inputs, programs made from one share its worker, and an idle
// worker never keeps the process alive.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';

import { BadInputError, Program, Tensor, load, sampleInputs } from '../../npm/src/index.js';
import { FIXTURES, REPO } from './helpers.mjs';

const model = (fixture) => join(FIXTURES, fixture, 'model.pt2');

test('the same outputs, description and errors as on the calling thread', async () => {
  const here = await load(model('digits_cnn'));
  const there = await load(model('digits_cnn'), { worker: true });
  try {
    assert.ok(there instanceof Program && here instanceof Program);
    assert.equal(there.inWorker, true);
    assert.equal(here.inWorker, false);
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
    // A mistake found before the request rejects too, with the same message.
    const feeds = { x: args[0] };
    assert.throws(() => here.run(feeds), { code: 'BAD_INPUT', message: /positional input/ });
    const early = there.run(feeds);
    assert.ok(early instanceof Promise);
    await assert.rejects(early, { code: 'BAD_INPUT', message: /positional input/ });
    // await works on the calling thread's results too: one code path for both.
    const both = async (program) => (await program.run(args)).data;
    assert.deepEqual(await both(here), await both(there));
  } finally {
    here.dispose();
    there.dispose();
  }
});

test('save, runDecompositions and sampleInputs resolve to what the calling thread returns', async () => {
  const here = await load(model('mlp'));
  const there = await load(model('mlp'), { worker: true });
  try {
    assert.deepEqual(await there.save(), here.save());
    assert.deepEqual(await sampleInputs(there, { random: true, seed: 3 }), sampleInputs(here, { random: true, seed: 3 }));
    const { args } = here.exampleInputs();
    const decomposedHere = here.runDecompositions();
    const decomposedThere = await there.runDecompositions();
    assert.equal(decomposedThere.inWorker, true);
    assert.equal(decomposedThere.dialect, 'ATEN');
    assert.deepEqual(decomposedThere.description, decomposedHere.description);
    assert.deepEqual(await decomposedThere.run(args), decomposedHere.run(args));
    // They share one worker: disposing of one leaves the other running.
    there.dispose();
    assert.deepEqual(await decomposedThere.run(args), decomposedHere.run(args));
    await assert.rejects(there.runDecompositions({ keep: [] }), { code: 'BAD_INPUT', message: /disposed/ });
    decomposedThere.dispose();
    await assert.rejects(decomposedThere.save(), { code: 'BAD_INPUT', message: /disposed/ });
    decomposedHere.dispose();
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
