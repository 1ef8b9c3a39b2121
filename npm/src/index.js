// pt2web: run PyTorch torch.export programs (.pt2) with WebAssembly, in
// browsers and Node.js. The public entry point: everything a user imports
// comes from here (types in ../index.d.ts).
//
//   import { load, Tensor } from 'pt2web';
//   const program = await load('model.pt2');
//   const y = program.run([new Tensor('float32', x, [1, 16])]);
//   program.dispose();

import { BadInputError, callNative } from './errors.js';
import { getModule } from './module.js';
import { AUTO_MEMORY64_BYTES, moduleChoice } from './module_choice.js';
import { resolveLocation } from './platform.js';
import { progressReporter } from './progress.js';
import { Program } from './program.js';
import { closingOnFailure, readSource } from './source.js';
import { ThreadHost } from './thread_host.js';
import { bytesForWorker } from './worker_bytes.js';
import { WorkerHost } from './worker_host.js';

export {
  Pt2webError,
  BadFileError,
  BadInputError,
  UnsupportedError,
  BadProgramError,
  OutOfMemoryError,
  InternalError,
} from './errors.js';
export { Tensor, DTYPES } from './tensor.js';
export { float, int, tuple, list, dict } from './values.js';
export { sampleInputs } from './sample_inputs.js';
export { cachedModels, clearModelCache } from './model_cache.js';
export { wasmFeatures } from './features.js';
export { Program };

const LOAD_OPTIONS = ['label', 'onProgress', 'wasm', 'cache', 'model'];
const PROGRAM_OPTIONS = [...LOAD_OPTIONS, 'threads', 'worker', 'seed', 'memory64'];

function checkOptions(options, known, where) {
  if (options === null || typeof options !== 'object') throw new BadInputError(`${where}: options must be an object`);
  const unknown = Object.keys(options).filter((key) => !known.includes(key));
  if (unknown.length) {
    throw new BadInputError(`${where}: unknown option${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (known: ${known.join(', ')})`);
  }
}

/**
 * Loads a program and prepares it to run; rejects with UnsupportedError
 * listing every missing operator.
 * source: a URL, a path (Node), a Response, a Blob or the bytes.
 * options: label: the program's name in error messages; model: which model
 *   of a PT2 archive holding several; onProgress({stage,
 *   loaded, total}) as loading goes on (progress.js lists the stages); cache:
 *   keep the bytes of a fetched model in the browser's Cache API
 *   (model_cache.js); wasm: where pt2web.wasm is (URL or path), or its bytes
 *   or compiled module; threads: how many threads runs may use (default 1).
 *   More than 1 loads the threaded build where it can run (Node, cross-origin
 *   isolated pages) and falls back to one thread elsewhere (with a console
 *   warning, once); Program.threads tells which and Program.threadsReason
 *   why; worker: true holds the program in a Web Worker (Node: a worker
 *   thread): the same Program, whose methods then return Promises; seed:
 *   where the random operators' stream starts (Program.setRandomSeed);
 *   memory64: true runs the program in the Memory64 build (64-bit wasm
 *   addresses, past wasm32's 4 GB; one thread; Node 24, Chromium 133,
 *   Firefox 134), false never does, and 'auto' (the default) does for an
 *   archive larger than 3.5 GiB where the engine has Memory64
 *   (Program.memory64 tells which).
 * ../index.d.ts declares the two forms (tests/js/types.test.mjs checks that they fit).
 *
 * @param {string|URL|Response|Blob|ReadableStream<Uint8Array>|ArrayBuffer|ArrayBufferView} source
 * @param {any} [options]
 * @returns {Promise<any>} a Program
 */
