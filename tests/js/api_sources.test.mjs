// load() sources: paths, file URLs, bytes of every kind, Blob and File,
// Response and http(s) URLs (a local server), with onProgress and its stages; and the errors
// for sources that cannot be read or are of the wrong kind.

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, relative } from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { BadFileError, BadInputError, load } from '../../npm/src/index.js';
import { FIXTURES } from './helpers.mjs';

const MLP = join(FIXTURES, 'mlp', 'model.pt2');
const BYTES = readFileSync(MLP);

// A server for the model: /model.pt2 with a Content-Length, /chunked.pt2
// without one (sent in pieces), anything else 404.
let server;
let base;
before(async () => {
  server = createServer((request, response) => {
    if (request.url === '/model.pt2') {
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': BYTES.length });
      response.end(BYTES);
    } else if (request.url === '/chunked.pt2') {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      const piece = Math.ceil(BYTES.length / 4);
      for (let at = 0; at < BYTES.length; at += piece) response.write(BYTES.subarray(at, at + piece));
      response.end();
    } else {
      response.writeHead(404);
      response.end('not here');
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${server.address().port}`;
});
after(() => server.close());

// Loads, checks that the program is the MLP and disposes it; returns the progress events.
async function loadsMlp(source, options = {}) {
  const events = [];
  const program = await load(source, { ...options, onProgress: (p) => events.push(p) });
  let weightBytes = 0;
  try {
    assert.deepEqual(program.signature.parameters, ['fc1.weight', 'fc1.bias', 'fc2.weight', 'fc2.bias']);
    for (const tensor of Object.values(await program.stateDict())) weightBytes += tensor.data.byteLength;
  } finally {
    program.dispose();
  }
  // Stages: downloads (the last complete, sent once) and wasm in either order, then prepare, then the
  // weights as they are read into place (from 0 to all of their bytes), then ready.
  const stages = events.map((e) => e.stage);
  assert.deepEqual(stages.slice(-2), ['weights', 'ready'], stages.join());
  // (A worker instantiates its own module, so its loads have no 'wasm' stage.)
  const expected = options.worker ? ['download', 'prepare', 'ready', 'weights'] : ['download', 'prepare', 'ready', 'wasm', 'weights'];
  assert.deepEqual([...new Set(stages)].sort(), expected, stages.join());
  assert.equal(stages.filter((stage) => stage === 'wasm').length, options.worker ? 0 : 1);
  assert.ok(stages.lastIndexOf('prepare') < stages.indexOf('weights'), stages.join());
  assert.deepEqual(events.at(-1), { stage: 'ready', loaded: BYTES.length, total: BYTES.length });
  const downloads = events.filter((e) => e.stage === 'download');
  assert.equal(downloads.filter((e) => e.loaded === e.total).length, 1, 'the complete download is reported once');
  assert.deepEqual(downloads.at(-1), { stage: 'download', loaded: BYTES.length, total: BYTES.length });
  const weights = events.filter((e) => e.stage === 'weights');
  assert.deepEqual(weights[0], { stage: 'weights', loaded: 0, total: weightBytes });
  assert.deepEqual(weights.at(-1), { stage: 'weights', loaded: weightBytes, total: weightBytes });
  for (const stage of ['download', 'weights']) {
    const of = events.filter((e) => e.stage === stage);
    for (let i = 1; i < of.length; i++) assert.ok(of[i].loaded >= of[i - 1].loaded, `${stage} progress only grows`);
  }
  return downloads;
}

test('a file path, relative path and file: URL (Node)', async () => {
  await loadsMlp(MLP);
  await loadsMlp(relative(process.cwd(), MLP));
  await loadsMlp(pathToFileURL(MLP));
  await loadsMlp(pathToFileURL(MLP).href);
});

test('bytes: Uint8Array, ArrayBuffer, DataView, a view into a larger buffer', async () => {
  await loadsMlp(new Uint8Array(BYTES));
  await loadsMlp(BYTES.buffer.slice(BYTES.byteOffset, BYTES.byteOffset + BYTES.byteLength));
  const padded = new Uint8Array(BYTES.length + 100);
  padded.set(BYTES, 37);
  await loadsMlp(new DataView(padded.buffer, 37, BYTES.length));
  await loadsMlp(padded.subarray(37, 37 + BYTES.length));
});

test('a program loaded in a worker reports its weights as the worker reads them', async () => {
  await loadsMlp(MLP, { worker: true });
  await loadsMlp(new Uint8Array(BYTES), { worker: true });
});

test('Blob and File report progress while streaming', async () => {
  await loadsMlp(new Blob([BYTES]));
  await loadsMlp(new File([BYTES], 'model.pt2'));
});

test('an http URL with a known size reports loaded/total as it arrives', async () => {
  const events = await loadsMlp(`${base}/model.pt2`);
  assert.ok(events.every((e) => e.total === BYTES.length));
  await loadsMlp(new URL('/model.pt2', base));
});

test('a response without Content-Length reports total null until the end', async () => {
  const events = await loadsMlp(`${base}/chunked.pt2`);
  assert.ok(events.length >= 2, `several chunks expected, got ${JSON.stringify(events)}`);
  assert.equal(events[0].total, null);
});

test('a Response, once; a used one is refused', async () => {
  const response = await fetch(`${base}/model.pt2`);
  await loadsMlp(response);
  await assert.rejects(load(response), (e) => e instanceof BadInputError && /already read/.test(e.message));
});

test('HTTP errors and unreachable servers are BAD_FILE naming the URL', async () => {
  await assert.rejects(load(`${base}/missing.pt2`), (e) =>
    e instanceof BadFileError && e.message.includes(`${base}/missing.pt2`) && /404/.test(e.message));
  await assert.rejects(load(await fetch(`${base}/missing.pt2`)), (e) => e instanceof BadFileError && /404/.test(e.message));
  await assert.rejects(load('http://127.0.0.1:1/model.pt2'), (e) => e instanceof BadFileError && /127\.0\.0\.1:1/.test(e.message));
});

test('a missing file is BAD_FILE naming the path', async () => {
  const path = join(FIXTURES, 'no_such', 'model.pt2');
  await assert.rejects(load(path), (e) => e instanceof BadFileError && e.message.includes(path) && /ENOENT/.test(e.message));
});

test('sources of the wrong kind and bad options are BAD_INPUT', async () => {
  for (const source of [42, null, undefined, {}, [1, 2, 3]]) {
    await assert.rejects(load(source), (e) => e instanceof BadInputError && /load\(\) needs/.test(e.message), String(source));
  }
  await assert.rejects(load(MLP, { onProgres: () => {} }), (e) => e instanceof BadInputError && /unknown option onProgres/.test(e.message));
  await assert.rejects(load(MLP, { onProgress: 'yes' }), (e) => e instanceof BadInputError && /onProgress/.test(e.message));
  await assert.rejects(load(MLP, 'label'), (e) => e instanceof BadInputError && /options must be an object/.test(e.message));
});

test('a ReadableStream of chunks loads; a stream of other values is BAD_INPUT', async () => {
  await loadsMlp(new Blob([BYTES]).stream());
  const strings = new ReadableStream({ start(controller) { controller.enqueue('not bytes'); controller.close(); } });
  await assert.rejects(load(strings), (e) => e instanceof BadInputError && /not a Uint8Array/.test(e.message));
});

test('the label names the program in errors', async () => {
  await assert.rejects(load(BYTES.subarray(0, 100), { label: 'my-model.pt2' }), (e) =>
    e instanceof BadFileError && e.message.includes('my-model.pt2'));
});
