// `pt2web info` describes every fixture in both dialects, and fails cleanly
// on a corrupt file.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { FIXTURES, fixtureNames, runCli } from './helpers.mjs';

for (const fixture of fixtureNames()) {
  for (const file of ['model.pt2', 'model.core.pt2']) {
    test(`info ${fixture}/${file}`, () => {
      const meta = JSON.parse(readFileSync(join(FIXTURES, fixture, file === 'model.pt2' ? 'meta.json' : 'meta.core.json'), 'utf8'));
      const { status, stdout, stderr } = runCli('info', join(FIXTURES, fixture, file));
      assert.equal(status, 0, `${stdout}${stderr}`);
      assert.match(stdout, new RegExp(`dialect\\s+${meta.dialect}`));
      assert.match(stdout, /^inputs$/m);
      for (const spec of meta.signature.input_specs) {
        if (spec.kind === 'USER_INPUT') assert.ok(stdout.includes(spec.arg.name), `input ${spec.arg.name} missing:\n${stdout}`);
      }
      // torch lists python callables as '<built-in function mul>'; getitem never is a node of the serialized graph
      for (const op of meta.ops.filter((name) => !name.startsWith('<'))) {
        assert.ok(stdout.includes(op), `operator ${op} missing:\n${stdout}`);
      }
      assert.match(stdout, /^activation memory \(one run on /m);
      assert.match(stdout, /planned arena\s+\d/);
    });
  }
}

test('info --json gives the description', () => {
  const { status, stdout } = runCli('info', join(FIXTURES, 'mlp_dynamic', 'model.pt2'), '--json');
  assert.equal(status, 0);
  const d = JSON.parse(stdout);
  assert.equal(d.dialect, 'TRAINING');
  assert.equal(d.inputs[0].path, '*args[0]');
  assert.deepEqual(d.inputs[0].shape, ['s0', 16]);
  assert.deepEqual(d.inputs[0].ranges, { s0: [1, 512] });
  assert.deepEqual(d.signature.parameters, ['fc1.weight', 'fc1.bias', 'fc2.weight', 'fc2.bias']);
  assert.equal(d.state.parameters.count, 4);
  assert.equal(d.state.parameters.bytes, (32 * 16 + 32 + 10 * 32 + 10) * 4);
  // One run on the example inputs: the arena is at most what the buffers take without reuse.
  assert.equal(d.memory.inputs, 'example');
  assert.ok(d.memory.plannedBytes > 0);
  assert.ok(d.memory.plannedBytes <= d.memory.unplannedBytes);
});

test('a truncated file is a clear BAD_FILE error with exit code 1', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pt2web-corrupt-'));
  try {
    const bytes = readFileSync(join(FIXTURES, 'mlp', 'model.pt2'));
    writeFileSync(join(dir, 'model.pt2'), bytes.subarray(0, Math.floor(bytes.length / 2)));
    copyFileSync(join(FIXTURES, 'mlp', 'cases.json'), join(dir, 'cases.json'));

    const infoRun = runCli('info', join(dir, 'model.pt2'));
    assert.equal(infoRun.status, 1);
    assert.match(infoRun.stderr, /BAD_FILE/);
    assert.match(infoRun.stderr, /model\.pt2/);

    const checkRun = runCli('check', dir);
    assert.equal(checkRun.status, 1);
    assert.match(checkRun.stdout, /cannot load .*BAD_FILE/);
    assert.match(checkRun.stdout, /0 passed, \d+ failed/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a missing file is an error with exit code 1', () => {
  const { status, stderr } = runCli('info', join(FIXTURES, 'no_such_fixture', 'model.pt2'));
  assert.equal(status, 1);
  assert.match(stderr, /cannot read/);
});

test('an unknown command prints the usage', () => {
  const { status, stderr } = runCli('frobnicate');
  assert.equal(status, 2);
  assert.match(stderr, /usage: pt2web/);
});

test('outputs have the path of their value in the returned pytree', () => {
  // pytree_io returns ({'a': t, 'rest': [t, (t, t)]}, t): torch's out_spec above its five outputs.
  const { status, stdout } = runCli('info', join(FIXTURES, 'pytree_io', 'model.pt2'), '--json');
  assert.equal(status, 0);
  const { outputs } = JSON.parse(stdout);
  assert.deepEqual(outputs.map((o) => o.path), ["[0]['a']", "[0]['rest'][0]", "[0]['rest'][1][0]", "[0]['rest'][1][1]", '[1]']);
  assert.deepEqual(outputs.map((o) => o.name), ['mul_1', 'mul', 'add', 'sum_1', 'mean']);
  const text = runCli('info', join(FIXTURES, 'pytree_io', 'model.pt2')).stdout;
  assert.match(text, /^\s+output\[0\]\['rest'\]\[1\]\[0\]\s+add\s+float32/m);
});
