// The Memory64 build (dist/pt2web-memory64.*: wasm64, 64-bit addresses, one
// thread): for programs larger than wasm32's 4 GB address space, in engines
// with Memory64 (features.js). module_choice.js decides when to use it.
//
// Like the threaded build it is always the packaged one. Its glue is imported
// only when a program needs it (a dynamic import with a literal path, which
// bundlers split into a chunk of its own), so pages that never load a program
// that large never download it. Node reads the .wasm from disk; browsers fetch
// it, compiling while it downloads where the server allows.
//
// Errors: an engine without Memory64 is an UnsupportedError naming it; a file
// that cannot be fetched or instantiated is a BadFileError naming it, and the
// next call retries.

import { requireFeatures } from './features.js';
import { fromUrl, wasmError } from './module.js';

const WASM_URL = new URL('../dist/pt2web-memory64.wasm', import.meta.url);

let pending = null;

const moduleError = (where, cause) => wasmError(where, cause, "pt2web's Memory64 WebAssembly binary");

async function start() {
  let factory;
  try {
    factory = (await import('../dist/pt2web-memory64.mjs')).default;
  } catch (cause) {
    throw moduleError('dist/pt2web-memory64.mjs', cause);
  }
  return fromUrl(WASM_URL, factory, moduleError);
}

/**
 * The Memory64 module, instantiated once per page or process.
 * @returns {Promise<object>} the instantiated Emscripten module
 */
export async function getMemory64Module() {
  requireFeatures('memory64');
  pending ??= start().catch((error) => {
    pending = null;
    throw error;
  });
  return pending;
}
