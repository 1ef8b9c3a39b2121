// The npm README's transformers guide, run as written: the example module
// (npm/examples/text-classification/classify.js) imports 'pt2web' and
// '@huggingface/tokenizers' by name, so it runs from a folder whose
// node_modules holds both, as in an app. Its inputs are what export.py
// saved in tests/fixtures-guide/text_classification; the expected token ids
// and logits are what transformers' tokenizer and torch computed there.

import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, test } from 'node:test';

import { REPO } from './helpers.mjs';

const FIXTURE = join(REPO, 'tests', 'fixtures-guide', 'text_classification');
const app = mkdtempSync(join(tmpdir(), 'pt2web-guide-'));
after(() => rmSync(app, { recursive: true, force: true }));

function appWithExample() {
  mkdirSync(join(app, 'node_modules', '@huggingface'), { recursive: true });
  symlinkSync(join(REPO, 'npm'), join(app, 'node_modules', 'pt2web'));
  symlinkSync(join(REPO, 'npm', 'node_modules', '@huggingface', 'tokenizers'),
              join(app, 'node_modules', '@huggingface', 'tokenizers'));
  cpSync(join(REPO, 'npm', 'examples', 'text-classification', 'classify.js'), join(app, 'classify.js'));
  return import(pathToFileURL(join(app, 'classify.js')).href);
}

const json = (name) => JSON.parse(readFileSync(join(FIXTURE, name), 'utf8'));

test('the guide classifies text with the tokenizer transformers saved and gives torch\'s logits', async () => {
  const { createClassifier } = await appWithExample();
  const expected = json('expected.json');
  const classifier = await createClassifier({
    model: join(FIXTURE, 'model.pt2'),
    tokenizerJson: json('tokenizer.json'),
    tokenizerConfig: json('tokenizer_config.json'),
    config: json('config.json'),
  });
  try {
    const logits = classifier.logitsOf(expected.sentences);
    assert.deepEqual(logits.shape, [expected.sentences.length, 2]);
    const want = expected.logits.flat();
    Array.from(logits.data).forEach((got, i) => assert.ok(Math.abs(got - want[i]) <= 1e-5 + 1e-4 * Math.abs(want[i]),
                                                          `logit ${i}: ${got} vs torch's ${want[i]}`));
    const results = classifier.classify(expected.sentences);
    results.forEach((ranked, row) => {
      const best = expected.logits[row][0] > expected.logits[row][1] ? 'negative' : 'positive';
      assert.equal(ranked[0].label, best);
      assert.ok(Math.abs(ranked[0].score + ranked[1].score - 1) < 1e-6);
    });
    // One text alone: another batch size and length than at export.
    const single = classifier.logitsOf([expected.sentences[3]]);
    assert.deepEqual(single.shape, [1, 2]);
    assert.ok(Math.abs(single.data[0] - expected.logits[3][0]) <= 1e-4);
  } finally {
    classifier.dispose();
  }
});

test('the tokenizer gives the token ids transformers gave', async () => {
  const { Tokenizer } = await import(pathToFileURL(join(REPO, 'npm', 'node_modules', '@huggingface', 'tokenizers',
                                                          'dist', 'tokenizers.mjs')).href);
  const expected = json('expected.json');
  const tokenizer = new Tokenizer(json('tokenizer.json'), json('tokenizer_config.json'));
  expected.sentences.forEach((text, row) => {
    const ids = expected.input_ids[row].filter((_, k) => expected.attention_mask[row][k] === 1);
    assert.deepEqual(tokenizer.encode(text).ids, ids);
  });
});
