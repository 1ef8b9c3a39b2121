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
import { resolveLocation } from './platform.js';
import { progressReporter } from './progress.js';
import { Program } from './program.js';
import { readSource } from './source.js';
import { getThreadedModule, threadsUnavailableReason } from './threaded_module.js';
import { WorkerProgram } from './worker_program.js';

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
export { Program, WorkerProgram };

const LOAD_OPTIONS = ['label', 'onProgress', 'wasm', 'cache', 'model'];
const PROGRAM_OPTIONS = [...LOAD_OPTIONS, 'threads', 'worker', 'seed'];

function checkOptions(options, known, where) {
  if (options === null || typeof options !== 'object') throw new BadInputError(`${where}: options must be an object`);
  const unknown = Object.keys(options).filter((key) => !known.includes(key));
  if (unknown.length) {
    throw new BadInputError(`${where}: unknown option${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (known: ${known.join(', ')})`);
  }
}

let warnedAboutThreads = false;

// The threads a program gets for options.threads (a whole number from 1 to
// 64, default 1), and the module that runs them: the threaded build when
// more than one thread is asked for and it can run here, else the module
// for options.wasm. reason says why fewer threads than asked for (null
// otherwise); the first time that happens, console.warn says so too.
function threadedChoice(options) {
  const value = options.threads === undefined ? 1 : options.threads;
  if (!Number.isInteger(value) || value < 1 || value > 64) {
    throw new BadInputError(`options.threads must be a whole number from 1 to 64, got ${String(options.threads)}`);
  }
  const unavailable = value > 1 ? threadsUnavailableReason() : null;
  const reason = unavailable && `${value} threads were asked for, but ${unavailable}; running on one thread`;
  if (reason && !warnedAboutThreads) {
    warnedAboutThreads = true;
    console.warn(`pt2web: ${reason}`);
  }
  const threads = reason ? 1 : value;
  return { threads, reason, module: threads > 1 ? getThreadedModule(threads) : getModule(options.wasm) };
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
 *   why; worker: true loads the program in a Web Worker (Node: a worker
 *   thread) and resolves to a WorkerProgram, whose run() is async; seed:
 *   where the random operators' stream starts (Program.setRandomSeed).
 * The two forms below are the ones ../index.d.ts declares
 * (tests/js/types.test.mjs checks that they fit).
 *
 * @overload
 * @param {string|URL|Response|Blob|ArrayBuffer|ArrayBufferView} source
 * @param {object & {worker: true}} options
 * @returns {Promise<WorkerProgram>}
 *
 * @overload
 * @param {string|URL|Response|Blob|ArrayBuffer|ArrayBufferView} source
 * @param {object & {worker?: false}} [options]
 * @returns {Promise<Program>}
 *
 * @param {string|URL|Response|Blob|ArrayBuffer|ArrayBufferView} source
 * @param {any} [options]
 * @returns {Promise<Program|WorkerProgram>}
 */
export async function load(source, options = {}) {
  checkOptions(options, PROGRAM_OPTIONS, 'load()');
  if (options.worker !== undefined && typeof options.worker !== 'boolean') {
    throw new BadInputError(`options.worker must be true or false, got ${String(options.worker)}`);
  }
  const model = modelOption(options);
  const progress = progressReporter(options.onProgress);
  if (options.worker) return loadInWorker(source, options, progress);
  const choice = threadedChoice(options);
  const wasmReady = choice.module.then((module) => {
    progress.stage('wasm');
    return module;
  });
  const [module, { bytes, label }] = await Promise.all([wasmReady, readSource(source, sourceOptions(options, progress))]);
  progress.stage('prepare');
  const native = new module.Program();
  try {
    callNative(() => native.load(bytes, label, model));
    const used = callNative(() => native.setThreads(choice.threads));
    if (options.seed !== undefined) callNative(() => native.setRandomSeed(options.seed));
    const program = new Program(native, used, choice.reason);
    progress.stage('ready');
    return program;
  } catch (error) {
    native.delete();
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
  const { bytes, label: name } = await readSource(source, sourceOptions({ label, cache }, progress));
  const options = { ...rest, label: name };
  if (typeof rest.wasm === 'string') options.wasm = (await resolveLocation(rest.wasm)).href;
  else if (rest.wasm instanceof URL) options.wasm = rest.wasm.href;
  progress.stage('prepare');
  const program = await WorkerProgram.start(bytes, options);
  progress.stage('ready');
  return program;
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
  const [module, { bytes, label }] = await Promise.all([getModule(options.wasm), readSource(source, sourceOptions(options, progress))]);
  const description = JSON.parse(callNative(() => module.inspectArchive(bytes, label, model)));
  progress.stage('ready');
  return description;
}

/**
 * The wasm heap of the module for options.wasm (default: the packaged one),
 * or of the threaded build when options.threads > 1 and it can run:
 * {inUse: bytes allocated and not yet freed, heapSize: bytes of wasm memory}.
 */
export async function heapStats(options = {}) {
  checkOptions(options, ['wasm', 'threads'], 'heapStats()');
  const module = await threadedChoice(options).module;
  return module.heapStats();
}
