// ThreadHost: a program held on this thread, in this thread's wasm module
// (the host of a Program loaded without {worker: true}, and of every
// program inside the worker of one loaded with it). It speaks the bindings'
// raw values (src/bindings: tensors as {dtype, shape, data}); Program turns
// them into the public ones.
//
// Ownership: owns the native session (weights, state, arena) in the wasm
// heap until dispose(); a host garbage-collected without it is freed too,
// eventually. Errors: the bindings' errors as pt2web's classes (callNative).

import { BadInputError, callNative, disposedError } from './errors.js';
import { moduleChoice } from './module_choice.js';

const finalizer =
  typeof FinalizationRegistry === 'function' ? new FinalizationRegistry((native) => native.delete()) : null;

// What call() may ask for: the binding's methods that read or change the program.
const METHODS = new Set(['run', 'runProfiled', 'exampleInputs', 'randomInputs', 'stateDict', 'buffers', 'resetState', 'setRandomSeed', 'save']);

export class ThreadHost {
  #native;
  #summary = null;

  /** @internal use ThreadHost.open() */
  constructor(native, threads, threadsReason, memory64) {
    this.#native = native;
    this.threads = threads;
    this.threadsReason = threadsReason;
    this.memory64 = memory64;
    this.inWorker = false;
    finalizer?.register(this, native, this);
  }

  /**
   * Loads bytes as load() does on this thread: module chosen for
   * options.threads / options.wasm / options.memory64 and the archive's size,
   * options.seed applied.
   * @param {Uint8Array|import('./file_bytes.js').FileBytes} bytes (a FileBytes is the core's to close)
   * @param {{label?: string, model?: string, threads?: number, wasm?: any, seed?: number, memory64?: boolean | 'auto',
   *          onWeights?: (done: number, total: number) => void}} options
   *   onWeights: told (bytes copied, total bytes) as the weights are read into place
   * @param {{build: string, threads: number, reason: string | null, module: Promise<any>}} [choice]
   *   the module to load in (default: moduleChoice(options, bytes.byteLength))
   */
  static async open(bytes, options, choice = moduleChoice(options, bytes.byteLength)) {
    const module = await choice.module;
    // The core calls onWeights while it loads; what that throws is kept and
    // thrown once the core has returned (a JS exception must not unwind it).
    let weightsError = null;
    const onWeights = options.onWeights && ((done, total) => {
      try {
        options.onWeights(done, total);
      } catch (error) {
        weightsError ??= { error };
      }
    });
    const host = ThreadHost.#fromModule(module, choice,
      (native) => native.load(bytes, options.label ?? '', options.model ?? '', onWeights), options.seed);
    if (weightsError) {
      host.dispose();
      throw weightsError.error;
    }
    return host;
  }

  static #fromModule(module, choice, fill, seed) {
    const native = new module.Program();
    try {
      callNative(() => fill(native));
      const used = callNative(() => native.setThreads(choice.threads));
      if (seed !== undefined) callNative(() => native.setRandomSeed(seed));
      return new ThreadHost(native, used, choice.reason, choice.build === 'memory64');
    } catch (error) {
      native.delete();
      throw error;
    }
  }

  /** The description without the printed program (parsed once). */
  summary() {
    this.#summary ??= JSON.parse(callNative(() => this.#alive().describe(false)));
    return this.#summary;
  }

  /** The program printed in the spirit of Python's print(ep). */
  printed() {
    return callNative(() => this.#alive().toString());
  }

  /** Activation memory of the last run. */
  memory() {
    return callNative(() => this.#alive().memory());
  }

  /**
   * One of the binding's methods, with its raw result.
   * @param {string} method
   * @param {unknown[]} [args]
   */
  call(method, args = []) {
    if (!METHODS.has(method)) throw new BadInputError(`a program has no method '${method}'`);
    const native = this.#alive();
    return callNative(() => native[method](...args));
  }

  /**
   * run_decompositions(): a new host holding this program in Core ATen, with
   * the same threads (a fresh binding of the same module).
   * @param {string[]} preserve
   */
  decompose(preserve) {
    const native = this.#alive();
    const choice = { build: this.memory64 ? 'memory64' : 'same', threads: this.threads, reason: this.threadsReason };
    const module = { Program: native.constructor };
    return ThreadHost.#fromModule(module, choice, (decomposed) => decomposed.loadDecomposed(native, preserve));
  }

  get disposed() {
    return this.#native === null;
  }

  dispose() {
    if (!this.#native) return;
    finalizer?.unregister(this);
    this.#native.delete();
    this.#native = null;
  }

  #alive() {
    if (!this.#native) throw disposedError();
    return this.#native;
  }
}
