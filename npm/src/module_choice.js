// Which WebAssembly module runs a program: the threaded build when more than
// one thread is asked for and it can run here, else the single-threaded
// module for options.wasm. Shared by load() on the calling thread and by
// the worker of load(source, {worker: true}).

import { BadInputError } from './errors.js';
import { getModule } from './module.js';
import { getThreadedModule, threadsUnavailableReason } from './threaded_module.js';

let warnedAboutThreads = false;

/**
 * The threads a program gets for options.threads (a whole number from 1 to
 * 64, default 1), and the module that runs them. reason says why fewer
 * threads than asked for (null otherwise); the first time that happens,
 * console.warn says so too.
 * @param {{threads?: unknown, wasm?: any}} options
 * @returns {{threads: number, reason: string | null, module: Promise<any>}}
 */
export function moduleChoice(options) {
  const value = options.threads === undefined ? 1 : options.threads;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 64) {
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
