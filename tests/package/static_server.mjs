// A minimal static file server for the packaging test: serves one folder on
// 127.0.0.1 at a free port with the content types browsers need
// (application/wasm lets them compile while downloading), and records every
// path requested.

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
 * `isolated`); resolves to {url, requested: string[], close()}.
 */
export async function serveFolder(root, { isolated = false } = {}) {
  const requested = [];
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
      response.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'content-length': body.length,
        ...(isolated ? ISOLATION_HEADERS : {}),
      });
      response.end(body);
    } catch {
      response.writeHead(404).end('not found');
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    requested,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
