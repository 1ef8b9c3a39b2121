// The web demo in headless chromium, as a visitor uses it: draw digits on
// the pad and read the prediction; open a fixture through the file input,
// check its inputs are listed, run it and compare the outputs shown with
// torch's (cases.json) and check the time profile; open a corrupt file and
// check the error, then check the page still classifies drawings and opens
// programs; run a program on 2 threads (chosen after opening it: it applies
// at once). What appears after open and run is scrolled into view; the
// "use it in your app" snippet runs in Node as shown; a classifier's top
// classes are charted, and it runs on an uploaded image; profile labels are
// never cut off. Screenshots of
// every step go to tests/artifacts/browser/ (01-... to 12-...).
//
// Run: node --test tests/browser/   (needs /usr/bin/chromium and npm/node_modules)

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { REPO, drawStrokes, openDemo, screenshot } from './support/browser.mjs';
import { DIGIT_STROKES } from './support/digit-strokes.mjs';
import { assertClose, goldenCase, shownValues } from './support/golden.mjs';

const TIMEOUT = 30_000;
const FIXTURE = 'tiny_transformer';
// The archive's example inputs (what torch.export was given) are this case's inputs.
const EXAMPLE_CASE = 'seq16';

describe('web demo', { timeout: 150_000 }, () => {
  let demo;
  let page;

  before(async () => {
    demo = await openDemo();
    page = demo.page;
    await page.waitForSelector('#draw-card[data-ready="true"]', { timeout: TIMEOUT });
  });

  after(async () => {
    await demo?.close();
  });

  // Waits until the element's top is inside the viewport (it was scrolled there).
  async function waitInView(selector) {
    try {
      await page.waitForFunction((s) => {
        const top = document.querySelector(s).getBoundingClientRect().top;
        // Scrolling is by whole pixels and layout is not, so a top scrolled to is within a pixel of 0.
        return top > -1 && top < window.innerHeight;
      }, selector, { timeout: TIMEOUT });
    } catch (error) {
      const where = await page.evaluate((s) => ({
        top: document.querySelector(s).getBoundingClientRect().top,
        scrollY: window.scrollY,
        innerHeight: window.innerHeight,
        pageHeight: document.documentElement.scrollHeight,
      }), selector);
      throw new Error(`${selector} was not scrolled into view: ${JSON.stringify(where)}`, { cause: error });
    }
  }

  async function drawDigit(digit) {
    await page.click('#clear');
    await page.waitForSelector('#prediction[data-digit=""]');
    await drawStrokes(page, '#pad', DIGIT_STROKES[digit]);
    await page.waitForSelector('#prediction:not([data-digit=""])', { timeout: TIMEOUT });
    return page.locator('#prediction').getAttribute('data-digit');
  }

  it('loads the page cross-origin isolated with the digits model ready', async () => {
    assert.equal(await page.evaluate(() => globalThis.crossOriginIsolated), true);
    assert.match(await page.locator('#draw-status').innerText(), /digits_cnn loaded/);
    assert.equal(await page.locator('#probabilities li').count(), 10);
    await screenshot(page, '01-page');
  });

  it('classifies a drawn 7, 3 and 0', async () => {
    for (const digit of [3, 0, 7]) {
      assert.equal(await drawDigit(digit), String(digit), `the drawn ${digit}`);
      const best = page.locator('#probabilities li.highlight');
      assert.equal(await best.getAttribute('data-label'), String(digit));
    }
    await screenshot(page, '02-drawn-7');
  });

  it('clears the drawing', async () => {
    await page.click('#clear');
    assert.equal(await page.locator('#prediction').innerText(), '–');
  });

  it(`opens ${FIXTURE}/model.pt2 through the file input and lists its inputs`, async () => {
    await page.setInputFiles('#file-input', `${REPO}tests/fixtures/${FIXTURE}/model.pt2`);
    await page.waitForSelector('#open-card[data-state="opened"]', { timeout: TIMEOUT });
    const inputs = page.locator('#program table.inputs-table tbody tr');
    assert.equal(await inputs.count(), 1);
    const cells = await inputs.first().locator('td').allInnerTexts();
    assert.deepEqual(cells.slice(0, 3), ['*args[0]', 'ids', 'int64[2, s0]']);
    assert.match(cells[3], /s0 ∈ \[2, 64\]/);
    assert.equal(await page.locator('#program table.outputs-table tbody tr').count(), 1);
    assert.ok((await page.locator('#operator-list li').count()) > 5, 'operators are listed');
    assert.equal(await page.locator('#operator-list li.unsupported').count(), 0);
    await waitInView('#program');
    await screenshot(page, '03-opened-fixture');
  });

  it('shows code to use the program in an app, which runs as shown', async () => {
    const code = await page.locator('#snippet').textContent();
    assert.match(code, /const program = await load\('model\.pt2'\);/);
    assert.match(code, /new Tensor\('int64', new BigInt64Array\(2 \* 2\), \[2, 2\]\) \/\* s0 in \[2, 64\] \*\//);
    // The snippet in Node, with the package and the fixture it names.
    const dir = await mkdtemp(join(tmpdir(), 'pt2web-snippet-'));
    try {
      const runnable = code
        .replace("from 'pt2web'", `from ${JSON.stringify(join(REPO, 'npm', 'src', 'index.js'))}`)
        .replace("load('model.pt2')", `load(${JSON.stringify(join(REPO, 'tests', 'fixtures', FIXTURE, 'model.pt2'))})`)
        .replace('program.dispose();', "console.log(output.shape.join('x'));\nprogram.dispose();");
      await writeFile(join(dir, 'snippet.mjs'), runnable);
      const result = spawnSync(process.execPath, [join(dir, 'snippet.mjs')], { encoding: 'utf8' });
      assert.equal(result.status, 0, `${runnable}\n${result.stderr}`);
      assert.match(result.stdout, /^2x2x\d+$/m);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('runs it on the example inputs and shows the outputs torch computed and a time profile', async () => {
    const golden = await goldenCase(FIXTURE, EXAMPLE_CASE);
    await page.click('#run-example');
    await page.waitForSelector('#open-card[data-state="ran"]', { timeout: TIMEOUT });
    assert.match(await page.locator('.run-summary').innerText(), /example inputs/);
    const input = page.locator('#input-leaves li.leaf[data-path="*args[0]"]');
    assert.equal(await input.getAttribute('data-shape'), `[${golden.input.shape.join(', ')}]`);
    // (inside the closed 'Inputs used' section: read the text, not what is rendered)
    assert.deepEqual(shownValues(await input.locator('.leaf-values').textContent()), golden.input.values.slice(0, 8));
    const leaves = page.locator('#output-leaves li.leaf');
    assert.equal(await leaves.count(), 1);
    const leaf = leaves.first();
    assert.equal(await leaf.getAttribute('data-path'), 'output');
    assert.equal(await leaf.getAttribute('data-dtype'), 'float32');
    assert.equal(await leaf.getAttribute('data-shape'), `[${golden.expected.shape.join(', ')}]`);
    const shown = shownValues(await leaf.locator('.leaf-values').innerText());
    assertClose(shown, golden.expected.values.slice(0, 8), golden, 'output');
    const profile = page.locator('#profile li');
    assert.ok((await profile.count()) >= 3, 'the profile lists operators');
    assert.match(await profile.first().getAttribute('data-label'), /^aten\./);
    await waitInView('#results');
    await screenshot(page, '04-run-results');
  });

  it('runs it on random inputs', async () => {
    await page.click('#run-random');
    await page.waitForSelector('#open-card[data-state="ran"]', { timeout: TIMEOUT });
    assert.match(await page.locator('.run-summary').innerText(), /random inputs/);
  });

  it('reports a corrupt file clearly', async () => {
    const bytes = await readFile(`${REPO}tests/fixtures/${FIXTURE}/model.pt2`);
    const corrupt = Buffer.concat([bytes.subarray(0, 4096), Buffer.alloc(4096, 0x5a)]);
    await page.setInputFiles('#file-input', { name: 'corrupt.pt2', mimeType: 'application/octet-stream', buffer: corrupt });
    await page.waitForSelector('#open-card[data-state="error"]', { timeout: TIMEOUT });
    const box = page.locator('#open-error');
    assert.equal(await box.isVisible(), true);
    assert.equal(await box.getAttribute('data-code'), 'BAD_FILE');
    assert.match(await box.locator('#error-message').innerText(), /corrupt\.pt2/);
    assert.equal(await page.locator('#program').isVisible(), false, 'no stale program is shown');
    assert.equal(await page.locator('#run-example').isVisible(), false);
    await screenshot(page, '05-corrupt-file');
  });

  it('describes a program it cannot run, next to the error', async () => {
    // mlp with its relu renamed to lift, an ATen operator that only
    // functionalization emits and pt2web does not register; same length, so
    // the zip's offsets stay valid. (It was stft, then rand, until each was
    // added.)
    const bytes = await readFile(`${REPO}tests/fixtures/mlp/model.pt2`);
    const renamed = Buffer.from(bytes.toString('latin1').replaceAll('aten.relu.default', 'aten.lift.default'), 'latin1');
    await page.setInputFiles('#file-input', { name: 'mlp_lift.pt2', mimeType: 'application/octet-stream', buffer: renamed });
    await page.waitForSelector('#open-card[data-state="error"]', { timeout: TIMEOUT });
    assert.equal(await page.locator('#open-error').getAttribute('data-code'), 'UNSUPPORTED');
    assert.match(await page.locator('#error-message').innerText(), /lift/);
    const flagged = page.locator('#operator-list li.unsupported');
    assert.equal(await flagged.count(), 1);
    assert.equal(await flagged.getAttribute('data-target'), 'torch.ops.aten.lift.default');
    assert.equal(await page.locator('#program table.inputs-table tbody tr').count(), 1, 'its inputs are still listed');
    assert.equal(await page.locator('#run-example').isVisible(), false);
    await screenshot(page, '06-unsupported-operator');
  });

  it('still classifies drawings after the error', async () => {
    assert.equal(await drawDigit(1), '1');
    await screenshot(page, '07-after-error');
  });

  it('still opens and runs programs after the error', async () => {
    const golden = await goldenCase('mlp', 'default'); // mlp's example inputs are this case's
    await page.click('button.sample[data-sample="mlp"]');
    await page.waitForSelector('#open-card[data-state="opened"]', { timeout: TIMEOUT });
    assert.equal(await page.locator('#open-error').isVisible(), false);
    await page.click('#run-example');
    await page.waitForSelector('#open-card[data-state="ran"]', { timeout: TIMEOUT });
    const leaf = page.locator('#output-leaves li.leaf');
    assert.equal(await leaf.count(), 1);
    assert.equal(await leaf.getAttribute('data-shape'), `[${golden.expected.shape.join(', ')}]`);
    assertClose(shownValues(await leaf.locator('.leaf-values').innerText()), golden.expected.values.slice(0, 8), golden, 'output');
    await screenshot(page, '08-sample-after-error');
  });

  it('opens a file dropped on the card', async () => {
    const bytes = await readFile(`${REPO}tests/fixtures/digits_cnn/model.pt2`);
    const dataTransfer = await page.evaluateHandle((data) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(data)], 'dropped_digits.pt2'));
      return transfer;
    }, Array.from(bytes));
    await page.dispatchEvent('#drop-zone', 'drop', { dataTransfer });
    await page.waitForSelector('#open-card[data-state="opened"]', { timeout: TIMEOUT });
    assert.match(await page.locator('#program .facts').innerText(), /dropped_digits\.pt2/);
    const cells = await page.locator('#program table.inputs-table tbody tr td').allInnerTexts();
    assert.deepEqual(cells.slice(0, 3), ['*args[0]', 'x', 'float32[s0, 1, 8, 8]']);
  });

  it('shows progress while a large program loads, then runs it', async () => {
    await page.click('button.sample[data-sample="mobilenet_v2"]');
    await page.waitForSelector('#progress:not([hidden])', { timeout: TIMEOUT });
    assert.match(await page.locator('#progress-text').innerText(), /^(Reading|Preparing) mobilenet_v2\.pt2/);
    await screenshot(page, '09-large-file-progress');
    await page.waitForSelector('#open-card[data-state="opened"]', { timeout: TIMEOUT });
    assert.equal(await page.locator('#progress').isVisible(), false);
    await page.click('#run-example');
    await page.waitForSelector('#open-card[data-state="ran"]', { timeout: TIMEOUT });
    assert.equal(await page.locator('#output-leaves li.leaf').getAttribute('data-shape'), '[1, 1000]');
    assert.ok((await page.locator('#profile li').count()) >= 5);
    // Every profile label is shown whole, so no two rows read the same.
    const labels = await page.locator('#profile .bar-label').evaluateAll((nodes) =>
      nodes.map((node) => ({ text: node.textContent, cut: node.scrollWidth > node.clientWidth + 1 })));
    assert.deepEqual(labels.filter((label) => label.cut), []);
    assert.equal(new Set(labels.map((label) => label.text)).size, labels.length);
    // A classifier: its top classes, the first being torch's most likely class.
    const golden = await goldenCase('mobilenet_v2', 'default');
    const best = golden.expected.values.indexOf(Math.max(...golden.expected.values));
    const classes = page.locator('#top-classes li');
    assert.equal(await classes.count(), 5);
    assert.equal(await classes.first().getAttribute('data-label'), String(best));
    assert.match(await classes.first().getAttribute('class'), /highlight/);
    await waitInView('#results');
    await screenshot(page, '10-large-program-profile');
  });

  it('runs the classifier on an uploaded image, scaled to its input size', async () => {
    // An 8x8 image of one colour, made by the page's canvas.
    const base64 = await page.evaluate(() => {
      const canvas = document.createElement('canvas');
      canvas.width = canvas.height = 8;
      const context = canvas.getContext('2d');
      context.fillStyle = 'rgb(200, 100, 50)';
      context.fillRect(0, 0, 8, 8);
      return canvas.toDataURL('image/png').split(',')[1];
    });
    assert.equal(await page.locator('#run-image-label').isVisible(), true);
    await page.setInputFiles('#run-image', { name: 'colour.png', mimeType: 'image/png', buffer: Buffer.from(base64, 'base64') });
    await page.waitForSelector('#open-card[data-state="ran"]', { timeout: TIMEOUT });
    assert.match(await page.locator('.run-summary').innerText(), /your image/);
    const input = page.locator('#input-leaves li.leaf[data-path="*args[0]"]');
    assert.equal(await input.getAttribute('data-shape'), '[1, 3, 224, 224]');
    // Every pixel is the colour: red 200/255 first, then green 100/255 and blue 50/255 planes.
    assert.deepEqual(shownValues(await input.locator('.leaf-values').textContent()), Array(8).fill(0.7843));
    assert.match(await input.locator('.leaf-stats').textContent(), /min 0\.1961 · max 0\.7843 · mean 0\.4575/);
    assert.equal(await page.locator('#output-leaves li.leaf').getAttribute('data-shape'), '[1, 1000]');
    assert.equal(await page.locator('#top-classes li').count(), 5);
  });

  it('runs a program on 2 threads (the page is cross-origin isolated) with torch\'s results', async () => {
    assert.equal(await page.evaluate(() => globalThis.crossOriginIsolated), true);
    const golden = await goldenCase(FIXTURE, EXAMPLE_CASE);
    await page.click(`button.sample[data-sample="${FIXTURE}"]`);
    await page.waitForSelector('#open-card[data-state="opened"]', { timeout: TIMEOUT });
    assert.match(await page.locator('#program .facts').innerText(), /threads\s*1/i);
    // The new choice applies at once: the program is opened again on 2 threads.
    await page.selectOption('#threads', '2');
    await page.waitForFunction(() => /threads\s*2/i.test(document.querySelector('#program .facts')?.innerText ?? ''), null, { timeout: TIMEOUT });
    await page.waitForSelector('#open-card[data-state="opened"]', { timeout: TIMEOUT });
    await page.click('#run-example');
    await page.waitForSelector('#open-card[data-state="ran"]', { timeout: TIMEOUT });
    const leaf = page.locator('#output-leaves li.leaf').first();
    assertClose(shownValues(await leaf.locator('.leaf-values').innerText()), golden.expected.values.slice(0, 8), golden, 'output');
    await page.locator('#program').scrollIntoViewIfNeeded();
    await screenshot(page, '11-two-threads');
    await page.selectOption('#threads', '1');
  });

  it('fits a phone screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => window.scrollTo(0, 0));
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px`);
    await screenshot(page, '12-phone');
  });

  it('logged no errors in the browser', () => {
    assert.deepEqual(demo.problems, []);
  });
});
