// Random operators through the public API: a program made by torch 2.14
// (tests/fixtures-export/random_operators: rand, randn_like, randint,
// randperm, bernoulli, dropout, dropout2d, alpha_dropout in training mode)
// whose outputs hold for any draws, checked against torch's; and
// setRandomSeed on a Program in both modes. That a seed fixes the draws is
// checked natively (tests/unit/runtime/random_seed_test.cpp).

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';

import { BadInputError, load } from '../../npm/src/index.js';
import { decodeCall, readCases } from '../../npm/src/cli/cases.js';
import { compareAll } from '../../npm/src/cli/compare.js';
import { REPO } from './helpers.mjs';

const FIXTURE = join(REPO, 'tests', 'fixtures-export', 'random_operators');

async function checkCases(program, casesFile) {
  const { cases } = await readCases(join(FIXTURE, casesFile));
  for (const testCase of cases) {
    const { args, kwargs } = decodeCall(testCase);
    const output = await program.run(args, kwargs);
    const result = compareAll([['output', output, testCase.expected]], { rtol: testCase.rtol, atol: testCase.atol });
    assert.ok(result.ok, `${testCase.name}: ${result.problem}`);
  }
}

for (const [file, casesFile] of [['model.pt2', 'cases.json'], ['model.core.pt2', 'cases.core.json']]) {
  test(`random_operators (${file}): the facts torch's draws satisfy hold for every seed`, async () => {
    const program = await load(join(FIXTURE, file));
    try {
      for (const seed of [0, 1, 2 ** 40]) {
        program.setRandomSeed(seed);
        await checkCases(program, casesFile);
      }
    } finally {
      program.dispose();
    }
  });
}

test('setRandomSeed takes whole numbers from 0 to 2^53-1, and a refusal leaves the program usable', async () => {
  const program = await load(join(FIXTURE, 'model.pt2'));
  try {
    for (const bad of [-1, 0.5, 2 ** 53, Number.NaN]) {
      assert.throws(() => program.setRandomSeed(bad), (e) => e instanceof BadInputError && /seed/.test(e.message), String(bad));
    }
    await checkCases(program, 'cases.json');
  } finally {
    program.dispose();
  }
});

test('load() takes a seed, checked as setRandomSeed checks it', async () => {
  await assert.rejects(load(join(FIXTURE, 'model.pt2'), { seed: -1 }), (e) => e.code === 'BAD_INPUT' && /seed/.test(e.message));
  const program = await load(join(FIXTURE, 'model.pt2'), { seed: 99 });
  try {
    await checkCases(program, 'cases.json');
  } finally {
    program.dispose();
  }
});

test('a worker program takes a seed too', async () => {
  const program = await load(join(FIXTURE, 'model.pt2'), { worker: true, seed: 5 });
  try {
    await program.setRandomSeed(7);
    await assert.rejects(program.setRandomSeed(-3), (e) => e.code === 'BAD_INPUT');
    await checkCases(program, 'cases.json');
  } finally {
    await program.dispose();
  }
});
