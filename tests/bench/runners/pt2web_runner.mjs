// The pt2web side of the benchmark, through the package's public API
// (npm/src/index.js): load(bytes, {threads}) then Program.run(args). With
// more than one thread the package loads its threaded build (Node always can).
//
// Same interface as ort_runner.mjs (see there).

import { heapStats, load, Tensor } from '../../../npm/src/index.js';
import { warmupModel } from '../kernels/kernel_models.mjs';

function flattenOutputs(value, out = []) {
  if (value instanceof Tensor) out.push({ dtype: value.dtype, shape: [...value.shape], data: value.data });
  else if (Array.isArray(value)) for (const item of value) flattenOutputs(item, out);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) flattenOutputs(item, out);
  return out;
}

export const pt2webRunner = {
  name: 'pt2web',
  version: null,
  threads: 1,
  threadsLoaded: 1,

  async init(threads = 1) {
    this.threads = threads;
    const start = performance.now();
    // Instantiates the module (and, with threads, its worker pool).
    const program = await load(warmupModel().pt2, { label: 'warm-up model', threads });
    program.run([new Tensor('float32', new Float32Array([1]), [1])]);
    const ms = performance.now() - start;
    this.threadsLoaded = program.threads;
    program.dispose();
    return ms;
  },

  async load(bytes, label) {
    return load(bytes, { label, threads: this.threads });
  },

  /** User inputs in call order, as the program describes them. */
  inputInfo(program) {
    return program.inputs.map((input) => ({
      name: input.path ?? input.name,
      dtype: input.dtype ?? null,
      shape: input.shape ?? null,
      kind: input.kind,
    }));
  },

  feeds(program, inputs) {
    const tensors = program.inputs.filter((input) => input.kind !== 'constant');
    if (tensors.length !== inputs.length) {
      throw new Error(`the program has ${tensors.length} tensor inputs, the benchmark gives ${inputs.length}`);
    }
    return inputs.map((input) => new Tensor(input.dtype, input.data, input.shape));
  },

  async run(program, args) {
    return flattenOutputs(program.run(args));
  },

  async release(program) {
    program.dispose();
  },

  /** {inUse, heapSize}: heapSize is the wasm memory's byte length (it only grows). */
  async heap() {
    return heapStats({ threads: this.threads });
  },

  describeThreads() {
    return String(this.threadsLoaded);
  },

  threadsUsed() {
    return this.threadsLoaded;
  },
};
