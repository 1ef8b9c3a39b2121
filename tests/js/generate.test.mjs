// Program.generate() and generateTokens() on the decode step of
// tests/fixtures-transformers/llama_decode (transformers' static cache, 16
// positions), in both dialects. Golden tokens from torch 2.14's greedy loop
// over the same files (generate.json, by tools/torch/gen_decode_tokens.py;
// transformers' own helper skips a cache position, see there).
// Sampling has no torch golden (torch's generator is not ours): it is held to
// its own promises (same seed, same tokens; top-k 1 is greedy).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { BadInputError, load } from '../../npm/src/index.js';
import { FIXTURES, REPO } from './helpers.mjs';

const FOLDER = join(REPO, 'tests', 'fixtures-transformers', 'llama_decode');
const GOLDEN = JSON.parse(readFileSync(join(FOLDER, 'generate.json'), 'utf8'));

const programs = {};
before(async () => {
  for (const model of ['model.pt2', 'model.core.pt2']) programs[model] = await load(join(FOLDER, model));
});
after(() => Object.values(programs).forEach((program) => program.dispose()));

test("greedy generation makes torch's tokens, in both dialects", async () => {
  assert.ok(GOLDEN.runs.length >= 4);
  for (const run of GOLDEN.runs) {
    const made = await programs[run.model].generate(run.prompt, { maxNewTokens: run.max_new_tokens });
    assert.deepEqual(made, run.tokens, `${run.model} prompt ${run.prompt}`);
  }
});

test('generateTokens() yields the same tokens one at a time; onToken sees each', async () => {
  const run = GOLDEN.runs[0];
  const program = programs[run.model];
  const streamed = [];
  for await (const id of program.generateTokens(run.prompt, { maxNewTokens: run.max_new_tokens })) streamed.push(id);
  assert.deepEqual(streamed, run.tokens);
  const seen = [];
  await program.generate(run.prompt, { maxNewTokens: 5, onToken: (id, index) => seen.push([index, id]) });
  assert.deepEqual(seen, run.tokens.slice(0, 5).map((id, index) => [index, id]));
});

test('a stop token ends generation with it; maxLength counts the prompt', async () => {
  const run = GOLDEN.runs[0];
  const program = programs[run.model];
  const stop = run.tokens[3];
  const upTo = run.tokens.indexOf(stop);
  assert.deepEqual(await program.generate(run.prompt, { maxNewTokens: 64, stopTokens: [stop] }), run.tokens.slice(0, upTo + 1));
  assert.deepEqual(await program.generate(run.prompt, { maxLength: 6 }), run.tokens.slice(0, 4));
});

test('sampling: the same seed gives the same tokens; top-k 1 is greedy; tokens are ids of the vocabulary', async () => {
  const run = GOLDEN.runs[0];
  const program = programs[run.model];
  const options = { sample: true, temperature: 0.8, topK: 20, topP: 0.9, seed: 42, maxNewTokens: 10 };
  const first = await program.generate(run.prompt, options);
  assert.deepEqual(await program.generate(run.prompt, options), first);
  const vocab = program.outputs[0]?.shape?.[2] ?? 99;
  assert.ok(first.every((id) => Number.isInteger(id) && id >= 0 && id < vocab), String(first));
  assert.deepEqual(await program.generate(run.prompt, { sample: true, topK: 1, seed: 7, maxNewTokens: 8 }), run.tokens.slice(0, 8));
});

test('an aborted signal stops generation between steps; the program goes on', async () => {
  const run = GOLDEN.runs[0];
  const program = programs[run.model];
  const controller = new AbortController();
  const made = [];
  await assert.rejects(
    program.generate(run.prompt, { onToken: (id) => { made.push(id); if (made.length === 2) controller.abort(); }, signal: controller.signal }),
    (e) => e.name === 'AbortError',
  );
  assert.deepEqual(made, run.tokens.slice(0, 2));
  assert.deepEqual(await program.generate(run.prompt, { maxNewTokens: run.max_new_tokens }), run.tokens);
});

test('generation runs in a worker too', async () => {
  const run = GOLDEN.runs[1];
  const program = await load(join(FOLDER, run.model), { worker: true });
  try {
    assert.deepEqual(await program.generate(run.prompt, { maxNewTokens: run.max_new_tokens }), run.tokens);
  } finally {
    await program.dispose();
  }
});

test('bad prompts, options and programs are refused by name', async () => {
  const program = programs['model.pt2'];
  const refuses = (promise, pattern) => assert.rejects(promise, (e) => e instanceof BadInputError && pattern.test(e.message));
  await refuses(program.generate([]), /non-empty array of token ids/);
  await refuses(program.generate([1, -2]), /prompt token 1 is -2/);
  await refuses(program.generate(Array(16).fill(1)), /16 tokens, leaving no room.*key_cache_0/);
  await refuses(program.generate([1], { topP: 0 }), /topP must lie in/);
  await refuses(program.generate([1], { maxTokens: 3 }), /unknown option 'maxTokens'/);
  const mlp = await load(join(FIXTURES, 'mlp', 'model.pt2'));
  try {
    await refuses(mlp.generate([1]), /input_ids and cache_position/);
  } finally {
    mlp.dispose();
  }
});
