// Program: a loaded .pt2 program, ready to run. Created by load().
//
// The description properties (inputs, outputs, signature, rangeConstraints,
// dialect, operators) come from the core's description
// (src/runtime/describe.h), made on first use, not at load.
//
// Ownership: a Program owns its native session (weights, state, activation
// arena) in the wasm heap. dispose() (or `using program = await load(...)`,
// through Symbol.dispose) frees it; programs that are garbage-collected
// without it are freed too, eventually. Everything a Program returns is a
// JS copy that stays valid after dispose().

import { BadInputError, callNative } from './errors.js';
import { DISPOSE } from './platform.js';
import { Tensor } from './tensor.js';
import { callOf, fromNative } from './values.js';

const finalizer =
  typeof FinalizationRegistry === 'function' ? new FinalizationRegistry((native) => native.delete()) : null;

export class Program {
  #native;
  #summary; // the description without the printed program
  #description;
  #threads;
  #threadsReason;

  /** @internal use load() */
  constructor(native, threads = 1, threadsReason = null) {
    this.#native = native;
    this.#threads = threads;
    this.#threadsReason = threadsReason;
    finalizer?.register(this, native, this);
  }

  /**
   * Threads a run may use, the calling one included: options.threads where
   * the threaded build could load, else 1. After comparing the two on its
   * first runs, the program runs on one thread when that is faster.
   */
  get threads() {
    return this.#threads;
  }

  /** Why the program got fewer threads than options.threads asked for; null when it did not. */
  get threadsReason() {
    return this.#threadsReason;
  }

  /** The full description (what `pt2web info` prints), the printed program included. */
  get description() {
    this.#description ??= { ...this.#describe(), printed: this.toString() };
    return this.#description;
  }

  /** User inputs in call order: {path, name, kind, dtype, shape, ranges} or {kind: 'constant', value}. */
  get inputs() {
    return this.#describe().inputs;
  }

  /** User outputs in flatten order: {path, name, kind, dtype, shape}; path like "[0]" or "['logits']". */
  get outputs() {
    return this.#describe().outputs;
  }

  /** The graph signature: input_specs, output_specs and torch's derived views. */
  get signature() {
    return this.#describe().signature;
  }

  /**
   * Ranges of the symbolic sizes: {symbol: [min, max]} (max null when
   * unbounded), e.g. {s0: [1, 512]}.
   */
  get rangeConstraints() {
    return this.#describe().range_constraints;
  }

  /** "TRAINING" (torch.export's default) or "ATEN" (after run_decompositions()). */
  get dialect() {
    return this.#describe().dialect;
  }

  /** Every operator the program uses: {target, count, supported}. */
  get operators() {
    return this.#describe().operators;
  }

  /**
   * Runs the program like ep.module()(*args, **kwargs). Tensors in the
   * result are new arrays; input tensors the program mutates are updated in place.
   * @param {Array|object} args positional arguments; or, alone, the feeds
   *   object of a program whose inputs are all keywords (run({input_ids, attention_mask}))
   * @param {object} [kwargs] keyword arguments
   */
  run(args = [], kwargs) {
    const native = this.#alive();
    const call = callOf(args, kwargs, this.inputs);
    return fromNative(callNative(() => native.run(call.args, call.kwargs)));
  }

  /**
   * Runs like run() and times every node.
   * @param {Array|object} [args] as for run()
   * @param {object} [kwargs]
   * @returns {{outputs: any, profile: Array<{target: string, calls: number, ms: number}>}}
   *   profile: per operator, slowest first
   */
  runProfiled(args = [], kwargs) {
    const native = this.#alive();
    const call = callOf(args, kwargs, this.inputs);
    const { outputs, profile } = callNative(() => native.runProfiled(call.args, call.kwargs));
    return { outputs: fromNative(outputs), profile };
  }

  /**
   * The example inputs saved in the archive (what torch.export was given),
   * as {args, kwargs} ready for run(), or null when the archive has none.
   */
  exampleInputs() {
    const native = this.#alive();
    const example = callNative(() => native.exampleInputs());
    if (example === null) return null;
    const [args, kwargs] = fromNative(example);
    return { args, kwargs };
  }

