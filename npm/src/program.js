// Program: a loaded .pt2 program, ready to run. Created by load().
//
// One class whichever thread runs the program. load(source) holds it on the
// calling thread (a ThreadHost): every method returns its result. With
// {worker: true} it lives in a Web Worker or worker thread (a WorkerHost):
// the same methods return Promises of the same results, and never block the
// calling thread. `await program.run(...)` works in both modes.
//
// The description properties (inputs, outputs, signature, rangeConstraints,
// dialect, operators) come from the core's description
// (src/runtime/describe.h): made on first use on the calling thread, sent
// with the load from a worker; they are there now in both modes.
//
// Ownership: a Program owns its host's program (weights, state, activation
// arena) in a wasm heap. dispose() (or `using program = await load(...)`,
// through Symbol.dispose) frees it, and ends the worker of the last program
// in it; programs garbage-collected without it are freed too, eventually.
// Everything a Program returns is a JS copy that stays valid after
// dispose(). Errors: a worker-mode method never throws; it rejects, with the
// same classes, codes and messages as the calling-thread mode throws.

import { BadInputError, disposedError } from './errors.js';
import { generate, generateTokens } from './generate.js';
import { DISPOSE } from './platform.js';
import { settle } from './settle.js';
import { buffersOf } from './transfer.js';
import { Tensor } from './tensor.js';
import { callOf, fromNative } from './values.js';

// [[name, raw tensor], ...] from a host, as {name: Tensor}.
const namedTensors = (pairs) => Object.fromEntries(pairs.map(([name, raw]) => [name, Tensor.fromRaw(raw)]));

function runOptions(options) {
  if (options === null || typeof options !== 'object') throw new BadInputError('run(): options must be an object');
  const unknown = Object.keys(options).filter((key) => key !== 'transfer');
  if (unknown.length) throw new BadInputError(`run(): unknown option ${unknown.join(', ')} (known: transfer)`);
  return { transfer: options.transfer === true };
}

export class Program {
  #host;
  /** @type {any} */
  #description = null;

  /** @internal use load() */
  constructor(host) {
    this.#host = host;
  }

  /** True when the program lives in a worker (load(source, {worker: true})): its methods return Promises. */
  get inWorker() {
    return this.#host.inWorker;
  }

  /**
   * Threads a run may use, the calling one included: options.threads where
   * the threaded build could load, else 1. After comparing the two on its
   * first runs, the program runs on one thread when that is faster.
   */
  get threads() {
    return this.#host.threads;
  }

  /** Why the program got fewer threads than options.threads asked for; null when it did not. */
  get threadsReason() {
    return this.#host.threadsReason;
  }

  /**
   * True when the program runs in the Memory64 build (64-bit wasm addresses,
   * for programs past wasm32's 4 GB; see options.memory64).
   */
  get memory64() {
    return this.#host.memory64;
  }

  /** The full description (what `pt2web info` prints), the printed program included. */
  get description() {
    this.#description ??= { ...this.#summary(), printed: this.toString() };
    return this.#description;
  }

  /** User inputs in call order: {path, name, kind, dtype, shape, ranges} or {kind: 'constant', value}. */
  get inputs() {
    return this.#summary().inputs;
  }

  /** User outputs in flatten order: {path, name, kind, dtype, shape}; path like "[0]" or "['logits']". */
  get outputs() {
    return this.#summary().outputs;
  }

  /** The graph signature: input_specs, output_specs and torch's derived views. */
  get signature() {
    return this.#summary().signature;
  }

  /**
   * Ranges of the symbolic sizes: {symbol: [min, max]} (max null when
   * unbounded), e.g. {s0: [1, 512]}.
   */
  get rangeConstraints() {
    return this.#summary().range_constraints;
  }

  /** "TRAINING" (torch.export's default) or "ATEN" (after run_decompositions()). */
  get dialect() {
    return this.#summary().dialect;
  }

  /** Every operator the program uses: {target, count, supported}. */
  get operators() {
    return this.#summary().operators;
  }

  /**
   * Runs the program like ep.module()(*args, **kwargs). Tensors in the
   * result are new arrays; on the calling thread, input tensors the program
   * mutates are updated in place (a worker gets copies, so they are not).
   * @param {Array|object} [args] positional arguments; or, alone, the feeds
   *   object of a program whose inputs are all keywords (run({input_ids, attention_mask}))
   * @param {object} [kwargs] keyword arguments
   * @param {{transfer?: boolean}} [options] transfer: in a worker, move the
   *   inputs' buffers there instead of copying them (the caller's arrays
   *   become empty); nothing to move on the calling thread
   */
  run(args = [], kwargs, options = {}) {
    return this.#invoke((host) => host.call(...this.#runCall('run', args, kwargs, options)), fromNative);
  }

  /**
   * Runs like run() and times every node.
   * @param {Array|object} [args] as for run()
   * @param {object} [kwargs]
   * @param {{transfer?: boolean}} [options] as for run()
   * @returns {any} {outputs, profile}; profile: per operator {target, calls, ms}, slowest first
   */
  runProfiled(args = [], kwargs, options = {}) {
    return this.#invoke(
      (host) => host.call(...this.#runCall('runProfiled', args, kwargs, options)),
      ({ outputs, profile }) => ({ outputs: fromNative(outputs), profile }),
    );
  }

