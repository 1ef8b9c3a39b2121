// Program: a loaded .pt2 program, ready to run. Created by load().
//
// The description properties (inputs, outputs, signature, dialect,
// operators) come from the describe JSON (see src/program/describe.h).
// dispose() frees the wasm memory the program holds; programs that are
// garbage-collected without it are freed too, eventually.

import { Pt2webError, callNative } from './errors.js';
import { Tensor } from './tensor.js';
import { fromNative } from './values.js';

const finalizer =
  typeof FinalizationRegistry === 'function' ? new FinalizationRegistry((native) => native.delete()) : null;

export class Program {
  #native;
  #description;

  /** @internal use load() */
  constructor(native, description) {
    this.#native = native;
    this.#description = description;
    finalizer?.register(this, native, this);
  }

  /** The full description (what `pt2web info` prints). */
  get description() {
    return this.#description;
  }

  /** User inputs in call order: {path, name, kind, dtype, shape, ranges} or {kind: 'constant', value}. */
  get inputs() {
    return this.#description.inputs;
  }

  /** User outputs: {name, kind, dtype, shape}. */
  get outputs() {
    return this.#description.outputs;
  }

  /** The graph signature: input_specs, output_specs and torch's derived views. */
  get signature() {
    return this.#description.signature;
  }

  /** "TRAINING" (torch.export's default) or "ATEN" (after run_decompositions()). */
  get dialect() {
    return this.#description.dialect;
  }

  /** Every operator the program uses: {target, count, supported}. */
  get operators() {
    return this.#description.operators;
  }

  /**
   * Runs the program like ep.module()(*args, **kwargs). Tensors in the
   * result are new arrays; input tensors the program mutates are updated in place.
   * @param {Array} args positional arguments
   * @param {object} kwargs keyword arguments
   */
  run(args = [], kwargs = {}) {
    const native = this.#alive();
    return fromNative(callNative(() => native.run(args, kwargs)));
  }

  /** Parameters and buffers (current values) by name, in state-dict order. */
  stateDict() {
    const native = this.#alive();
    const pairs = callNative(() => native.stateDict());
    return Object.fromEntries(pairs.map(([name, raw]) => [name, Tensor.fromRaw(raw)]));
  }

  /** Restores every buffer to its value at load time. */
  resetState() {
    const native = this.#alive();
    callNative(() => native.resetState());
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

  #alive() {
    if (!this.#native) throw new Pt2webError('the program was disposed', 'BAD_INPUT');
    return this.#native;
  }
}
