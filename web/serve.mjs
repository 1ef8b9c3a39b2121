#!/usr/bin/env node
// The demo's web server (node:http only). Serves
//   /                      the page (web/)
//   /pt2web/src/...        the npm package's modules, /pt2web/dist/... its wasm module
//                          (the page imports 'pt2web' through an import map)
//   /models/NAME.pt2       the bundled fixture programs (tests/fixtures/NAME/model.pt2)
//   /models/generate/NAME.pt2, .json   a decoder and its vocabulary
//                          (tests/fixtures-generate/NAME/model.pt2, vocab.json)
//   /models/index.json     which sample programs the page offers
// with the headers for cross-origin isolation (COOP same-origin, COEP
// require-corp), so that SharedArrayBuffer, and with it wasm threads, is
// available, and with the MIME types browsers insist on (application/wasm,
// text/javascript for modules).
//
// Usage: node web/serve.mjs [--port N] [--host H] [--package DIR]   (PORT /
// HOST from the environment too; default 127.0.0.1:8080; DIR: another copy of
// the package, e.g. an installed node_modules/pt2web, default npm/). Tests
// import startServer().
// Only GET and HEAD; paths are resolved inside their root folder and anything
// escaping it, hidden, or outside the listed package folders is a 404.

import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const WEB_ROOT = join(REPO, 'web');
const DEFAULT_PACKAGE_ROOT = join(REPO, 'npm');
const FIXTURES = join(REPO, 'tests', 'fixtures');
// The text card's decoder programs and their vocabularies (tests/fixtures-generate/NAME/).
const DECODERS = join(REPO, 'tests', 'fixtures-generate');

// The package folders a browser needs (never node_modules or the CLI).
const PACKAGE_FOLDERS = ['src', 'dist'];

// Sample programs offered on the page, small ones first; `digits_cnn` also
// backs the drawing card. Missing fixtures are left out of the index.
const SAMPLES = [
  { name: 'digits_cnn', title: 'Digits CNN', about: 'conv + batch norm + pooling, 8x8 digits' },
  { name: 'mlp', title: 'MLP', about: 'linear + relu, static shapes' },
  { name: 'pytree_io', title: 'Pytree I/O', about: 'nested dict/tuple inputs and outputs' },
  { name: 'tiny_transformer', title: 'Tiny transformer', about: 'embeddings, attention, GELU; int64 tokens' },
  { name: 'lstm_gru', title: 'LSTM + GRU', about: 'recurrent layers' },
  { name: 'mobilenet_v2', title: 'MobileNetV2', about: '15 MB, 1x3x224x224 image' },
];

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.pt2': 'application/octet-stream',
};

const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'X-Content-Type-Options': 'nosniff',
  // The page is a development demo: always revalidate so a rebuilt module is picked up.
  'Cache-Control': 'no-cache',
};

class NotFound extends Error {}

// Joins a URL path below root; throws NotFound for anything that would leave
// root or touch a hidden entry.
function resolveInside(root, urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    throw new NotFound();
  }
  const parts = decoded.split('/').filter((part) => part !== '');
  if (parts.some((part) => part.startsWith('.') || part.includes('\\') || part.includes('\0'))) throw new NotFound();
  const full = normalize(join(root, ...parts));
  if (full !== root && !full.startsWith(root + sep)) throw new NotFound();
  return full;
}

// Maps a request path to a file on disk (or throws NotFound).
function fileFor(pathname, packageRoot) {
  if (pathname === '/') return join(WEB_ROOT, 'index.html');
  if (pathname.startsWith('/pt2web/')) {
    const rest = pathname.slice('/pt2web/'.length);
    if (!PACKAGE_FOLDERS.includes(rest.split('/')[0])) throw new NotFound();
    return resolveInside(packageRoot, rest);
  }
  const model = /^\/models\/([A-Za-z0-9_]+)\.pt2$/.exec(pathname);
  if (model) return join(FIXTURES, model[1], 'model.pt2');
  const decoder = /^\/models\/generate\/([A-Za-z0-9_]+)\.(pt2|json)$/.exec(pathname);
  if (decoder) return join(DECODERS, decoder[1], decoder[2] === 'pt2' ? 'model.pt2' : 'vocab.json');
  if (pathname === '/serve.mjs') throw new NotFound(); // the server itself is not part of the page
  return resolveInside(WEB_ROOT, pathname);
}

