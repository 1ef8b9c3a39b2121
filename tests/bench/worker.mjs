// One benchmark job in its own process (forked by run.mjs): one model at
// one thread count, both runtimes in this process, so that load times are
// clean and each wasm memory's size (which only grows) is this model's peak.
//
// Order: instantiate both runtimes (timed apart: "init"), then per runtime,
// after a pause that lets the other's background compiling end, load the
// bytes already read from disk and run once ("load" = bytes to first
// result), compare the first outputs, then time interleaved runs.
// A runtime that fails to load or run is reported with its error and the
// other is still measured. A generated model (job.casesPath) runs on torch's
// own input, and pt2web's first outputs are checked against torch's; when
// they differ pt2web is not timed. The result goes back to the parent over IPC.
//
// With `only` ('pt2web' or 'ort') the job runs one runtime and leaves the
// other out entirely (not even started): run.mjs then runs the other in a
// second process and merges the two (its --apart). Such a reply also
// carries the inputs used and the first outputs, so that the second process
// gets the same inputs (`inputs` in the message) and the parent can compare.

import { readFileSync } from 'node:fs';
import { outputCheck } from './compare.mjs';
import { makeInput } from './inputs.mjs';
import { measureInterleaved } from './measure.mjs';
import { checkAgainstTorch, readBenchCase } from './torch_check.mjs';
import { installWasmMemoryProbe, wasmMemoryBytes, whileInitialising } from './wasm_memory.mjs';

// The runners are imported only after the probe is in place.
installWasmMemoryProbe();
let pt2webRunner;
let ortRunner;
async function importRunners() {
  ({ pt2webRunner } = await import('./runners/pt2web_runner.mjs'));
  ({ ortRunner } = await import('./runners/ort_runner.mjs'));
}

function osThreads() {
  try {
    return Number(/Threads:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]);
  } catch {
    return null;
  }
}

function errorText(error) {
  return String(error?.message ?? error).replace(/\s+/g, ' ').trim();
}

// The inputs' dtypes: from the pt2web program when it loaded, else from the ONNX model.
function inputDtypes(job, loaded) {
  if (loaded.length === 0) throw new Error('neither runtime could load the model');
  const first = loaded[0];
  const described = first.runner.inputInfo(first.session).filter((i) => i.kind !== 'constant');
  return job.inputs.map((input, i) => {
    const dtype = described[i]?.dtype;
    if (!dtype) throw new Error(`${first.key} does not say the dtype of input ${i}`);
    return dtype;
  });
}

function checkAgainstOnnx(job, inputs, ortSide) {
  if (!ortSide.session) return;
  ortSide.runner.inputInfo(ortSide.session).forEach((info, i) => {
    const ours = inputs[i];
    if (!ours) return;
    if (info.dtype && info.dtype !== ours.dtype) {
      throw new Error(`${job.name}: input ${i} is ${ours.dtype} for pt2web but ${info.dtype} in the ONNX model (${info.name})`);
    }
    info.shape?.forEach((d, k) => {
      if (typeof d === 'number' && d !== ours.shape[k]) {
        throw new Error(`${job.name}: input ${i} shape [${ours.shape}] does not fit the ONNX model's [${info.shape}] (${info.name})`);
      }
    });
  });
}

function readBytes(path) {
  if (!path) return { ok: false, error: 'no ONNX model for this program' };
  try {
    return { ok: true, data: readFileSync(path) };
  } catch (error) {
    return { ok: false, error: `cannot read ${path}: ${errorText(error)}` };
  }
}

// Seeded inputs of the job's shapes, with the dtypes the loaded program gives.
function randomInputs(job, sides) {
  const dtypes = inputDtypes(job, sides.filter((s) => s.session));
  return job.inputs.map((input, i) =>
    makeInput(`${job.name}/input${i}`, dtypes[i], input.shape, { high: input.indexBound }),
  );
}

