// Shared set-up of the browser tests: the demo server on a free port,
// Debian's headless chromium driven by playwright-core (as root: no
// sandbox; a fresh profile folder per run; PT2WEB_CHROMIUM names another
// chromium binary), screenshots kept as artifacts in
// tests/artifacts/browser/, and drawing strokes with the mouse.

import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { startServer } from '../../../web/serve.mjs';

// playwright-core is a dev dependency of the npm package (npm/node_modules).
const { chromium } = createRequire(new URL('../../../npm/package.json', import.meta.url))('playwright-core');

export const REPO = fileURLToPath(new URL('../../../', import.meta.url));
export const ARTIFACTS = join(REPO, 'tests', 'artifacts', 'browser');
const CHROMIUM = process.env.PT2WEB_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Starts the server and a browser; resolves to {page, url, close()}.
 * Browser console errors and page errors are collected in `problems`.
 */
export async function openDemo({ width = 1280, height = 900 } = {}) {
  await mkdir(ARTIFACTS, { recursive: true });
  const server = await startServer({ port: 0 });
  const profile = await mkdtemp(join(tmpdir(), 'pt2web-chromium-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run', '--no-default-browser-check'],
      viewport: { width, height },
      deviceScaleFactor: 1,
    });
  } catch (error) {
    await server.close();
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
  const page = context.pages()[0] ?? (await context.newPage());
  const problems = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  await page.goto(server.url);
  return {
    page,
    url: server.url,
    problems,
    close: async () => {
      await context.close();
      await server.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** Saves a full-page screenshot as tests/artifacts/browser/NAME.png. */
export async function screenshot(page, name) {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true, animations: 'disabled' });
}

/**
 * Draws strokes given in a unit box (0..1) with the mouse inside the element
 * matching selector, keeping `inset` of its size free on every side.
 */
export async function drawStrokes(page, selector, strokes, { inset = 0.15 } = {}) {
  const target = page.locator(selector);
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  if (!box) throw new Error(`${selector} is not visible`);
  const toPage = ({ x, y }) => ({
    x: box.x + box.width * (inset + x * (1 - 2 * inset)),
    y: box.y + box.height * (inset + y * (1 - 2 * inset)),
  });
  for (const stroke of strokes) {
    const [first, ...rest] = stroke.map(toPage);
    await page.mouse.move(first.x, first.y);
    await page.mouse.down();
    for (const point of rest) await page.mouse.move(point.x, point.y, { steps: 2 });
    await page.mouse.up();
  }
}
