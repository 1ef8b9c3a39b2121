// The packaging test: `npm pack` the package, install the tarball into a
// fresh temporary project (offline: pt2web has no dependencies), and run the
// digits model there, comparing with torch's results in cases.json:
//   (a) from a plain Node ESM script importing 'pt2web', plus the installed
//       `pt2web` bin and a `tsc --strict` check through the package's "types";
//   (b) from a Vite production build (the repository's vite, run with the
//       temporary project as its root) served on localhost and opened in
//       Debian's chromium through playwright-core; the .wasm must come from
//       the bundle's own assets;
//   (c) from Vite's dev server, with and without cross-origin isolation,
//       asking for 2 threads: the threaded build starts (isolated) or the
//       program falls back to one thread saying why (not isolated).
// Needs: npm/dist built, /usr/bin/chromium (or PT2WEB_CHROMIUM). Nothing is
// skipped: a missing piece fails with a message saying what to install.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { serveFolder } from './static_server.mjs';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const NPM = join(REPO, 'npm');
const APP = join(REPO, 'tests', 'package', 'app');
const DIGITS = join(REPO, 'tests', 'fixtures', 'digits_cnn');
const CHROMIUM = process.env.PT2WEB_CHROMIUM ?? '/usr/bin/chromium';
const npmRequire = createRequire(join(NPM, 'package.json'));

let work;
let project;

function sh(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 << 20, env: { ...process.env, npm_config_update_notifier: 'false' } });
  if (result.error) throw new Error(`${command} ${args.join(' ')}: ${result.error.message}`);
  return result;
}

