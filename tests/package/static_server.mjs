// A minimal static file server for the packaging test: serves one folder on
// 127.0.0.1 at a free port with the content types browsers need
// (application/wasm lets them compile while downloading), an ETag (a
// request whose If-None-Match has it gets 304 Not Modified) and no-store
// (the browser's HTTP cache keeps nothing), and records
// every path requested and every response's status.

import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.css': 'text/css',
};

// What makes a page cross-origin isolated (SharedArrayBuffer, wasm threads).
const ISOLATION_HEADERS = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
};

/**
 * Starts serving root (with the cross-origin isolation headers when
 * `isolated`); resolves to {url, requested: string[], responses:
 * [{path, status}], close()}.
 */
export async function serveFolder(root, { isolated = false } = {}) {
  const requested = [];
  const responses = [];
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
    requested.push(path);
    const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
    if (!file.startsWith(root)) {
      response.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      const etag = `"${createHash('sha1').update(body).digest('hex')}"`;
      // no-store: the browser's own HTTP cache stays out of the way, so only pt2web's cache revalidates.
      const headers = { etag, 'cache-control': 'no-store', ...(isolated ? ISOLATION_HEADERS : {}) };
      if (request.headers['if-none-match'] === etag) {
        responses.push({ path, status: 304 });
        response.writeHead(304, headers).end();
        return;
      }
      responses.push({ path, status: 200 });
      response.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'content-length': body.length,
        ...headers,
      });
      response.end(body);
    } catch {
      responses.push({ path, status: 404 });
      response.writeHead(404).end('not found');
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    requested,
    responses,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
