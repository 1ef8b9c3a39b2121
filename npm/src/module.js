// Loads the WebAssembly module (dist/pt2web.mjs + dist/pt2web.wasm) once per
// process or page. In Node the .wasm bytes are read from disk and handed to
// the factory as wasmBinary (the Emscripten 3.1.6 glue would otherwise try
// to fetch them by URL); in browsers the factory fetches dist/pt2web.wasm
// next to this package.

import { InternalError } from './errors.js';

const DIST = new URL('../dist/', import.meta.url);
const isNode = typeof process === 'object' && process.versions != null && process.versions.node != null;

let pending = null;

async function importFactory() {
  try {
    const glue = await import(new URL('pt2web.mjs', DIST).href);
    return glue.default;
  } catch (cause) {
    const error = new InternalError(
      `cannot load pt2web's WebAssembly module from ${DIST.href} (${cause.message}); ` +
        'build it with scripts/build.sh',
    );
    error.cause = cause;
    throw error;
  }
}

async function instantiate() {
  const createModule = await importFactory();
  if (isNode) {
    const { readFile } = await import('node:fs/promises');
    const wasmBinary = await readFile(new URL('pt2web.wasm', DIST));
    return createModule({ wasmBinary });
  }
  return createModule({ locateFile: (file) => new URL(file, DIST).href });
}

/** The instantiated module (shared); a failed attempt is retried on the next call. */
export function getModule() {
  if (!pending) {
    pending = instantiate().catch((error) => {
      pending = null;
      throw error;
    });
  }
  return pending;
}
