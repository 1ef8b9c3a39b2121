// The demo's "Write like the GPL" card in headless chromium: the decoder
// loads in the package's worker, and pressing Write with sampling off
// continues the prompt with exactly the characters torch 2.14's greedy
// loop makes over the same file
// (tests/fixtures-generate/char_decoder/generate.json), shown as they come.
// Screenshot: tests/artifacts/browser/generate-text.png.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { REPO, openDemo, screenshot } from './support/browser.mjs';

const TIMEOUT = 60_000;
const FOLDER = join(REPO, 'tests', 'fixtures-generate', 'char_decoder');

describe('demo text generation', { timeout: 120_000 }, () => {
  let demo;
  let page;
  before(async () => {
    demo = await openDemo();
    page = demo.page;
    await page.waitForSelector('#generate-card[data-ready="true"]', { timeout: TIMEOUT });
  });
  after(async () => {
    await demo?.close();
  });

  it("writes torch's greedy continuation of the prompt", async () => {
    const { chars } = JSON.parse(await readFile(join(FOLDER, 'vocab.json'), 'utf8'));
    const { runs } = JSON.parse(await readFile(join(FOLDER, 'generate.json'), 'utf8'));
    const decode = (ids) => ids.map((id) => chars[id]).join('');
    for (const run of runs) {
      const prompt = decode(run.prompt);
      await page.fill('#generate-prompt', prompt);
      await page.click('#generate-start');
      await page.waitForSelector('#generate-card[data-state="done"]', { timeout: TIMEOUT });
      const shown = await page.textContent('#generate-output');
      const want = prompt + decode(run.tokens);
      assert.ok(shown.startsWith(want), `shown:\n${shown}\nwanted it to start with:\n${want}`);
      assert.match(await page.textContent('#generate-status'), /characters in .* s/);
      await page.evaluate(() => delete document.getElementById('generate-card').dataset.state);
    }
    await screenshot(page, 'generate-text');
  });
});
