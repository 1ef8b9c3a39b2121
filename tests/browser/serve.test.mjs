// The demo server (web/serve.mjs): cross-origin isolation headers on
// everything, the MIME types browsers insist on, the package and the
// fixture programs at their paths, and nothing outside the served folders.

import assert from 'node:assert/strict';
import { stat } from 'node:fs/promises';
import { request } from 'node:http';
import { after, before, test } from 'node:test';

import { startServer } from '../../web/serve.mjs';
import { REPO } from './support/browser.mjs';

let server;

before(async () => {
  server = await startServer({ port: 0 });
});

after(async () => {
  await server?.close();
});

async function get(path, init) {
  return fetch(new URL(path, server.url), init);
}

// The status of a GET for a path sent exactly as written (fetch would
// normalize '..' away before sending).
function rawStatus(path) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method: 'GET' }, (response) => {
      response.resume();
      resolve(response.statusCode);
    });
    req.on('error', reject);
    req.end();
  });
}

test('every response carries the cross-origin isolation headers', async () => {
  for (const path of ['/', '/js/app.js', '/pt2web/src/index.js', '/no/such/file']) {
    const response = await get(path);
    assert.equal(response.headers.get('cross-origin-opener-policy'), 'same-origin', path);
    assert.equal(response.headers.get('cross-origin-embedder-policy'), 'require-corp', path);
    assert.equal(response.headers.get('cross-origin-resource-policy'), 'same-origin', path);
  }
});

test('the page, its modules, the package and the wasm module are served with their MIME types', async () => {
  const expected = {
    '/': 'text/html',
    '/style.css': 'text/css',
    '/js/app.js': 'text/javascript',
    '/pt2web/src/index.js': 'text/javascript',
    '/pt2web/dist/pt2web.mjs': 'text/javascript',
    '/pt2web/dist/pt2web.wasm': 'application/wasm',
  };
  for (const [path, type] of Object.entries(expected)) {
    const response = await get(path);
    assert.equal(response.status, 200, path);
    assert.equal(response.headers.get('content-type').split(';')[0], type, path);
  }
  const wasm = await get('/pt2web/dist/pt2web.wasm');
  assert.equal(Number(wasm.headers.get('content-length')), (await stat(`${REPO}npm/dist/pt2web.wasm`)).size);
});

test('fixture programs are served at /models/NAME.pt2 and listed in /models/index.json', async () => {
  const digits = await get('/models/digits_cnn.pt2');
  assert.equal(digits.status, 200);
  const bytes = new Uint8Array(await digits.arrayBuffer());
  assert.equal(bytes.length, (await stat(`${REPO}tests/fixtures/digits_cnn/model.pt2`)).size);
  assert.deepEqual(Array.from(bytes.subarray(0, 2)), [0x50, 0x4b], 'a zip archive');
  const samples = await (await get('/models/index.json')).json();
  assert.ok(samples.some((s) => s.name === 'digits_cnn' && s.url === '/models/digits_cnn.pt2' && s.bytes === bytes.length));
  assert.equal((await get('/models/no_such_model.pt2')).status, 404);
});

test('nothing outside the served folders is reachable', async () => {
  // CMakeLists.txt and package.json exist only outside web/ (in the repository and npm/).
  const refused = [
    '/serve.mjs',
    '/pt2web/package.json',
    '/pt2web/node_modules/vite/package.json',
    '/pt2web/bin/pt2web.mjs',
    '/../CMakeLists.txt',
    '/pt2web/src/../../../CMakeLists.txt',
    '/%2e%2e/CMakeLists.txt',
    '/js/..%2f..%2fCMakeLists.txt',
    '/pt2web/src/..%2f..%2fpackage.json',
    '/.git/config',
    '/models/..%2fmlp.pt2',
  ];
  for (const path of refused) assert.equal(await rawStatus(path), 404, path);
});

test('only GET and HEAD are allowed', async () => {
  const post = await get('/', { method: 'POST', body: 'x' });
  assert.equal(post.status, 405);
  assert.equal(post.headers.get('allow'), 'GET, HEAD');
  const head = await get('/pt2web/dist/pt2web.wasm', { method: 'HEAD' });
  assert.equal(head.status, 200);
  assert.equal((await head.arrayBuffer()).byteLength, 0);
});