  /**
   * @internal use sampleInputs(program, {random: true, seed}).
   * Random inputs of valid shapes, made by the core from the signature
   * (src/runtime/random_inputs.h), as {args, kwargs}.
   * @param {number} seed taken as a 32-bit unsigned integer; the same seed gives the same inputs
   */
  randomInputs(seed = 0) {
    const native = this.#alive();
    const [args, kwargs] = fromNative(callNative(() => native.randomInputs(seed >>> 0)));
    return { args, kwargs };
  }

  /**
   * Activation memory of the last run: plannedBytes (the arena that serves
   * every intermediate tensor) and unplannedBytes (what the same tensors
   * would take without reuse). Zeros before the first run.
   */
  get memory() {
    const native = this.#alive();
    return callNative(() => native.memory());
  }

  /** Parameters and buffers (current values) by name, in state-dict order. */
  stateDict() {
    const native = this.#alive();
    const pairs = callNative(() => native.stateDict());
    return Object.fromEntries(pairs.map(([name, raw]) => [name, Tensor.fromRaw(raw)]));
  }

  /**
   * ExportedProgram.run_decompositions(): a new Program holding this one
   * decomposed into Core ATen (dialect "ATEN"), with the same threads; this
   * program is unchanged. Operators named in preserve are kept as they are
   * ("aten.linear.default" or "aten::linear.default").
   * @param {{preserve?: string[]}} [options]
   * @returns {Program}
   * @throws BadInputError for an operator that cannot be preserved
   */
  runDecompositions(options = {}) {
    const native = this.#alive();
    if (options === null || typeof options !== 'object') throw new BadInputError('runDecompositions(): options must be an object');
    const unknown = Object.keys(options).filter((key) => key !== 'preserve');
    if (unknown.length) throw new BadInputError(`runDecompositions(): unknown option ${unknown.join(', ')} (known: preserve)`);
    const preserve = options.preserve ?? [];
    if (!Array.isArray(preserve)) throw new BadInputError('runDecompositions(): preserve must be an array of operator names');
    // A fresh binding of the same module (its class is the instance's constructor).
    const decomposed = new native.constructor();
    try {
      callNative(() => decomposed.loadDecomposed(native, preserve));
      callNative(() => decomposed.setThreads(this.#threads));
    } catch (error) {
      decomposed.delete();
      throw error;
    }
    return new Program(decomposed, this.#threads, this.#threadsReason);
  }

  /**
   * The program as the bytes of a .pt2 file, as torch.export.save writes
   * it (torch.export.load and load() read it), with its state as loaded.
   * @returns {Uint8Array}
   */
  save() {
    const native = this.#alive();
    return callNative(() => native.save());
  }

  /** Restores every buffer to its value at load time. */
  resetState() {
    const native = this.#alive();
    callNative(() => native.resetState());
  }

  /**
   * Restarts the stream the program's random operators draw from (rand,
   * randn, randint, randperm, bernoulli, dropout in training mode, ...): the
   * same seed gives the same values on every platform. A loaded program
   * starts at seed 0. The stream is pt2web's own, not torch's.
   * @param {number} seed a whole number from 0 to 2^53-1
   */
  setRandomSeed(seed) {
    const native = this.#alive();
    callNative(() => native.setRandomSeed(seed));
  }

  /** The program printed in the spirit of Python's print(ep). */
  toString() {
    const native = this.#alive();
    return callNative(() => native.toString());
  }

  /** Frees the program's wasm memory; the Program cannot be used afterwards. */
  dispose() {
    if (!this.#native) return;
    finalizer?.unregister(this);
    this.#native.delete();
    this.#native = null;
  }

  /** For `using` declarations: the same as dispose(). */
  [DISPOSE]() {
    this.dispose();
  }

  /** True once dispose() was called. */
  get disposed() {
    return this.#native === null;
  }

  #describe() {
    if (!this.#summary) {
      const native = this.#alive();
      this.#summary = JSON.parse(callNative(() => native.describe(false)));
    }
    return this.#summary;
  }

  #alive() {
    if (!this.#native) throw new BadInputError('the program was disposed (dispose() frees it for good; load it again to use it)');
    return this.#native;
  }
}
