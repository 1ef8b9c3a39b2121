// The threaded build (dist/pt2web-threads.*: compiled with -pthread, shared
// memory): which environments can run it, and instantiating it once per page
// or process. module.js decides when to use it.
//
// Where it runs: Node (worker_threads), and browsers whose page is
// cross-origin isolated (COOP/COEP headers; SharedArrayBuffer exists).
// Elsewhere threadsAvailable() is false and programs run on one thread.
//
// Its files are found through the literal `new URL('../dist/…',
// import.meta.url)` patterns below (bundlers copy them as assets). The glue
// and its worker script are told every location explicitly, because the glue
// is built without import.meta (so that bundlers leave its worker alone):
//   - mainScriptUrlOrBlob: what each Web Worker imports to start a thread;
//   - locateFile: where the worker script is. In browsers it is fetched and
//     started from a blob: URL of the page's origin: a bundler may have
//     inlined the small file as a data: URL (Vite does below 4 KiB), and a
//     worker started from that would have an opaque origin;
//   - the .wasm: bytes in Node, fetched and compiled here in browsers (the
//     compiled module is then posted to the workers).
// In Node the glue's environment code is CommonJS (require, __dirname) and
// creates workers through a global Worker; both are provided only while the
// glue needs them and removed afterwards. Its workers are unref()ed, so an
// idle pool never keeps a Node process alive.
//
// Errors: a file that cannot be fetched or instantiated is a BadFileError
// naming it; a failed attempt is forgotten so the next call retries.

import { BadFileError } from './errors.js';
import { fetchAndInstantiate } from './module.js';
import { importHidden, isNode, readLocalFile } from './platform.js';

const GLUE_URL = new URL('../dist/pt2web-threads.mjs', import.meta.url);
const WASM_URL = new URL('../dist/pt2web-threads.wasm', import.meta.url);
const WORKER_URL = new URL('../dist/pt2web-threads.worker.js', import.meta.url);

/** True where the threaded build can run (Node, or a cross-origin isolated page). */
export function threadsAvailable() {
  if (isNode) return true;
  return globalThis.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function' &&
    typeof Worker === 'function';
}

function loadError(what, cause) {
  const reason = cause instanceof Error ? cause.message : String(cause);
  const error = new BadFileError(`cannot load pt2web's threaded WebAssembly build (${what}): ${reason}`);
  error.cause = cause;
  return error;
}

// Runs `create` with Node's CommonJS names and Worker defined as globals,
// restoring whatever was there before.
async function nodeGlobals() {
  const [{ createRequire }, { fileURLToPath }, { dirname }, { Worker }] = await Promise.all(
    ['node:module', 'node:url', 'node:path', 'node:worker_threads'].map(importHidden),
  );
  const values = {
    require: createRequire(GLUE_URL),
    __dirname: dirname(fileURLToPath(GLUE_URL)),
    Worker,
  };
  return (create) => {
    const saved = Object.keys(values).map((key) => [key, Object.getOwnPropertyDescriptor(globalThis, key)]);
    Object.assign(globalThis, values);
    try {
      return create();
    } finally {
      for (const [key, descriptor] of saved) {
        if (descriptor) Object.defineProperty(globalThis, key, descriptor);
        else delete globalThis[key];
      }
    }
  };
}

// The worker script as a blob: URL (see the header).
async function workerBlobUrl() {
  try {
    const response = await fetch(WORKER_URL, { credentials: 'same-origin' });
    if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`.trim());
    return URL.createObjectURL(new Blob([await response.text()], { type: 'text/javascript' }));
  } catch (cause) {
    throw loadError(WORKER_URL.href, cause);
  }
}

async function instantiate(workers) {
  let factory;
  try {
    factory = (await importHidden(GLUE_URL.href)).default;
  } catch (cause) {
    throw loadError(GLUE_URL.href, cause);
  }
  const settings = {
    printErr: () => {},
    pt2webWorkers: workers,
    mainScriptUrlOrBlob: GLUE_URL.href,
  };
  let withGlobals = (create) => create();
  if (isNode) {
    const { fileURLToPath } = await importHidden('node:url');
    settings.locateFile = (name) => fileURLToPath(new URL(name, WORKER_URL));
    try {
      settings.wasmBinary = await readLocalFile(WASM_URL);
    } catch (cause) {
      throw loadError(fileURLToPath(WASM_URL), cause);
    }
    withGlobals = await nodeGlobals();
  } else {
    const workerUrl = await workerBlobUrl();
    settings.locateFile = (name) => (name.endsWith('.worker.js') ? workerUrl : new URL(name, GLUE_URL).href);
  }
  const module = await new Promise((resolve, reject) => {
    const fail = (cause) => reject(cause instanceof BadFileError ? cause : loadError(WASM_URL.href, cause));
    if (!isNode) {
      settings.instantiateWasm = (imports, receiveInstance) => {
        fetchAndInstantiate(WASM_URL, imports, loadError).then(({ instance, module }) => receiveInstance(instance, module), fail);
        return {};
      };
    }
    withGlobals(() => factory(settings)).then(resolve, fail);
  });
  if (isNode) keepWorkersQuiet(module, withGlobals);
  return module;
}

// Node: workers (the pool, and any the glue starts later) must not keep the
// process alive, and later ones are created with the Worker global in place.
function keepWorkersQuiet(module, withGlobals) {
  const threads = module.PThread;
  const unrefAll = () => {
    for (const worker of [...threads.unusedWorkers, ...threads.runningWorkers]) worker.unref?.();
  };
  const allocate = threads.allocateUnusedWorker.bind(threads);
  threads.allocateUnusedWorker = () => withGlobals(allocate);
  // Listening to a worker's messages refs it again, so unref after that.
  const loadWorker = threads.loadWasmModuleToWorker.bind(threads);
  threads.loadWasmModuleToWorker = (...args) => {
    const result = loadWorker(...args);
    unrefAll();
    return result;
  };
  unrefAll();
}

let pending = null;

/**
 * The threaded module, instantiated on first use with `threads - 1` workers
 * started up front (more start on demand when a later program asks for more).
 * @param {number} threads
 * @returns {Promise<object>}
 */
export function getThreadedModule(threads) {
  if (!pending) {
    pending = instantiate(Math.max(threads - 1, 1)).catch((error) => {
      pending = null;
      throw error;
    });
  }
  return pending;
}
