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
import { Program } from './program.js';
import { readSource } from './source.js';
import { getThreadedModule, threadsAvailable } from './threaded_module.js';

export {
  Pt2webError,
  BadFileError,
  BadInputError,
  UnsupportedError,
  BadProgramError,
  InternalError,
} from './errors.js';
export { Tensor, DTYPES } from './tensor.js';
export { float, int, tuple, list, dict } from './values.js';
export { sampleInputs } from './sample_inputs.js';
export { Program };

const LOAD_OPTIONS = ['label', 'onProgress', 'wasm'];
const PROGRAM_OPTIONS = [...LOAD_OPTIONS, 'threads'];

function checkOptions(options, known, where) {
  if (options === null || typeof options !== 'object') throw new BadInputError(`${where}: options must be an object`);
  const unknown = Object.keys(options).filter((key) => !known.includes(key));
  if (unknown.length) {
    throw new BadInputError(`${where}: unknown option${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (known: ${known.join(', ')})`);
  }
}

// The threads a program gets for options.threads (a whole number from 1 to
// 64, default 1), and the module that runs them: the threaded build when
// more than one thread is asked for and it can run here, else the module
// for options.wasm.
function threadedChoice(options) {
  const value = options.threads === undefined ? 1 : options.threads;
  if (!Number.isInteger(value) || value < 1 || value > 64) {
    throw new BadInputError(`options.threads must be a whole number from 1 to 64, got ${String(options.threads)}`);
  }
  const threads = value > 1 && threadsAvailable() ? value : 1;
  return { threads, module: threads > 1 ? getThreadedModule(threads) : getModule(options.wasm) };
}

/**
 * Loads a program and prepares it to run.
 * @param {string|URL|Response|Blob|ArrayBuffer|ArrayBufferView} source
 * @param {{label?: string, onProgress?: Function, wasm?: any, threads?: number}} [options]
 *   label: the program's name in error messages; onProgress({loaded, total});
 *   wasm: where pt2web.wasm is (URL or path), or its bytes or compiled module;
 *   threads: how many threads runs may use (default 1). More than 1 loads the
 *   threaded build where it can run (Node, cross-origin isolated pages) and
 *   falls back to one thread elsewhere; Program.threads tells which.
 * @returns {Promise<Program>} rejects with UnsupportedError listing every missing operator
 */
export async function load(source, options = {}) {
  checkOptions(options, PROGRAM_OPTIONS, 'load()');
  const choice = threadedChoice(options);
  const [module, { bytes, label }] = await Promise.all([choice.module, readSource(source, options)]);
  const native = new module.Program();
  try {
    callNative(() => native.load(bytes, label));
    const used = callNative(() => native.setThreads(choice.threads));
    return new Program(native, used);
  } catch (error) {
    native.delete();
    throw error;
  }
}

/**
 * Describes a program without preparing it to run, so programs with
 * unsupported operators can be inspected too. Same sources and options as load().
 * @returns {Promise<object>} the description (see Program.description)
 */
export async function inspect(source, options = {}) {
  checkOptions(options, LOAD_OPTIONS, 'inspect()');
  const [module, { bytes, label }] = await Promise.all([getModule(options.wasm), readSource(source, options)]);
  return JSON.parse(callNative(() => module.inspectArchive(bytes, label)));
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
