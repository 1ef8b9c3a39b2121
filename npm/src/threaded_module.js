// The threaded build (dist/pt2web-threads.*: compiled with -pthread, shared
// memory): which environments can run it, and instantiating it once per page
// or process. module.js decides when to use it.
//
// Where it runs: Node (worker_threads), and browsers whose page is
// cross-origin isolated (COOP/COEP headers; SharedArrayBuffer exists).
// Elsewhere threadsUnavailableReason() says why, and programs run on one thread.
//
// Its files are found through the literal `new URL('../dist/…',
// import.meta.url)` patterns below (bundlers copy them as assets). The glue
// and its worker script are told every location explicitly, because the glue
// is built without import.meta (so that bundlers leave its worker alone):
//   - mainScriptUrlOrBlob: what each Web Worker imports to start a thread;
//   - locateFile: where the worker script is. In browsers the workers start
//     from a blob: URL of the page's origin made from the script's text,
//     which dist/pt2web-threads.worker-text.mjs embeds: a dev server may
//     rewrite a .js file it serves (Vite's makes the worker script an ES
//     module, which a classic worker cannot run), and a bundler may inline
//     a small file as a data: URL, whose worker would have an opaque origin;
//   - the .wasm: read from disk in Node, fetched and compiled while
//     downloading in browsers; either way compiled here through the glue's
//     instantiateWasm hook (the compiled module is then posted to the workers).
// The glue waits for its pool of workers to start and, left alone, would
// wait forever when one fails; instantiate() listens for worker errors and
// gives the workers 30 seconds (setWorkerStartTimeout) to start, and rejects
// otherwise.
// The glue creates workers through the global Worker, which is replaced,
// while the glue starts its pool, by one whose workers report errors at
// once. In Node the glue's environment code is also CommonJS (require,
// __dirname); these are provided only while the glue needs them and
// removed afterwards. Its workers are unref()ed, so an
// idle pool never keeps a Node process alive.
//
// Errors: a file that cannot be fetched or instantiated, a worker that
// fails or does not start in time, is a BadFileError naming it; the workers
// started are then terminated, and the next call retries.

import { BadFileError } from './errors.js';
import { fetchAndInstantiate } from './module.js';
import { BUILD_FEATURES, missingFeatureReason } from './features.js';
import { importHidden, isNode, readLocalFile } from './platform.js';

const GLUE_URL = new URL('../dist/pt2web-threads.mjs', import.meta.url);
const WASM_URL = new URL('../dist/pt2web-threads.wasm', import.meta.url);
const WORKER_URL = new URL('../dist/pt2web-threads.worker.js', import.meta.url);
const WORKER_TEXT_URL = new URL('../dist/pt2web-threads.worker-text.mjs', import.meta.url);

let workerStartTimeoutMs = 30_000;

/** For tests: how long the workers may take to start before loading fails. */
export function setWorkerStartTimeout(ms) {
  workerStartTimeoutMs = ms;
}

/**
 * Why the threaded build cannot run here, or null when it can (Node, or a
 * cross-origin isolated page).
 */
export function threadsUnavailableReason() {
  const missing = missingFeatureReason(BUILD_FEATURES.threads);
  if (missing) return missing;
  if (isNode) return null;
  if (typeof Worker !== 'function') return 'Web Workers are not available here';
  if (globalThis.crossOriginIsolated !== true || typeof SharedArrayBuffer !== 'function') {
    return 'the page is not cross-origin isolated (serve it with the headers Cross-Origin-Opener-Policy: same-origin ' +
      'and Cross-Origin-Embedder-Policy: require-corp), so SharedArrayBuffer is unavailable';
  }
  return null;
}

function loadError(what, cause) {
  const reason = cause instanceof Error ? cause.message : String(cause);
  const error = new BadFileError(`cannot load pt2web's threaded WebAssembly build (${what}): ${reason}`);
  error.cause = cause;
  return error;
}

// A Worker class whose workers pass their errors to onWorkerError from the
// start: the glue listens only once the wasm is compiled, and meanwhile an
// error would be lost (browsers) or end the process (Node).
function listenedWorker(Worker, onWorkerError) {
  return class extends Worker {
    constructor(...args) {
      super(...args);
      if (isNode) this.on('error', onWorkerError);
      else this.addEventListener('error', onWorkerError);
    }
  };
}