export async function load(source, options = {}) {
  checkOptions(options, PROGRAM_OPTIONS, 'load()');
  if (options.worker !== undefined && typeof options.worker !== 'boolean') {
    throw new BadInputError(`options.worker must be true or false, got ${String(options.worker)}`);
  }
  const model = modelOption(options);
  const progress = progressReporter(options.onProgress);
  if (options.worker) return loadInWorker(source, options, progress);
  // The module loads while the bytes are read; a program found too large for
  // wasm32 only then (memory64: 'auto') moves to the Memory64 build.
  let choice = moduleChoice(options);
  const wasmReady = choice.module.then((module) => {
    progress.stage('wasm');
    return module;
  });
  const { bytes, label } = await readBesides(wasmReady, source, sourceOptions(options, progress));
  if (choice.build !== 'memory64' && bytes.byteLength > AUTO_MEMORY64_BYTES) {
    choice = moduleChoice(options, bytes.byteLength);
  }
  progress.stage('prepare');
  const host = await closingOnFailure(bytes,
    () => ThreadHost.open(bytes, { label, model, seed: options.seed, onWeights: progress.weights }, choice));
  progress.stage('ready');
  return new Program(host);
}

// readSource(source, options) while `ready` settles; when either fails, a
// file the read opened (now or once it ends) is closed again.
async function readBesides(ready, source, options) {
  const reading = readSource(source, options);
  try {
    const [value, read] = await Promise.all([ready, reading]);
    return { ...read, ready: value };
  } catch (error) {
    reading.then((read) => read.bytes.close?.(), () => {});
    throw error;
  }
}

/**
 * options.model: which model of a PT2 archive holding several ('' when absent: the default).
 * @param {{model?: unknown}} options
 * @returns {string}
 */
function modelOption(options) {
  if (options.model === undefined) return '';
  if (typeof options.model !== 'string') {
    throw new BadInputError(`options.model must be a string (a model name), got ${String(options.model)}`);
  }
  return options.model;
}

function sourceOptions(options, progress) {
  if (options.cache !== undefined && typeof options.cache !== 'boolean') {
    throw new BadInputError(`options.cache must be true or false, got ${String(options.cache)}`);
  }
  return { label: options.label, cache: options.cache, progress };
}

// The bytes are read here (onProgress is called here: 'download', then
// 'prepare' while the worker loads them, wasm included, and 'ready'); the
// worker gets the other options, which all survive a structured clone.
// A wasm location is resolved here, where relative URLs mean the page.
async function loadInWorker(source, { worker, onProgress, cache, label, ...rest }, progress) {
  const { bytes: read, label: name } = await readSource(source, sourceOptions({ label, cache }, progress));
  const { bytes, transfer } = bytesForWorker(read);
  const options = { ...rest, label: name };
  if (typeof rest.wasm === 'string') options.wasm = (await resolveLocation(rest.wasm)).href;
  else if (rest.wasm instanceof URL) options.wasm = rest.wasm.href;
  progress.stage('prepare');
  const host = await WorkerHost.open(bytes, options, transfer, progress.weights);
  progress.stage('ready');
  return new Program(host);
}

/**
 * Describes a program without preparing it to run, so programs with
 * unsupported operators can be inspected too. Same sources and options as load().
 * @returns {Promise<any>} the description (see Program.description; JSON from the core, typed in ../index.d.ts)
 */
export async function inspect(source, options = {}) {
  checkOptions(options, LOAD_OPTIONS, 'inspect()');
  const model = modelOption(options);
  const progress = progressReporter(options.onProgress);
  const { ready: module, bytes, label } = await readBesides(getModule(options.wasm), source, sourceOptions(options, progress));
  const description = await closingOnFailure(bytes, () => JSON.parse(callNative(() => module.inspectArchive(bytes, label, model))));
  progress.stage('ready');
  return description;
}

/**
 * The wasm heap of the module for options.wasm (default: the packaged one),
 * of the threaded build when options.threads > 1 and it can run, or of the
 * Memory64 build with options.memory64 true:
 * {inUse: bytes allocated and not yet freed, heapSize: bytes of wasm memory}.
 */
export async function heapStats(options = {}) {
  checkOptions(options, ['wasm', 'threads', 'memory64'], 'heapStats()');
  const module = await moduleChoice(options).module;
  return module.heapStats();
}
