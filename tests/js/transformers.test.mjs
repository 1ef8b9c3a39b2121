// Hugging Face transformers programs through the public API, as a web
// developer calls them: run(feeds) with the keyword inputs as one object,
// ModelOutput results as objects keyed by field, against torch's values in
// tests/fixtures-transformers (torch 2.14, transformers 5.12).

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';

import { BadInputError, load } from '../../npm/src/index.js';
import { decodeCall, readCases } from '../../npm/src/cli/cases.js';
import { compareAll } from '../../npm/src/cli/compare.js';
import { FIXTURES, REPO } from './helpers.mjs';

const CORPUS = join(REPO, 'tests', 'fixtures-transformers');

for (const [name, fields] of [
  ['bert', ['last_hidden_state', 'pooler_output']],
  ['vit', ['logits']],
  ['llama', ['logits']],
]) {
  test(`${name}: run(feeds) returns its ModelOutput as an object with torch's values`, async () => {
    const program = await load(join(CORPUS, name, 'model.pt2'));
    try {
      assert.ok(program.inputs.every((input) => input.path.startsWith('**kwargs')));
      const { cases } = await readCases(join(CORPUS, name, 'cases.json'));
      for (const testCase of cases) {
        const { args, kwargs } = decodeCall(testCase);
        assert.equal(args.length, 0);
        const output = program.run(kwargs);
        assert.deepEqual(Object.keys(output), fields);
        const result = compareAll([['output', output, testCase.expected]], { rtol: testCase.rtol, atol: testCase.atol });
        assert.ok(result.ok, `${testCase.name}: ${result.problem}`);
        // The two-argument form gives the same.
        const again = program.run([], kwargs);
        assert.deepEqual(Array.from(again[fields[0]].data), Array.from(output[fields[0]].data));
      }
    } finally {
      program.dispose();
    }
  });
}

test('run(feeds) on a program with positional inputs names them', async () => {
  const program = await load(join(FIXTURES, 'mlp', 'model.pt2'));
  try {
    assert.throws(
      () => program.run({ x: null }),
      (e) => e instanceof BadInputError && /takes 1 positional input \(\*args\[0\]\)/.test(e.message),
    );
  } finally {
    program.dispose();
  }
});

test('run(feeds) with a missing keyword names the expected keys', async () => {
  const program = await load(join(CORPUS, 'bert', 'model.pt2'));
  try {
    const { cases } = await readCases(join(CORPUS, 'bert', 'cases.json'));
    const { kwargs } = decodeCall(cases[0]);
    assert.throws(
      () => program.run({ input_ids: kwargs.input_ids }),
      (e) => e instanceof BadInputError && /attention_mask/.test(e.message),
    );
  } finally {
    program.dispose();
  }
});

// torch records the cache's values after each step for the Core ATen program,
// where the cache is buffers the graph writes; the TRAINING program writes it
// in place and its cases hold the outputs only.
test('a static-cache decode step keeps its cache in buffers(), as torch\'s named_buffers(), in both dialects', async () => {
  for (const dialect of ['training', 'core']) {
    const file = dialect === 'core' ? 'model.core.pt2' : 'model.pt2';
    const program = await load(join(CORPUS, 'llama_decode', file));
    try {
      const { cases } = await readCases(join(CORPUS, 'llama_decode', dialect === 'core' ? 'cases.core.json' : 'cases.json'));
      for (const testCase of cases) {
        const { args, kwargs } = decodeCall(testCase);
        const output = program.run(args, kwargs);
        const state = program.buffers();
        const pairs = [['output', output, testCase.expected]];
        if (dialect === 'core') assert.ok(testCase.state_after, 'torch recorded the cache after each step');
        for (const [name, want] of testCase.state_after?.dict ?? []) pairs.push([`state['${name}']`, state[name] ?? null, want]);
        const result = compareAll(pairs, { rtol: testCase.rtol, atol: testCase.atol });
        assert.ok(result.ok, `${dialect} ${testCase.name}: ${result.problem}`);
      }
      // stateDict() is torch's state_dict(): the non-persistent cache is not in it.
      const persistent = Object.keys(program.stateDict());
      assert.ok(Object.keys(program.buffers()).some((name) => !persistent.includes(name)));
    } finally {
      program.dispose();
    }
  }
});
