// The threaded build under Node: every fixture's cases pass on 2 threads
// (`pt2web check --threads 2`, both dialects), outputs are bit-identical to
// one thread (each output element is computed by one thread, in the same
// order), errors leave a threaded program usable, and bad thread counts are
// refused.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { join } from 'node:path';

import { BadInputError, load, Tensor } from '../../npm/src/index.js';
import { FIXTURES, REPO, fixtureNames, runCli } from './helpers.mjs';

for (const fixture of fixtureNames()) {
  for (const core of [false, true]) {
    test(`check ${fixture}${core ? ' --core' : ''} --threads 2`, () => {
      const { status, stdout, stderr } = runCli('check', join(FIXTURES, fixture), ...(core ? ['--core'] : []), '--threads', '2');
      assert.match(stdout.trim().split('\n').at(-1), /^\d+ passed, 0 failed$/, `${stdout}${stderr}`);
      assert.equal(status, 0, `${stdout}${stderr}`);
    });
  }
}

function flatten(value, out = []) {
  if (value instanceof Tensor) out.push(value);
  else if (Array.isArray(value)) for (const item of value) flatten(item, out);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) flatten(item, out);
  return out;
}

for (const fixture of ['mobilenet_v2', 'encoder_small', 'tiny_transformer', 'lstm_gru']) {
  test(`${fixture}: 2 threads give the same bits as 1`, async () => {
    const path = join(FIXTURES, fixture, 'model.pt2');
    const outputs = [];
    for (const threads of [1, 2]) {
      const program = await load(path, { threads });
      try {
        assert.equal(program.threads, threads);
        const { args, kwargs } = program.exampleInputs();
        outputs.push(flatten(program.run(args, kwargs)));
      } finally {
        program.dispose();
      }
    }
    const [one, two] = outputs;
    assert.equal(one.length, two.length);
    one.forEach((tensor, i) => {
      assert.deepEqual(two[i].shape, tensor.shape);
      assert.deepEqual(Buffer.from(two[i].data.buffer), Buffer.from(tensor.data.buffer), `output ${i} differs`);
    });
  });
}

test('a threaded program reports bad inputs and keeps working', async () => {
  const program = await load(join(FIXTURES, 'digits_cnn', 'model.pt2'), { threads: 2 });
  try {
    assert.throws(() => program.run([new Tensor('float32', new Float32Array(3 * 64), [1, 3, 8, 8])]), {
      code: 'BAD_INPUT',
      message: /Expected input at \*args\[0\]\.shape\[1\] to be equal to 1, but got 3/,
    });
    const { args } = program.exampleInputs();
    const [logits] = flatten(program.run(args));
    assert.ok(logits.data.every(Number.isFinite));
  } finally {
    program.dispose();
  }
});

test('a corrupt archive is a BadFileError in the threaded build too', async () => {
  await assert.rejects(load(new Uint8Array([1, 2, 3, 4, 5]), { threads: 2 }), { code: 'BAD_FILE', message: /not a zip archive/ });
});

test('threads must be a whole number from 1 to 64', async () => {
  for (const threads of [0, -1, 1.5, 65, '2', null]) {
    await assert.rejects(load(join(FIXTURES, 'mlp', 'model.pt2'), { threads }), BadInputError, `threads ${String(threads)}`);
  }
});

test('a program asking for more threads than the pool has starts more, and Node still exits', () => {
  // In a child process: the pool is started for 2 threads, then a program
  // asks for 3. The process must end by itself (idle workers are unref()ed).
  const script = `
    import { load } from ${JSON.stringify(join(REPO, 'npm', 'src', 'index.js'))};
    const path = ${JSON.stringify(join(FIXTURES, 'digits_cnn', 'model.pt2'))};
    const two = await load(path, { threads: 2 });
    const three = await load(path, { threads: 3 });
    const { args } = two.exampleInputs();
    const a = two.run(args), b = three.run(args);
    console.log(JSON.stringify({ threads: [two.threads, three.threads], same: a.data.every((v, i) => v === b.data[i]) }));
  `;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(result.signal, null, `the process did not exit by itself: ${result.stderr}`);
  assert.equal(result.status, 0, result.stderr);
  assert.deepEqual(JSON.parse(result.stdout), { threads: [2, 3], same: true });
});
