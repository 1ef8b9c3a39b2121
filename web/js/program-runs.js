// Opening and running the visitor's programs with the package's own worker
// mode: load(source, {worker: true}) holds the program in a Web Worker, so
// reading a large file, preparing the program and running it never freeze
// the page, and every call is awaited. The page speaks no protocol of its
// own: what it shows comes from the Program's methods.

import { load, inspect, sampleInputs, Tensor } from 'pt2web';

import { summarizeTree } from './summarize-outputs.js';

/**
 * Opens a File or URL on `threads` threads (one where the page is not
 * cross-origin isolated). onProgress({stage: 'read' | 'prepare', loaded,
 * total}): total 0 when unknown. Resolves to {program, description, bytes,
 * loadMs (preparing only), threads, hasExample}. A program that cannot be
 * opened rejects with the package's error, and error.description is what
 * inspect() could still tell (a program with unsupported operators), or null.
 */
export async function openProgram(source, name, threads, onProgress) {
  let bytes = 0;
  let started = performance.now();
  const progress = ({ stage, loaded, total }) => {
    bytes = loaded;
    if (stage === 'prepare') started = performance.now();
    if (stage === 'download' || stage === 'prepare') {
      onProgress({ stage: stage === 'download' ? 'read' : 'prepare', loaded, total: total ?? 0 });
    }
  };
  let program;
  try {
    program = await load(source, { label: name, onProgress: progress, threads, worker: true });
  } catch (error) {
    error.description = await inspect(source, { label: name }).catch(() => null);
    throw error;
  }
  const loadMs = performance.now() - started;
  const hasExample = (await program.exampleInputs()) !== null;
  return { program, description: program.description, bytes, loadMs, threads: program.threads, hasExample };
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

async function timedRun(program, inputs) {
  const started = performance.now();
  const { outputs, profile } = await program.runProfiled(inputs.args, inputs.kwargs);
  return { outputs, profile, runMs: performance.now() - started };
}

async function repeatedRuns(program, inputs, firstMs) {
  const runs = [];
  let spent = 0;
  while (runs.length < MAX_REPEATS && spent + firstMs <= REPEAT_BUDGET_MS) {
    const result = await timedRun(program, inputs);
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

/**
 * Runs an opened program: mode 'example' or 'random', or 'image' with
 * {image: {dtype, shape, data}, path} put at the input path `path` (other
 * inputs as for 'example'). Resolves to {source, inputs, outputs, profile,
 * firstRunMs, medianRunMs and repeats (null and 0 when the program did not
 * run again), memory}; times are as the page waits for them.
 */
export async function runProgram(program, mode, { image, path } = {}) {
  // Random inputs differ on every click; the example inputs are the archive's.
  const seed = Math.floor(Math.random() * 2 ** 31);
  const inputs = await sampleInputs(program, { random: mode === 'random', seed });
  if (mode === 'image') {
    placeInput(inputs, path, new Tensor(image.dtype, image.data, image.shape));
    inputs.source = 'image';
  }
  const inputLeaves = [...summarizeTree(inputs.args, '*args'), ...summarizeTree(inputs.kwargs, '**kwargs')];
  const first = await timedRun(program, inputs);
  const repeats = changesState(program.description) ? [] : await repeatedRuns(program, inputs, first.runMs);
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
