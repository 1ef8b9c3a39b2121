// The Web Worker that opens and runs the visitor's .pt2 files, so that
// reading a large file, preparing the program and running it never freeze
// the page. It holds at most one program; opening another disposes it.
//
// Protocol (requests carry an id; every reply echoes it):
//   {type: 'init', packageUrl}        imports pt2web from the URL the page's
//                                      import map gives for 'pt2web'
//   {type: 'open', file | url, name}  -> progress {stage: 'read', loaded, total}
//                                      (total 0 when unknown), progress {stage:
//                                      'prepare'}, then result {description, bytes,
//                                      loadMs (preparing only), hasExample}
//   {type: 'run', mode: 'example' | 'random' | 'image', image?, path?}
//                                     (image: a {dtype, shape, data} tensor put at the
//                                      input path `path`, other inputs as for 'example')
//                                     -> result {source, inputs, outputs, profile, firstRunMs,
//                                      medianRunMs and repeats (null and 0 when the
//                                      program did not run again), memory}
//                                      (inputs from the package's sampleInputs(); source
//                                      'example' or 'random')
//   failures: {type: 'error', error: {name, code, message}, description?}
//   (description: what inspect() could still tell about a program that
//   cannot run, e.g. one with unsupported operators).

import { summarizeTree } from './summarize-outputs.js';

let pt2web = null;
let program = null;

function reply(id, type, body = {}) {
  self.postMessage({ id, type, ...body });
}

function errorBody(error) {
  return { name: error?.name ?? 'Error', code: error?.code ?? null, message: error?.message ?? String(error) };
}

async function init({ packageUrl }) {
  pt2web = await import(packageUrl);
  return { ready: true };
}

function needPackage() {
  if (!pt2web) throw new Error('the worker was not initialised');
  return pt2web;
}

async function open({ id, file, url, name, threads = 1 }) {
  const { load, inspect } = needPackage();
  program?.dispose();
  program = null;
  const source = file ?? url;
  let bytes = 0;
  let started = performance.now();
  // The package reports the 'download' stage while it reads the file, then
  // 'prepare' once the file and the WebAssembly module are in.
  const onProgress = ({ stage, loaded, total }) => {
    bytes = loaded;
    if (stage === 'prepare') started = performance.now();
    if (stage === 'download' || stage === 'prepare') {
      reply(id, 'progress', { stage: stage === 'download' ? 'read' : 'prepare', loaded, total: total ?? 0 });
    }
  };
  try {
    program = await load(source, { label: name, onProgress, threads });
  } catch (error) {
    // Tell what can still be told: inspect() describes programs that load
    // but cannot run (unsupported operators); a corrupt file fails here too.
    error.description = await inspect(source, { label: name }).catch(() => null);
    throw error;
  }
  const loadMs = performance.now() - started;
  return {
    description: program.description,
    bytes,
    loadMs,
    threads: program.threads,
    hasExample: program.exampleInputs() !== null,
  };
}

// The first run includes one-time set-up (kernels chosen and memory planned
// for these input shapes), so when it was quick and running again changes
// nothing the visitor sees (no mutated buffers or inputs), the program runs
// a few more times and the median of those runs is shown, with its profile.
const REPEAT_BUDGET_MS = 400;
const MAX_REPEATS = 7;

function changesState(description) {
  const signature = description.signature;
  return Object.keys(signature.buffers_to_mutate ?? {}).length > 0 || Object.keys(signature.user_inputs_to_mutate ?? {}).length > 0;
}

function timedRun(inputs) {
  const started = performance.now();
  const { outputs, profile } = program.runProfiled(inputs.args, inputs.kwargs);
  return { outputs, profile, runMs: performance.now() - started };
}

function repeatedRuns(inputs, firstMs) {
  const runs = [];
  let spent = 0;
  while (runs.length < MAX_REPEATS && spent + firstMs <= REPEAT_BUDGET_MS) {
    const result = timedRun(inputs);
    runs.push(result);
    spent += result.runMs;
  }
  return runs.sort((a, b) => a.runMs - b.runMs);
}

// Puts value at a description's input path ("*args[0]", "**kwargs['x']") of inputs.
function placeInput(inputs, path, value) {
  const steps = [...path.matchAll(/\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]/g)].map((m) => (m[1] !== undefined ? Number(m[1]) : m[2]));
  let node = path.startsWith('**kwargs') ? inputs.kwargs : inputs.args;
  steps.slice(0, -1).forEach((step) => {
    node = node[step];
  });
  node[steps.at(-1)] = value;
}

function run({ mode, image, path }) {
  const { sampleInputs, Tensor } = needPackage();
  if (!program) throw new Error('open a program first');
  // Random inputs differ on every click; the example inputs are the archive's.
  const seed = Math.floor(Math.random() * 2 ** 31);
  const inputs = sampleInputs(program, { random: mode === 'random', seed });
  if (mode === 'image') {
    const tensor = new Tensor(image.dtype, image.data, image.shape);
    placeInput(inputs, path, tensor);
    inputs.source = 'image';
  }
  const inputLeaves = [...summarizeTree(inputs.args, '*args'), ...summarizeTree(inputs.kwargs, '**kwargs')];
  const first = timedRun(inputs);
  const repeats = changesState(program.description) ? [] : repeatedRuns(inputs, first.runMs);
  const median = repeats.length ? repeats[Math.floor(repeats.length / 2)] : null;
  const shown = median ?? first;
  return {
    source: inputs.source,
    inputs: inputLeaves,
    outputs: summarizeTree(shown.outputs, 'output'),
    profile: shown.profile,
    firstRunMs: first.runMs,
    medianRunMs: median ? median.runMs : null,
    repeats: repeats.length,
    memory: program.memory,
  };
}

const HANDLERS = { init, open, run };

self.onmessage = async (event) => {
  const request = event.data;
  const handler = HANDLERS[request?.type];
  if (!handler) return reply(request?.id, 'error', { error: { name: 'Error', code: null, message: `unknown request '${request?.type}'` } });
  try {
    reply(request.id, 'result', { value: await handler(request) });
  } catch (error) {
    reply(request.id, 'error', { error: errorBody(error), description: error?.description ?? null });
  }
};