function shOk(command, args, cwd) {
  const result = sh(command, args, cwd);
  assert.equal(result.status, 0, `${command} ${args.join(' ')} (in ${cwd}) failed:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

// The modules scripts/build.sh writes: wasm32 single-threaded, threaded, Memory64.
const DIST_FILES = ['pt2web.mjs', 'pt2web.wasm', 'pt2web-threads.mjs', 'pt2web-threads.wasm', 'pt2web-threads.worker.js',
  'pt2web-threads.worker-text.mjs', 'pt2web-memory64.mjs', 'pt2web-memory64.wasm'];

before(() => {
  for (const file of DIST_FILES) {
    assert.ok(existsSync(join(NPM, 'dist', file)), `npm/dist/${file} is missing: build the wasm module first (scripts/build.sh)`);
  }
  work = mkdtempSync(join(tmpdir(), 'pt2web-pack-'));
  const [packed] = JSON.parse(shOk('npm', ['pack', '--json', '--pack-destination', work], NPM));
  const files = packed.files.map((f) => f.path);
  for (const needed of ['package.json', 'index.d.ts', 'description.d.ts', 'README.md', 'src/index.js', 'bin/pt2web.mjs',
    ...DIST_FILES.map((file) => `dist/${file}`), 'dist/package.json', 'demo/digits_cnn/model.pt2', 'demo/digits_cnn/cases.json']) {
    assert.ok(files.includes(needed), `the tarball lacks ${needed} (has ${files.join(', ')})`);
  }
  assert.ok(!files.some((f) => f.startsWith('node_modules/') || f.includes('test')), `the tarball has extra files: ${files.join(', ')}`);

  project = join(work, 'project');
  mkdirSync(join(project, 'public', 'digits'), { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'pt2web-pack-check', private: true, type: 'module' }, null, 2));
  cpSync(APP, project, { recursive: true });
  for (const file of ['model.pt2', 'cases.json']) copyFileSync(join(DIGITS, file), join(project, 'public', 'digits', file));
  shOk('npm', ['install', '--offline', '--no-audit', '--no-fund', join(work, packed.filename)], project);
});

after(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

test('Node: a plain ESM script imports pt2web and matches torch, on the calling thread and in a worker', () => {
  for (const mode of [[], ['--worker']]) {
    const stdout = shOk(process.execPath, ['node_check.mjs', join(project, 'public', 'digits'), ...mode], project);
    const summary = JSON.parse(stdout);
    assert.ok(summary.cases >= 5, stdout);
    assert.deepEqual(summary.failures, []);
    assert.equal(summary.passed, summary.cases);
  }
});

test('Node: the installed pt2web bin runs info, check, demo and --version', () => {
  const bin = join(project, 'node_modules', '.bin', 'pt2web');
  // The digits program ships with the package (demo/digits_cnn), so demo runs outside the repository.
  assert.match(shOk(bin, ['demo'], project), /^(\d+) of \1 predicted digits match torch's$/m);
  assert.equal(shOk(bin, ['--version'], project).trim(), npmRequire('./package.json').version);
  assert.match(shOk(bin, ['info', join('public', 'digits', 'model.pt2')], project), /dialect\s+TRAINING/);
  assert.match(shOk(bin, ['check', join('public', 'digits')], project), /^\d+ passed, 0 failed$/m);
  // The threaded build from node_modules (its CommonJS worker script, the
  // glue's Node globals) on 2 threads.
  assert.match(shOk(bin, ['check', join('public', 'digits'), '--threads', '2'], project), /^\d+ passed, 0 failed$/m);
});

test('TypeScript: the usage file type-checks against the installed package', () => {
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'esnext', moduleResolution: 'bundler', types: [] },
    files: ['types_usage.mts'],
  }));
  shOk(process.execPath, [npmRequire.resolve('typescript/bin/tsc'), '-p', project], project);
});

// Opens the page at `query` on a server of dist/ (or on `server`) and returns its result.
async function runPage(context, query, { isolated, server: given }) {
  const server = given ?? await serveFolder(join(project, 'dist'), { isolated });
  const problems = [];
  const warnings = [];
  const page = await context.newPage();
  try {
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
      if (message.type() === 'warning') warnings.push(message.text());
    });
    await page.goto(`${server.url}${query}`);
    await page.waitForFunction(() => window.pt2webResult !== undefined, null, { timeout: 60_000 });
    const result = await page.evaluate(() => window.pt2webResult);
    assert.equal(result.error, undefined, `the page failed: ${result.error}\n${problems.join('\n')}`);
    if (result.cleared === undefined) {
      assert.ok(result.cases >= 5, JSON.stringify(result));
      assert.deepEqual(result.failures, []);
      assert.equal(result.passed, result.cases);
    }
    assert.deepEqual(problems, [], `requests: ${server.requested?.join(', ')}`);
    return { result, requested: server.requested, warnings };
  } finally {
    await page.close();
    if (!given) await server.close();
  }
}

function launchChromium(profile) {
  const { chromium } = npmRequire('playwright-core');
  return chromium.launchPersistentContext(join(work, profile), {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
}

// Vite's dev server on the project (the way `npx vite` serves it), with the
// cross-origin isolation headers when `isolated`.
async function viteDevServer({ isolated }) {
  const vite = await import(pathToFileURL(npmRequire.resolve('vite')).href);
  const headers = isolated ? { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' } : {};
  const server = await vite.createServer({
    root: project,
    configFile: false,
    logLevel: 'warn',
    server: { host: '127.0.0.1', port: 0, headers },
  });
  await server.listen();
  return { url: `http://127.0.0.1:${server.httpServer.address().port}/`, close: () => server.close() };
}

test('browser: a Vite production build runs in headless chromium, on one thread and on two', async () => {
  assert.ok(existsSync(CHROMIUM), `no chromium at ${CHROMIUM}: install Debian's chromium (apt-get install chromium) or set PT2WEB_CHROMIUM`);
  const vite = join(npmRequire.resolve('vite/package.json'), '..', 'bin', 'vite.js');
  const build = sh(process.execPath, [vite, 'build', '--logLevel', 'warn'], project);
  assert.equal(build.status, 0, `vite build failed:\n${build.stdout}\n${build.stderr}`);
  // Rolldown's [PLUGIN_TIMINGS] notice reports how long plugins took, which
  // says how busy the machine is, not what the package is: it is left out.
  const timings = /^\S*\[PLUGIN_TIMINGS\][\s\S]*?for more details\.\n?/m;
  assert.equal(`${build.stdout}${build.stderr}`.replace(timings, '').trim(), '', 'the build should give no warnings');
  const assets = readdirSync(join(project, 'dist', 'assets'));
  const single = assets.filter((f) => /^pt2web-[\w-]+\.wasm$/.test(f) && !f.startsWith('pt2web-threads') &&
    !f.startsWith('pt2web-memory64'));
  // The Memory64 glue is a chunk of its own (imported only when a program needs it) and its .wasm an asset.
  const memory64 = [/^pt2web-memory64-[\w-]+\.js$/, /^pt2web-memory64-[\w-]+\.wasm$/].map((pattern) => assets.find((f) => pattern.test(f)));
  assert.ok(memory64.every(Boolean), `Vite should emit the Memory64 build's chunk and .wasm (assets: ${assets.join(', ')})`);
  // The threaded glue and wasm; Vite inlines the small worker script as a data: URL.
  const threaded = [/^pt2web-threads-[\w-]+\.mjs$/, /^pt2web-threads-[\w-]+\.wasm$/].map((pattern) => assets.find((f) => pattern.test(f)));
  assert.equal(single.length, 1, `Vite should copy pt2web.wasm into dist/assets once (assets: ${assets.join(', ')})`);
  assert.ok(threaded.every(Boolean), `Vite should copy the threaded build's files (assets: ${assets.join(', ')})`);

  const context = await launchChromium('chromium-profile');
  try {
    // Not isolated: threads are asked for but the page falls back to one.
    const plain = await runPage(context, '?threads=2', { isolated: false });
    assert.equal(plain.result.isolated, false);
    assert.equal(plain.result.threads, 1);
    const { lastProgress, progressEvents } = plain.result;
    assert.ok(progressEvents >= 1 && lastProgress.loaded === lastProgress.total, JSON.stringify(plain.result));
    assert.ok(plain.requested.includes(`/assets/${single[0]}`), `the page should fetch the bundled .wasm; it requested ${plain.requested.join(', ')}`);
    assert.ok(!plain.requested.some((path) => path.includes('pt2web-threads')), `no threaded file should be fetched: ${plain.requested.join(', ')}`);

    // Isolated: the threaded build (glue, wasm, worker script) from the bundle.
    const isolated = await runPage(context, '?threads=2', { isolated: true });
    assert.equal(isolated.result.isolated, true);
    assert.equal(isolated.result.threads, 2);
    assert.equal(isolated.result.worker, false);

    // In a Web Worker that Vite bundled, on one thread and (isolated) on two.
    for (const [query, threads] of [['?worker=1', 1], ['?worker=1&threads=2', 2]]) {
      const inWorker = await runPage(context, query, { isolated: threads > 1 });
      assert.equal(inWorker.result.worker, true);
      assert.equal(inWorker.result.threads, threads);
      assert.ok(inWorker.requested.some((path) => /^\/assets\/program_worker-[\w-]+\.js$/.test(path)),
        `the page should start the bundled worker; it requested ${inWorker.requested.join(', ')}`);
    }
    for (const file of threaded) {
      assert.ok(isolated.requested.includes(`/assets/${file}`), `the page should fetch ${file}; it requested ${isolated.requested.join(', ')}`);
    }
  } finally {
    await context.close();
  }
});

test('browser: Vite\'s dev server, isolated with 2 threads, and not isolated falling back with a reason', async () => {
  assert.ok(existsSync(CHROMIUM), `no chromium at ${CHROMIUM}: install Debian's chromium (apt-get install chromium) or set PT2WEB_CHROMIUM`);
  const context = await launchChromium('chromium-dev-profile');
  try {
    for (const isolated of [true, false]) {
      const server = await viteDevServer({ isolated });
      try {
        // Before the worker script was embedded, the isolated case hung here.
        const { result, warnings } = await runPage(context, '?threads=2', { server });
        assert.equal(result.isolated, isolated);
        const inWorker = await runPage(context, '?threads=2&worker=1', { server });
        assert.equal(inWorker.result.worker, true);
        assert.equal(inWorker.result.threads, result.threads);
        assert.equal(result.threads, isolated ? 2 : 1);
        if (isolated) {
          assert.equal(result.threadsReason, null);
        } else {
          assert.match(result.threadsReason, /2 threads were asked for, but the page is not cross-origin isolated/);
          assert.deepEqual(warnings, [`pt2web: ${result.threadsReason}`]);
        }
      } finally {
        await server.close();
      }
    }
  } finally {
    await context.close();
  }
});

test('browser: cache: true keeps the model in the Cache API across a reload, revalidated by ETag', async () => {
  assert.ok(existsSync(join(project, 'dist', 'index.html')), 'the Vite build test runs first and leaves dist/');
  const context = await launchChromium('chromium-cache-profile');
  const server = await serveFolder(join(project, 'dist'));
  const modelFetches = () => server.responses.filter((r) => r.path === '/digits/model.pt2').map((r) => r.status);
  try {
    const first = await runPage(context, '?cache=1', { server });
    assert.deepEqual(modelFetches(), [200]);
    // The model download and the wasm fetch run side by side, so either may
    // report first; preparing, the weights and ready come after both.
    const early = first.result.stages.slice(0, -3);
    assert.ok(early.includes('download'), `stages ${first.result.stages}`);
    assert.ok(early.every((s) => s === 'download' || s === 'wasm'), `stages ${first.result.stages}`);
    assert.deepEqual(first.result.stages.slice(-3), ['prepare', 'weights', 'ready']);
    const [entry] = first.result.cached;
    assert.equal(entry.url, `${server.url}digits/model.pt2`);
    assert.match(entry.etag, /^"[0-9a-f]{40}"$/);
    // A reload: the server is asked whether the model changed, and says no.
    const second = await runPage(context, '?cache=1', { server });
    assert.deepEqual(modelFetches(), [200, 304]);
    assert.equal(second.result.lastProgress.loaded, first.result.lastProgress.loaded);
    // Without cache: true the model is downloaded again.
    await runPage(context, '', { server });
    assert.deepEqual(modelFetches(), [200, 304, 200]);
    const cleared = await runPage(context, '?clear=1', { server });
    assert.equal(cleared.result.cleared, 1);
    assert.deepEqual(cleared.result.cachedAfter, []);
  } finally {
    await server.close();
    await context.close();
  }
});
