// `pt2web run`: outputs for the cases of a cases.json file (compared with
// torch's expected values after a round trip through the JSON output), for
// random inputs of valid shapes (reproducible by seed), and for the
// archive's example inputs; usage errors exit with 2, failures with 1.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { compareAll } from '../../npm/src/cli/compare.js';
import { FIXTURES, fromJsonValue, runCli } from './helpers.mjs';

const model = (fixture, file = 'model.pt2') => join(FIXTURES, fixture, file);
const casesOf = (fixture) => JSON.parse(readFileSync(join(FIXTURES, fixture, 'cases.json'), 'utf8')).cases;

function runJson(...args) {
  const { status, stdout, stderr } = runCli('run', ...args, '--json');
  assert.equal(status, 0, `${stdout}${stderr}`);
  return JSON.parse(stdout);
}

async function assertMatchesCases(fixture, results) {
  const expected = casesOf(fixture).filter((c) => c.expected !== undefined);
  assert.deepEqual(results.map((r) => r.name), expected.map((c) => c.name));
  for (const [i, testCase] of expected.entries()) {
    const got = await fromJsonValue(results[i].output);
    const result = compareAll([['output', got, testCase.expected]], { rtol: testCase.rtol, atol: testCase.atol });
    assert.ok(result.ok, `${fixture}/${testCase.name}: ${result.problem}`);
  }
}

for (const fixture of ['digits_cnn', 'pytree_io', 'counter_buffer', 'tiny_transformer']) {
  test(`run ${fixture} --cases: the JSON outputs are torch's`, async () => {
    const document = runJson(model(fixture), '--cases', join(FIXTURES, fixture, 'cases.json'));
    assert.equal(document.dialect, 'TRAINING');
    assert.ok(document.results.every((r) => typeof r.ms === 'number'));
    await assertMatchesCases(fixture, document.results);
  });
}

test('run --case NAME runs one case; --out writes the same JSON', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pt2web-run-'));
  try {
    const out = join(dir, 'outputs.json');
    const { status, stdout, stderr } = runCli('run', model('mlp'), '--cases', join(FIXTURES, 'mlp', 'cases.json'), '--case', 'other_values', '--out', out);
    assert.equal(status, 0, stderr);
    assert.match(stdout, /wrote 1 result to/);
    const document = JSON.parse(readFileSync(out, 'utf8'));
    assert.deepEqual(document.results.map((r) => r.name), ['other_values']);
    const testCase = casesOf('mlp').find((c) => c.name === 'other_values');
    const result = compareAll([['output', await fromJsonValue(document.results[0].output), testCase.expected]], testCase);
    assert.ok(result.ok, result.problem);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('run --random: valid shapes inside the ranges, the same for the same seed', () => {
  const first = runJson(model('mlp_dynamic'), '--random', '--seed', '7');
  const again = runJson(model('mlp_dynamic'), '--random', '--seed', '7');
  assert.deepEqual(first.results[0].output, again.results[0].output);
  assert.match(first.inputs, /random inputs \(seed 7\)/);
  const batches = new Set();
  for (let seed = 0; seed < 4; seed++) {
    const { output } = runJson(model('mlp_dynamic'), '--random', '--seed', String(seed)).results[0];
    assert.equal(output.dtype, 'float32');
    assert.equal(output.shape[1], 10);
    assert.ok(output.shape[0] >= 1 && output.shape[0] <= 512, `batch ${output.shape[0]} inside [1, 512]`);
    batches.add(JSON.stringify(output.data));
  }
  assert.ok(batches.size > 1, 'different seeds give different inputs');
});

test('run without --cases uses the example inputs saved in the archive', () => {
  const document = runJson(model('digits_cnn'));
  assert.equal(document.inputs, "the archive's example inputs");
  assert.equal(document.results[0].name, 'example');
  assert.equal(document.results[0].output.shape[1], 10);
});

test('run prints a readable summary by default', () => {
  const { status, stdout } = runCli('run', model('pytree_io'), '--cases', join(FIXTURES, 'pytree_io', 'cases.json'), '--case', 'default');
  assert.equal(status, 0);
  assert.match(stdout, /inputs: .*cases\.json/);
  assert.match(stdout, /\[0\]\["a"\]\s+float32\[2, 4\]\s+\[/);
});

test('run errors: usage problems exit 2, unreadable files and bad inputs exit 1', () => {
  const usage = [
    ['run'],
    ['run', model('mlp'), '--case', 'default'],
    ['run', model('mlp'), '--cases'],
    ['run', model('mlp'), '--frobnicate'],
    ['run', model('mlp'), '--random', '--seed', 'x'],
    ['run', model('mlp'), '--cases', join(FIXTURES, 'mlp', 'cases.json'), '--case', 'nope'],
  ];
  for (const args of usage) {
    const { status, stderr } = runCli(...args);
    assert.equal(status, 2, `${args.join(' ')}: ${stderr}`);
    assert.match(stderr, /pt2web run: /);
  }
  const missing = runCli('run', model('mlp'), '--cases', join(FIXTURES, 'mlp', 'no_cases.json'));
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /no_cases\.json/);
  const mismatch = runCli('run', model('digits_cnn'), '--cases', join(FIXTURES, 'mlp', 'cases.json'));
  assert.equal(mismatch.status, 1);
  assert.match(mismatch.stderr, /BAD_INPUT: .*\*args\[0\]/);
});