async function sampleIndex() {
  const present = new Set(await readdir(FIXTURES).catch(() => []));
  const samples = [];
  for (const sample of SAMPLES) {
    if (!present.has(sample.name)) continue;
    const info = await stat(join(FIXTURES, sample.name, 'model.pt2')).catch(() => null);
    if (info?.isFile()) samples.push({ ...sample, url: `/models/${sample.name}.pt2`, bytes: info.size });
  }
  return samples;
}

function send(response, status, headers, body, method) {
  response.writeHead(status, { ...ISOLATION_HEADERS, ...headers });
  response.end(method === 'HEAD' ? undefined : body);
}

function sendText(response, status, text, method) {
  send(response, status, { 'Content-Type': 'text/plain; charset=utf-8' }, `${text}\n`, method);
}

async function handle(request, response, packageRoot) {
  const method = request.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') {
    response.setHeader('Allow', 'GET, HEAD');
    return sendText(response, 405, `method ${method} not allowed`, method);
  }
  const { pathname } = new URL(request.url ?? '/', 'http://localhost');
  if (pathname === '/models/index.json') {
    return send(response, 200, { 'Content-Type': MIME['.json'] }, JSON.stringify(await sampleIndex()), method);
  }
  let path;
  try {
    path = fileFor(pathname, packageRoot);
  } catch (error) {
    if (error instanceof NotFound) return sendText(response, 404, `not found: ${pathname}`, method);
    throw error;
  }
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) return sendText(response, 404, `not found: ${pathname}`, method);
  response.writeHead(200, {
    ...ISOLATION_HEADERS,
    'Content-Type': MIME[extname(path)] ?? 'application/octet-stream',
    'Content-Length': info.size,
  });
  if (method === 'HEAD') return response.end();
  createReadStream(path)
    .on('error', (error) => response.destroy(error))
    .pipe(response);
}

/**
 * Starts the server; resolves to {url, port, close()} once it listens.
 * port 0 picks a free port; packageRoot: the folder served at /pt2web/.
 */
export function startServer({ port = 8080, host = '127.0.0.1', packageRoot = DEFAULT_PACKAGE_ROOT } = {}) {
  const root = resolve(packageRoot);
  const server = createServer((request, response) => {
    handle(request, response, root).catch((error) => {
      if (!response.headersSent) sendText(response, 500, `server error: ${error.message}`, 'GET');
      else response.destroy(error);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const actual = server.address().port;
      const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
      resolve({
        url: `http://${shownHost}:${actual}/`,
        port: actual,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections?.();
            server.close(() => done());
          }),
      });
    });
  });
}

function option(args, name, fallback) {
  const at = args.indexOf(name);
  return at >= 0 && at + 1 < args.length ? args[at + 1] : fallback;
}

async function main(args) {
  const port = Number(option(args, '--port', process.env.PORT ?? 8080));
  const host = option(args, '--host', process.env.HOST ?? '127.0.0.1');
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`serve.mjs: invalid port '${option(args, '--port', process.env.PORT)}' (expected 0..65535)`);
    return 2;
  }
  try {
    const packageRoot = option(args, '--package', DEFAULT_PACKAGE_ROOT);
    const { url } = await startServer({ port, host, packageRoot });
    console.log(`pt2web demo: ${url}  (Ctrl+C to stop)`);
  } catch (error) {
    console.error(`serve.mjs: cannot listen on ${host}:${port}: ${error.message}`);
    return 1;
  }
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const code = await main(process.argv.slice(2));
  if (code !== 0) process.exit(code);
}