  /**
   * The example inputs saved in the archive (what torch.export was given),
   * as {args, kwargs} ready for run(), or null when the archive has none.
   * @returns {any}
   */
  exampleInputs() {
    return this.#invoke(
      (host) => host.call('exampleInputs'),
      (example) => {
        if (example === null) return null;
        const [args, kwargs] = fromNative(example);
        return { args, kwargs };
      },
    );
  }

  /**
   * @internal use sampleInputs(program, {random: true, seed}).
   * Random inputs of valid shapes, made by the core from the signature
   * (src/runtime/random_inputs.h), as {args, kwargs}.
   * @param {number} seed taken as a 32-bit unsigned integer; the same seed gives the same inputs
   * @returns {any}
   */
  randomInputs(seed = 0) {
    return this.#invoke(
      (host) => host.call('randomInputs', [seed >>> 0]),
      (inputs) => {
        const [args, kwargs] = fromNative(inputs);
        return { args, kwargs };
      },
    );
  }

  /**
   * Activation memory of the last run: plannedBytes (the arena that serves
   * every intermediate tensor) and unplannedBytes (what the same tensors
   * would take without reuse). Zeros before the first run.
   */
  get memory() {
    return this.#live().memory();
  }

  /**
   * Parameters and buffers (current values) by name, in state-dict order.
   * @returns {any}
   */
  stateDict() {
    return this.#invoke((host) => host.call('stateDict'), namedTensors);
  }

  /**
   * Every buffer (current values) by name, as torch's named_buffers() of
   * ep.module(): non-persistent ones included (a static key/value cache),
   * which stateDict() leaves out as torch's state_dict() does.
   * @returns {any}
   */
  buffers() {
    return this.#invoke((host) => host.call('buffers'), namedTensors);
  }

  /**
   * ExportedProgram.run_decompositions(): a new Program holding this one
   * decomposed into Core ATen (dialect "ATEN"), with the same threads and in
   * the same place (a worker program's lives in the same worker); this
   * program is unchanged. Operators named in preserve are kept as they are
   * ("aten.linear.default" or "aten::linear.default").
   * @param {{preserve?: string[]}} [options]
   * @returns {any} a Program (a Promise of one for a worker program)
   * @throws BadInputError for an operator that cannot be preserved
   */
  runDecompositions(options = {}) {
    return this.#invoke((host) => {
      if (options === null || typeof options !== 'object') throw new BadInputError('runDecompositions(): options must be an object');
      const unknown = Object.keys(options).filter((key) => key !== 'preserve');
      if (unknown.length) throw new BadInputError(`runDecompositions(): unknown option ${unknown.join(', ')} (known: preserve)`);
      const preserve = options.preserve ?? [];
      if (!Array.isArray(preserve)) throw new BadInputError('runDecompositions(): preserve must be an array of operator names');
      return host.decompose(preserve);
    }, (decomposed) => new Program(decomposed));
  }

  /**
   * The program as the bytes of a .pt2 file, as torch.export.save writes
   * it (torch.export.load and load() read it), with its state as loaded.
   * @returns {any} a Uint8Array
   */
  save() {
    return this.#invoke((host) => host.call('save'));
  }

  /**
   * Restores every buffer to its value at load time.
   * @returns {any} nothing (a Promise for a worker program)
   */
  resetState() {
    return this.#invoke((host) => host.call('resetState'));
  }

  /**
   * Restarts the stream the program's random operators draw from (rand,
   * randn, randint, randperm, bernoulli, dropout in training mode, ...): the
   * same seed gives the same values on every platform. A loaded program
   * starts at seed 0. The stream is pt2web's own, not torch's.
   * @param {number} seed a whole number from 0 to 2^53-1
   * @returns {any} nothing (a Promise for a worker program)
   */
  setRandomSeed(seed) {
    return this.#invoke((host) => host.call('setRandomSeed', [seed]));
  }

  /**
   * For a decoder exported with transformers' static cache (input_ids and
   * cache_position in, logits out): the next tokens after prompt, greedy or
   * sampled (generate.js). Resets the program's state first.
   * @param {ArrayLike<number|bigint>} prompt token ids
   * @param {object} [options] maxNewTokens, maxLength, sample, temperature, topK, topP, seed, stopTokens, signal, onToken
   * @returns {Promise<number[]>} the new token ids
   */
  generate(prompt, options) {
    return generate(this, prompt, options);
  }

  /**
   * generate()'s tokens as an async iterator, each as it is chosen:
   * `for await (const id of program.generateTokens(prompt)) ...`.
   * @param {ArrayLike<number|bigint>} prompt
   * @param {object} [options] as for generate() (onToken aside)
   * @returns {AsyncGenerator<number>}
   */
  generateTokens(prompt, options) {
    return generateTokens(this, prompt, options);
  }

  /** The program printed in the spirit of Python's print(ep). */
  toString() {
    return this.#live().printed();
  }

  /** Frees the program's wasm memory; the Program cannot be used afterwards. Safe to call twice. */
  dispose() {
    this.#host.dispose();
  }

  /** For `using` declarations: the same as dispose(). */
  [DISPOSE]() {
    this.dispose();
  }

  /** True once dispose() was called. */
  get disposed() {
    return this.#host.disposed;
  }

  // [method, args, transfer] of a run for the host.
  #runCall(method, args, kwargs, options) {
    const { transfer } = runOptions(options);
    const call = callOf(args, kwargs, this.inputs);
    return [method, [call.args, call.kwargs], transfer ? [...buffersOf(call)] : []];
  }

  // start(host), then finish(result): now on the calling thread; as a
  // Promise in a worker, where a failure before the request rejects too.
  #invoke(start, finish = (value) => value) {
    if (!this.#host.inWorker) return finish(start(this.#live()));
    try {
      return settle(start(this.#live()), finish);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  #summary() {
    return this.#host.summary();
  }

  #live() {
    if (this.#host.disposed) {
      throw disposedError();
    }
    return this.#host;
  }
}