// The pause before each runtime's load (see runJob).
const SETTLE_MS = 1500;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function runJob({ job, threads, measureOptions, only = null, inputs: given = null }) {
  await importRunners();
  const all = [
    { key: 'pt2web', runner: pt2webRunner, path: job.pt2Path },
    { key: 'ort', runner: ortRunner, path: job.onnxPath },
  ].map((s) => ({ ...s, result: { threads: null } }));
  // No ONNX model (the int8 rows): onnxruntime-web is skipped, which is not a failure.
  if (!job.onnxPath) all[1].result.skipped = true;
  // The runtime left to another process stays out of this one.
  const sides = all.filter((s) => !only || s.key === only);
  for (const s of sides) s.bytes = readBytes(s.path);
  const byKey = (key) => sides.find((s) => s.key === key);
  const benchCase = job.casesPath ? readBenchCase(job.casesPath) : null;

  for (const s of sides) {
    s.result.initMs = await whileInitialising(s.key, () => s.runner.init(threads));
    s.result.baseBytes = wasmMemoryBytes(s.key);
    s.result.threads = s.runner.describeThreads();
    s.result.threadsUsed = s.runner.threadsUsed(threads);
    s.result.version = s.runner.version;
  }
  const threadsAfterInit = osThreads();

  // Load and first run (timed), one runtime after the other, each after a
  // pause: V8 keeps compiling a runtime's wasm with its optimizing tier in
  // the background after its start-up or a load, and on a small machine that
  // work would otherwise be timed as part of the other runtime's load or
  // first run (the one measured first paid for both). The inputs are made
  // between a load and its first run, untimed.
  let inputs = given ?? (benchCase ? benchCase.inputs : null);
  for (const s of sides) {
    if (!s.bytes.ok) {
      s.result.error = `load: ${s.bytes.error}`;
      continue;
    }
    await sleep(SETTLE_MS);
    let start = performance.now();
    try {
      s.session = await s.runner.load(s.bytes.data, job.name);
      s.result.loadOnlyMs = performance.now() - start;
    } catch (error) {
      s.result.error = `load: ${errorText(error)}`;
      continue;
    }
    if (!inputs) inputs = randomInputs(job, [s]);
    try {
      s.feeds = s.runner.feeds(s.session, inputs);
      start = performance.now();
      s.firstOutputs = await s.runner.run(s.session, s.feeds);
      s.result.firstRunMs = performance.now() - start;
      s.result.loadMs = s.result.loadOnlyMs + s.result.firstRunMs;
    } catch (error) {
      s.result.error = `run: ${errorText(error)}`;
      s.feeds = null;
    }
  }
  if (!inputs) inputs = randomInputs(job, []);
  const ours = byKey('pt2web');
  const theirs = byKey('ort');
  if (theirs) checkAgainstOnnx(job, inputs, theirs);
  const torchCheck = benchCase && ours?.firstOutputs ? checkAgainstTorch(ours.firstOutputs, benchCase) : null;
  if (torchCheck && !torchCheck.ok) {
    ours.result.error = `wrong result, not timed: differs from torch's (${torchCheck.problem})`;
    ours.feeds = null;
  }
  const check = outputCheck(job, ours?.firstOutputs, theirs?.firstOutputs);

  const running = sides.filter((s) => s.feeds);
  const stats = await measureInterleaved(
    running.map((s) => ({ name: s.key, call: () => s.runner.run(s.session, s.feeds) })),
    // With threads, one untimed call before each timed one (see measure.mjs).
    { ...measureOptions, settleRuns: threads > 1 ? 1 : 0 },
  );
  for (const s of running) s.result.stats = stats[s.key];

  for (const s of sides) s.result.peakBytes = wasmMemoryBytes(s.key);
  if (ours) {
    const heap = await pt2webRunner.heap();
    ours.result.heapSize = heap.heapSize;
    ours.result.heapInUse = heap.inUse;
  }
  for (const s of sides.filter((x) => x.session)) await s.runner.release(s.session);

  const result = {
    name: job.name,
    kind: job.kind,
    flops: job.flops ?? null,
    note: job.note ?? null,
    threads,
    inputs: inputs.map((i) => ({ dtype: i.dtype, shape: i.shape })),
    check,
    torchCheck,
    osThreads: threadsAfterInit,
    pt2web: all[0].result,
    ort: all[1].result,
  };
  if (only) {
    result.apart = { inputs, firstOutputs: byKey(only).firstOutputs ?? null };
  }
  return result;
}

process.once('message', async (message) => {
  let reply;
  try {
    reply = { ok: true, result: await runJob(message) };
  } catch (error) {
    reply = { ok: false, error: errorText(error) };
  }
  process.send(reply, () => process.exit(0));
});
