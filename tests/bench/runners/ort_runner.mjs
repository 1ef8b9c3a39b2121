// The onnxruntime-web side of the benchmark: wasm execution provider (the
// SIMD build; 1.30 ships only ort-wasm-simd-threaded*.wasm), graph
// optimizations 'all', numThreads set before the runtime initialises.
// onnxruntime-web is a dev dependency of npm/, so it is imported from
// npm/node_modules through the "node" entry its package.json exports.
//
// Interface shared with pt2web_runner.mjs:
//   init(threads) once per process -> ms to instantiate the runtime and to load
//     and run a one-node model (kernels/kernel_models.mjs warmupModel)
//   load(bytes, label) -> session;  feeds(session, inputs) -> what run() takes
//   run(session, feeds) -> Promise<[{shape, data}]> (outputs in order)
//   release(session);  describeThreads() -> text for the table;
//   threadsUsed(threads) -> how many threads the runtime really runs on

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { warmupModel } from '../kernels/kernel_models.mjs';

const PACKAGE_DIR = new URL('../../../npm/node_modules/onnxruntime-web/', import.meta.url);
const SESSION_OPTIONS = { executionProviders: ['wasm'], graphOptimizationLevel: 'all' };

let ort = null;
let threadCount = 1;

async function importOrt() {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(new URL('package.json', PACKAGE_DIR), 'utf8'));
  } catch (cause) {
    throw new Error(`onnxruntime-web is not installed in ${fileURLToPath(PACKAGE_DIR)} (run npm install in npm/): ${cause.message}`);
  }
  const entry = manifest.exports?.['.']?.node?.import;
  if (typeof entry !== 'string') throw new Error(`onnxruntime-web ${manifest.version}: no "node"/"import" entry in its package.json exports`);
  const module = await import(new URL(entry, PACKAGE_DIR).href);
  return { module, version: manifest.version };
}

export const ortRunner = {
  name: 'onnxruntime-web',
  version: null,

  async init(threads) {
    const { module, version } = await importOrt();
    ort = module;
    this.version = version;
    threadCount = threads;
    ort.env.wasm.numThreads = threads;
    if ('simd' in ort.env.wasm) ort.env.wasm.simd = true; // older releases had a non-SIMD fallback
    ort.env.logLevel = 'error';
    // The first session instantiates the wasm module (and, with threads,
    // starts the worker pool); a one-node model keeps that out of load times.
    const start = performance.now();
    const session = await ort.InferenceSession.create(warmupModel().onnx, SESSION_OPTIONS);
    await session.run({ x: new ort.Tensor('float32', new Float32Array([1]), [1]) });
    const ms = performance.now() - start;
    await session.release();
    return ms;
  },

  async load(bytes) {
    return ort.InferenceSession.create(bytes, SESSION_OPTIONS);
  },

  /** ONNX inputs in graph order, matched to the model's inputs by position. */
  inputInfo(session) {
    return session.inputNames.map((name, i) => {
      const meta = session.inputMetadata?.[i];
      return { name, dtype: meta?.type ?? null, shape: meta?.shape ?? null };
    });
  },

  feeds(session, inputs) {
    if (session.inputNames.length !== inputs.length) {
      throw new Error(`the ONNX model has ${session.inputNames.length} inputs (${session.inputNames.join(', ')}), the benchmark gives ${inputs.length}`);
    }
    const feeds = {};
    session.inputNames.forEach((name, i) => {
      feeds[name] = new ort.Tensor(inputs[i].dtype, inputs[i].data, inputs[i].shape);
    });
    return feeds;
  },

  async run(session, feeds) {
    const results = await session.run(feeds);
    return session.outputNames.map((name) => ({ name, shape: results[name].dims.map(Number), data: results[name].data }));
  },

  async release(session) {
    await session.release();
  },

  describeThreads() {
    return `${threadCount}`;
  },

  threadsUsed() {
    return threadCount;
  },
};
