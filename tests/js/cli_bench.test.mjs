// `pt2web bench`: load time and the median and spread of run times for one
// input, as text or JSON; bad counts are usage errors.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';

import { FIXTURES, runCli } from './helpers.mjs';

const DIGITS = join(FIXTURES, 'digits_cnn');

test('bench --json: ordered statistics over the requested runs', () => {
  const { status, stdout, stderr } = runCli('bench', join(DIGITS, 'model.pt2'), '--cases', join(DIGITS, 'cases.json'), '--case', 'batch_of_32', '--runs', '7', '--warmup', '2', '--json');
  assert.equal(status, 0, stderr);
  const report = JSON.parse(stdout);
  assert.equal(report.case, 'batch_of_32');
  assert.equal(report.warmup, 2);
  assert.equal(report.run.runs, 7);
  const { min, p10, median, p90, max, mean, stdev } = report.run;
  assert.ok(min > 0 && min <= p10 && p10 <= median && median <= p90 && p90 <= max, JSON.stringify(report.run));
  assert.ok(mean >= min && mean <= max && stdev >= 0);
  assert.ok(report.loadMs > 0);
});

test('bench prints the median and spread', () => {
  const { status, stdout } = runCli('bench', join(FIXTURES, 'mlp_dynamic', 'model.pt2'), '--random', '--runs', '5', '--warmup', '1');
  assert.equal(status, 0);
  assert.match(stdout, /^load\s+[\d.]+ ms$/m);
  assert.match(stdout, /^run\s+median [\d.]+ ms\s+p10 [\d.]+ ms\s+p90 [\d.]+ ms\s+min [\d.]+ ms\s+max [\d.]+ ms\s+\(5 runs after 1 warm-up\)$/m);
});

test('bench refuses zero runs and negative warm-ups', () => {
  for (const args of [['--runs', '0'], ['--warmup', '-1'], ['--runs', 'many']]) {
    const { status, stderr } = runCli('bench', join(DIGITS, 'model.pt2'), '--random', ...args);
    assert.equal(status, 2, stderr);
    assert.match(stderr, new RegExp(`--${args[0].slice(2)} must be a whole number`));
  }
});