// Runs `create` with `values` as globals, restoring whatever was there before.
function withGlobalValues(values) {
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

// Node's CommonJS names and a listened Worker, as the glue's globals. The
// glue sets its Worker global from require('worker_threads') while it
// starts, so that require gives the listened class too: a worker whose
// script throws before the glue listens is then reported, not an uncaught
// exception in the caller's process.
async function nodeGlobals(onWorkerError) {
  const [{ createRequire }, { fileURLToPath }, { dirname }, workerThreads] = await Promise.all(
    ['node:module', 'node:url', 'node:path', 'node:worker_threads'].map(importHidden),
  );
  const Worker = listenedWorker(workerThreads.Worker, onWorkerError);
  const requireFromGlue = createRequire(GLUE_URL);
  const require = (name) =>
    name === 'worker_threads' || name === 'node:worker_threads' ? { ...workerThreads, Worker } : requireFromGlue(name);
  return withGlobalValues({ require, __dirname: dirname(fileURLToPath(GLUE_URL)), Worker });
}

// The worker script as a blob: URL (see the header).
async function workerBlobUrl() {
  let text;
  try {
    text = (await importHidden(WORKER_TEXT_URL.href)).default;
  } catch (cause) {
    throw loadError(WORKER_TEXT_URL.href, cause);
  }
  return URL.createObjectURL(new Blob([text], { type: 'text/javascript' }));
}

// What a worker's error event (browsers) or error (Node) says.
function describeWorkerError(event) {
  const message = event?.message || 'the worker script could not be loaded or run';
  return event?.filename ? `${message} (${event.filename}:${event.lineno})` : message;
}

// Calls report(error) for an error of any worker the glue loads; report
// returns true when it handled the error, false to let the glue's handler
// (which throws it) run.
function watchWorkers(threads, report) {
  const loadWorker = threads.loadWasmModuleToWorker.bind(threads);
  threads.loadWasmModuleToWorker = (worker, ...rest) => {
    const result = loadWorker(worker, ...rest);
    const glueHandler = worker.onerror;
    worker.onerror = (event) => {
      if (!report(loadError('a worker', describeWorkerError(event)))) glueHandler?.(event);
    };
    return result;
  };
}

function terminateWorkers(threads) {
  if (!threads) return;
  for (const worker of [...threads.unusedWorkers, ...threads.runningWorkers]) worker.terminate();
}

// How this environment gets the wasm and the worker script; resolves to
// {obtain(imports) -> Promise<{instance, module}>, withGlobals(create)}.
async function environment(settings, onWorkerError) {
  if (!isNode) {
    const workerUrl = await workerBlobUrl();
    settings.locateFile = (name) => (name.endsWith('.worker.js') ? workerUrl : new URL(name, GLUE_URL).href);
    return {
      obtain: (imports) => fetchAndInstantiate(WASM_URL, imports, loadError),
      withGlobals: withGlobalValues({ Worker: listenedWorker(Worker, onWorkerError) }),
    };
  }
  const { fileURLToPath } = await importHidden('node:url');
  settings.locateFile = (name) => fileURLToPath(new URL(name, WORKER_URL));
  let bytes;
  try {
    bytes = await readLocalFile(WASM_URL);
  } catch (cause) {
    throw loadError(fileURLToPath(WASM_URL), cause);
  }
  return { obtain: (imports) => WebAssembly.instantiate(bytes, imports), withGlobals: await nodeGlobals(onWorkerError) };
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
  let reportWorkerError = () => false;
  const { obtain, withGlobals } = await environment(settings, (error) => reportWorkerError(error));
  const module = await new Promise((resolve, reject) => {
    let settled = false;
    let timer;
    const settle = (finish, value) => {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      finish(value);
      return true;
    };
    let failed = false;
    const fail = (cause) => {
      const error = cause instanceof BadFileError ? cause : loadError(WASM_URL.href, cause);
      if (settle(reject, error)) {
        failed = true;
        terminateWorkers(settings.PThread);
      }
      return true;
    };
    // A worker's error reaches both listeners (the one every worker gets when
    // created, and the glue's onerror, wrapped by watchWorkers), in an order
    // that depends on when it happens. Before loading settles, either one
    // fails the load; after a failed load, errors of the workers being
    // terminated are dropped (the glue's handler would throw them); after a
    // successful load, they are the glue's.
    const handleWorkerError = (error) => (settled ? failed : fail(error));
    reportWorkerError = (error) => !settled && fail(loadError('a worker', describeWorkerError(error)));
    settings.instantiateWasm = (imports, receiveInstance) => {
      obtain(imports).then(({ instance, module: compiled }) => {
        if (settled) return;
        watchWorkers(settings.PThread, handleWorkerError);
        timer = setTimeout(() => {
          fail(loadError('its workers', `they did not start within ${workerStartTimeoutMs / 1000} s`));
        }, workerStartTimeoutMs);
        receiveInstance(instance, compiled);
      }, fail);
      return {};
    };
    withGlobals(() => factory(settings)).then((value) => settle(resolve, value), fail);
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
