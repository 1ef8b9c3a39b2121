// Instantiates the WebAssembly module (dist/pt2web.mjs, the Emscripten glue,
// with dist/pt2web.wasm) once per distinct `wasm` option and shares it
// between every program loaded with that option. Modules made from different
// options are independent instances with separate heaps.
//
// Finding the .wasm:
//   - by default through the literal `new URL('../dist/pt2web.wasm',
//     import.meta.url)` below: bundlers (Vite, webpack 5, Parcel, Rollup with
//     a URL plugin) recognise the pattern and copy the file beside the bundle.
//     Node reads the file from disk.
//   - options.wasm: a URL (string or URL; in Node also a file path) to fetch
//     it from, its bytes (ArrayBuffer or typed array), or a compiled
//     WebAssembly.Module.
// The glue is imported statically so that bundlers include it, and is always
// handed either the bytes (wasmBinary) or an instantiateWasm hook, so it never
// goes looking for the file itself.
//
// Errors: an engine without a feature the build needs (features.js) is an
// UnsupportedError saying which, before anything is fetched; a .wasm that cannot be fetched, read or instantiated is a
// BadFileError naming where it came from; a failed attempt is forgotten so
// the next call retries.

import createPt2webModule from '../dist/pt2web.mjs';

import { BadFileError, BadInputError } from './errors.js';
import { requireFeatures } from './features.js';
import { displayName, isLocalFile, readLocalFile, resolveLocation } from './platform.js';

const DEFAULT_WASM_URL = new URL('../dist/pt2web.wasm', import.meta.url);

const byUrl = new Map();  // href -> Promise<module>
const byObject = new WeakMap();  // ArrayBuffer | typed array | WebAssembly.Module -> Promise<module>

/** The BadFileError of a binary (`what`) that cannot be loaded from `where`. */
export function wasmError(where, cause, what = "pt2web's WebAssembly binary") {
  const reason = cause instanceof Error ? cause.message : String(cause);
  const error = new BadFileError(`cannot load ${what} from ${where}: ${reason}`);
  error.cause = cause;
  return error;
}

/**
 * Runs a glue's factory (default: this build's) with the bytes, or with
 * `obtainInstance(imports)` resolving to a WebAssembly.Instance. Rejects
 * (rather than hanging, as the glue would) when instantiation fails.
 */
function instantiate(where, { wasmBinary, obtainInstance }, factory = createPt2webModule) {
  return new Promise((resolve, reject) => {
    const fail = (cause) => reject(cause instanceof BadFileError ? cause : wasmError(where, cause));
    const settings = { printErr: () => {} };
    if (wasmBinary) settings.wasmBinary = wasmBinary;
    else {
      settings.instantiateWasm = (imports, receiveInstance) => {
        obtainInstance(imports).then((instance) => receiveInstance(instance), fail);
        return {};
      };
    }
    factory(settings).then(resolve, fail);
  });
}

/**
 * Fetches and instantiates a .wasm, compiling while downloading where the
 * server sends the right content type. Resolves to {instance, module};
 * a failed fetch rejects with makeError(url.href, cause).
 */
export async function fetchAndInstantiate(url, imports, makeError) {
  let response;
  try {
    response = await fetch(url, { credentials: 'same-origin' });
  } catch (cause) {
    throw makeError(url.href, cause);
  }
  if (!response.ok) throw makeError(url.href, `HTTP ${response.status} ${response.statusText}`.trim());
  const streamable = typeof WebAssembly.instantiateStreaming === 'function' &&
    (response.headers.get('content-type') ?? '').startsWith('application/wasm');
  if (streamable) return WebAssembly.instantiateStreaming(response, imports);
  return WebAssembly.instantiate(await response.arrayBuffer(), imports);
}

/**
 * Instantiates the .wasm at `url` through a glue's factory (default: this
 * build's): read from disk for a local file, else fetched (compiling while it
 * downloads where it can). A file that cannot be read or fetched rejects
 * with makeError(where, cause).
 */
export async function fromUrl(url, factory = createPt2webModule, makeError = wasmError) {
  if (isLocalFile(url)) {
    let wasmBinary;
    try {
      wasmBinary = await readLocalFile(url);
    } catch (cause) {
      throw makeError(displayName(url), cause);
    }
    return instantiate(displayName(url), { wasmBinary }, factory);
  }
  return instantiate(url.href, {
    obtainInstance: async (imports) => (await fetchAndInstantiate(url, imports, makeError)).instance,
  }, factory);
}

function fromCompiled(compiled) {
  return instantiate('the WebAssembly.Module given', {
    obtainInstance: (imports) => WebAssembly.instantiate(compiled, imports),
  });
}

function fromBytes(value) {
  const bytes = value instanceof ArrayBuffer
    ? new Uint8Array(value)
    : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  return instantiate('the bytes given', { wasmBinary: bytes });
}

function remember(cache, key, start) {
  let pending = cache.get(key);
  if (!pending) {
    pending = start().catch((error) => {
      cache.delete(key);
      throw error;
    });
    cache.set(key, pending);
  }
  return pending;
}

/**
 * The module for a `wasm` option (undefined or null: the packaged
 * dist/pt2web.wasm).
 * @param {string|URL|ArrayBuffer|ArrayBufferView|WebAssembly.Module} [wasm]
 * @returns {Promise<object>} the instantiated Emscripten module
 */
export async function getModule(wasm) {
  requireFeatures('single');
  if (wasm === undefined || wasm === null) return remember(byUrl, DEFAULT_WASM_URL.href, () => fromUrl(DEFAULT_WASM_URL));
  if (typeof wasm === 'string' || wasm instanceof URL) {
    const url = wasm instanceof URL ? wasm : await resolveLocation(wasm);
    return remember(byUrl, url.href, () => fromUrl(url));
  }
  if (wasm instanceof WebAssembly.Module) return remember(byObject, wasm, () => fromCompiled(wasm));
  if (wasm instanceof ArrayBuffer) return remember(byObject, wasm, () => fromBytes(wasm));
  if (ArrayBuffer.isView(wasm)) return remember(byObject, wasm, () => fromBytes(wasm));
  throw new BadInputError(
    'options.wasm must be a URL or path of pt2web.wasm, its bytes (ArrayBuffer or typed array) or a WebAssembly.Module',
  );
}
