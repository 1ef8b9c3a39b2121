// Which WebAssembly module runs a program: the Memory64 build for a program
// too large for wasm32 (or when asked for), else the threaded build when more
// than one thread is asked for and it can run here, else the single-threaded
// module for options.wasm. Shared by load() on the calling thread and by
// the worker of load(source, {worker: true}).

import { BadInputError, UnsupportedError } from './errors.js';
import { missingFeatureReason, BUILD_FEATURES } from './features.js';
import { getMemory64Module } from './memory64_module.js';
import { getModule } from './module.js';
import { getThreadedModule, threadsUnavailableReason } from './threaded_module.js';

/**
 * Archives past this size get the Memory64 build under memory64: 'auto'.
 * wasm32 addresses 4 GiB; the weights take about the archive's size, and the
 * rest (the program, activations, a language model's cache) must fit beside them.
 */
export const AUTO_MEMORY64_BYTES = 3.5 * 2 ** 30;

let warnedAboutThreads = false;

function memory64Option(options) {
  const value = options.memory64 === undefined ? 'auto' : options.memory64;
  if (value !== true && value !== false && value !== 'auto') {
    throw new BadInputError(`options.memory64 must be true, false or 'auto', got ${String(options.memory64)}`);
  }
  return value;
}

function threadsOption(options) {
  const value = options.threads === undefined ? 1 : options.threads;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 64) {
    throw new BadInputError(`options.threads must be a whole number from 1 to 64, got ${String(options.threads)}`);
  }
  return value;
}

// Says `reason` on the console the first time threads are cut.
function warnOnce(reason) {
  if (reason && !warnedAboutThreads) {
    warnedAboutThreads = true;
    console.warn(`pt2web: ${reason}`);
  }
}

/**
 * The module a program runs in, and the threads it gets for options.threads
 * (a whole number from 1 to 64, default 1) and options.memory64 (true, false
 * or 'auto', the default: the Memory64 build when `byteLength`, the archive's
 * size where known, passes AUTO_MEMORY64_BYTES and the engine has Memory64).
 * reason says why fewer threads than asked for (null otherwise); the first
 * time that happens, console.warn says so too.
 * Throws BadInputError for a malformed option, UnsupportedError for
 * memory64: true where the engine lacks Memory64 or with threads > 1 (the
 * Memory64 build has one thread).
 * @param {{threads?: unknown, wasm?: any, memory64?: unknown}} options
 * @param {number} [byteLength]
 * @returns {{build: 'single' | 'threads' | 'memory64', threads: number, reason: string | null, module: Promise<any>}}
 */
export function moduleChoice(options, byteLength) {
  const asked = threadsOption(options);
  const memory64 = memory64Option(options);
  const large = byteLength !== undefined && byteLength > AUTO_MEMORY64_BYTES;
  const wanted = memory64 === true || (memory64 === 'auto' && large);
  const missing = wanted ? missingFeatureReason(BUILD_FEATURES.memory64) : null;
  if (wanted && (memory64 === true || !missing)) {
    if (memory64 === true) {
      if (missing) throw new UnsupportedError(`options.memory64 is true, but ${missing}`);
      if (asked > 1) {
        throw new UnsupportedError(
          `options.memory64 is true with options.threads ${asked}, but the Memory64 build runs on one thread`);
      }
    }
    const reason = asked > 1
      ? `${asked} threads were asked for, but this ${byteLength}-byte program needs the Memory64 build, which runs on one thread`
      : null;
    warnOnce(reason);
    return { build: 'memory64', threads: 1, reason, module: getMemory64Module() };
  }
  const unavailable = asked > 1 ? threadsUnavailableReason() : null;
  const reason = unavailable && `${asked} threads were asked for, but ${unavailable}; running on one thread`;
  warnOnce(reason);
  const threads = reason ? 1 : asked;
  return threads > 1
    ? { build: 'threads', threads, reason, module: getThreadedModule(threads) }
    : { build: 'single', threads, reason, module: getModule(options.wasm) };
}
