// Checks of the benchmark harness itself (node --test tests/bench/):
// the hand-written .pt2 and .onnx kernel models describe the same
// computation (pt2web and onnxruntime-web, two independent runtimes, agree
// on them, including tail sizes and strided/grouped convolutions), pt2web
// reads the hand-written archive as the intended program, the statistics
// match numpy's percentile definition, timed runs interleave, outputs are
// paired by shape, the check against torch's outputs passes a real
// fixture's result and catches a wrong one, generated models that are not on
// disk are listed, runtimes timed in processes of their own merge into one
// result, run.mjs rejects bad arguments, and llm.mjs decodes a static-cache
// program and reports its figures.

import assert from 'node:assert/strict';
import { fork, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { inspect } from '../../npm/src/index.js';
import { mergeApart } from './apart.mjs';
import { compareOutputs } from './compare.mjs';
import { makeInput } from './inputs.mjs';
import { buildKernelModel, warmupModel } from './kernels/kernel_models.mjs';
import { writeKernelModels } from './make_kernel_models.mjs';
import { ortRunner } from './runners/ort_runner.mjs';
import { pt2webRunner } from './runners/pt2web_runner.mjs';
import { measureInterleaved } from './measure.mjs';
import { GENERATED_INT8_MODELS, GENERATED_MODELS, generatedModels } from './models.mjs';
import { checkAgainstTorch, readBenchCase } from './torch_check.mjs';
import { formatReport } from './report.mjs';
import { percentile, summarize } from './stats.mjs';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LLM_SCRIPT = fileURLToPath(new URL('./llm.mjs', import.meta.url));

const SMALL_KERNELS = [
  { name: 'gemm_tail', kind: 'gemm', m: 7, k: 13, n: 5 },
  { name: 'gemv_tail', kind: 'gemm', m: 1, k: 33, n: 17 },
  { name: 'conv3x3_pad', kind: 'conv', batch: 2, cin: 3, h: 9, w: 7, cout: 4, kernel: 3, stride: 1, pad: 1, groups: 1 },
  { name: 'conv_grouped_s2', kind: 'conv', batch: 1, cin: 6, h: 11, w: 10, cout: 4, kernel: 3, stride: 2, pad: 1, groups: 2 },
  { name: 'dwconv_s2', kind: 'conv', batch: 1, cin: 5, h: 8, w: 9, cout: 5, kernel: 3, stride: 2, pad: 1, groups: 5 },
  { name: 'conv1x1', kind: 'conv', batch: 1, cin: 4, h: 5, w: 5, cout: 6, kernel: 1, stride: 1, pad: 0, groups: 1 },
];

test('both runtimes compute the same results on the hand-written kernel models', async () => {
  await pt2webRunner.init();
  await ortRunner.init(1);
  for (const spec of SMALL_KERNELS) {
    const { pt2, onnx, inputShape } = buildKernelModel(spec);
    const inputs = [makeInput(`${spec.name}/x`, 'float32', inputShape)];
    const program = await pt2webRunner.load(pt2, spec.name);
    const session = await ortRunner.load(onnx);
    const ours = await pt2webRunner.run(program, pt2webRunner.feeds(program, inputs));
    const theirs = await ortRunner.run(session, ortRunner.feeds(session, inputs));
    const check = compareOutputs(ours, theirs);
    assert.equal(check.problem, null, spec.name);
    assert.equal(check.paired, 1, spec.name);
    assert.ok(check.maxAbs > 0.05, `${spec.name}: outputs should not be all zero`);
    assert.ok(check.maxAbsDiff < 1e-5, `${spec.name}: max |diff| ${check.maxAbsDiff}`);
    await pt2webRunner.release(program);
    await ortRunner.release(session);
  }
});

test('pt2web reads the hand-written archive as the intended program', async () => {
  const { pt2 } = buildKernelModel(SMALL_KERNELS[2]);
  const description = await inspect(pt2, { label: 'conv3x3_pad' });
  assert.equal(description.dialect, 'ATEN');
  assert.deepEqual(description.inputs.map((i) => [i.dtype, i.shape]), [['float32', [2, 3, 9, 7]]]);
  assert.deepEqual(description.outputs.map((o) => o.shape), [[2, 4, 9, 7]]);
  assert.deepEqual(description.operators.map((o) => o.target), ['torch.ops.aten.convolution.default']);
  const warmup = await inspect(warmupModel().pt2, { label: 'warm-up' });
  assert.deepEqual(warmup.operators.map((o) => o.target), ['torch.ops.aten.relu.default']);
});

test('percentiles interpolate like numpy', () => {
  const values = [10, 1, 9, 2, 8, 3, 7, 4, 6, 5];
  const s = summarize(values);
  assert.equal(s.n, 10);
  assert.equal(s.median, 5.5);
  assert.ok(Math.abs(s.p10 - 1.9) < 1e-12);
  assert.ok(Math.abs(s.p90 - 9.1) < 1e-12);
  assert.equal(percentile([4], 0.9), 4);
});

test('timed runs alternate between the runtimes, the same number for each', async () => {
  const calls = [];
  const stats = await measureInterleaved(
    [
      { name: 'a', call: async () => calls.push('a') },
      { name: 'b', call: async () => calls.push('b') },
    ],
    { warmupRuns: 1, warmupMs: 0, runs: 4 },
  );
  assert.equal(calls.join(''), 'ab' + 'abbaabba');
  assert.equal(stats.a.n, 4);
  assert.equal(stats.b.n, 4);
  assert.equal(stats.a.warmup, 1);
});

test('outputs are paired by shape when the orders differ, and missing ones are reported', () => {
  const a = { shape: [2], data: new Float32Array([1, 2]) };
  const b = { shape: [3], data: new Float32Array([3, 4, 5]) };
  const swapped = compareOutputs([a, b], [{ ...b, data: new Float32Array([3, 4, 5.5]) }, a]);
  assert.equal(swapped.problem, null);
  assert.equal(swapped.maxAbsDiff, 0.5);
  const missing = compareOutputs([a, b], [a]);
  assert.match(missing.problem, /no onnxruntime-web output of the same shape for output 1 \[3\]/);
});

// worker.mjs in a child process, as run.mjs forks it.
function workerReply(message) {
  return new Promise((resolve, reject) => {
    const worker = fileURLToPath(new URL('./worker.mjs', import.meta.url));
    const child = fork(worker, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
    child.on('message', resolve);
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`worker exited with code ${code} and no reply`)));
    child.send(message);
  });
}

test('runtimes timed in processes of their own merge into one result', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pt2web-apart-'));
  try {
    const [k] = writeKernelModels(dir, [SMALL_KERNELS[3]]);
    const job = { name: k.name, kind: 'kernel', pt2Path: k.pt2Path, onnxPath: k.onnxPath, inputs: [{ shape: k.inputShape }], flops: k.flops };
    const message = { job, threads: 1, measureOptions: { warmupRuns: 1, warmupMs: 0, runs: 3 } };
    const ours = await workerReply({ ...message, only: 'pt2web' });
    assert.ok(ours.ok, ours.error);
    assert.equal(ours.result.ort.initMs, undefined, "onnxruntime-web is not even started in pt2web's process");
    const theirs = await workerReply({ ...message, only: 'ort', inputs: ours.result.apart.inputs });
    assert.ok(theirs.ok, theirs.error);
    assert.equal(theirs.result.pt2web.initMs, undefined);
    const merged = mergeApart(job, ours.result, theirs.result);
    assert.equal(merged.apart, true);
    assert.equal(merged.pt2web.stats.n, 3);
    assert.equal(merged.ort.stats.n, 3);
    // Same inputs in both processes: the outputs agree to float rounding.
    assert.equal(merged.check.problem, null);
    assert.equal(merged.check.paired, 1);
    assert.ok(merged.check.maxAbs > 0.05 && merged.check.maxAbsDiff < 1e-5, JSON.stringify(merged.check));
    assert.match(merged.osThreads, /\d+ \(pt2web\) \/ \d+ \(onnxruntime-web\)/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('run.mjs rejects bad arguments with exit status 2', () => {
  const run = fileURLToPath(new URL('./run.mjs', import.meta.url));
  for (const [args, message] of [
    [['--threads', 'two'], /--threads needs a positive integer, got 'two'/],
    [['--filter', 'no_such_model'], /no model or kernel name contains 'no_such_model'/],
    [['--frobnicate'], /unknown argument '--frobnicate'/],
    [['--apart', 'sometimes'], /--apart is threads, always or never, not 'sometimes'/],
  ]) {
    const result = spawnSync(process.execPath, [run, ...args], { encoding: 'utf8' });
    assert.equal(result.status, 2, args.join(' '));
    assert.match(result.stderr, message);
  }
});

test('pt2web outputs are checked against torch: a real run passes, a changed value fails', async () => {
  const fixture = fileURLToPath(new URL('../fixtures/digits_cnn/', import.meta.url));
  const benchCase = readBenchCase(`${fixture}cases.json`);
  assert.deepEqual(benchCase.inputs.map((i) => [i.dtype, i.shape]), [['float32', [1, 1, 8, 8]]]);
  const program = await pt2webRunner.load(readFileSync(`${fixture}model.pt2`), 'digits_cnn');
  const outputs = await pt2webRunner.run(program, pt2webRunner.feeds(program, benchCase.inputs));
  await pt2webRunner.release(program);
  const good = checkAgainstTorch(outputs, benchCase);
  assert.equal(good.problem, null);
  assert.ok(good.ok);
  outputs[0].data[3] += 0.5;
  const bad = checkAgainstTorch(outputs, benchCase);
  assert.equal(bad.ok, false);
  assert.match(bad.problem, /output 0\[flat 3\]/);
  assert.match(checkAgainstTorch([], benchCase).problem, /pt2web gave 0 output tensors, torch 1/);
});

test('generated models are either on disk or listed as missing', () => {
  const { present, missing } = generatedModels();
  const int8Names = GENERATED_INT8_MODELS.map((m) => m.name);
  const floatMissing = missing.filter((name) => !int8Names.includes(name));
  assert.deepEqual([...present, ...floatMissing].sort(), [...GENERATED_MODELS].sort());
  for (const name of int8Names) {
    const dir = fileURLToPath(new URL(`./models/${name}/`, import.meta.url));
    assert.equal(missing.includes(name), !(existsSync(`${dir}model.pt2`) && existsSync(`${dir}cases.json`)), name);
  }
  for (const name of present) {
    const dir = fileURLToPath(new URL(`./models/${name}/`, import.meta.url));
    assert.ok(existsSync(`${dir}model.pt2`) && existsSync(`${dir}cases.json`), name);
  }
  assert.deepEqual(generatedModels({ filter: 'no_such_model' }), { present: [], missing: [] });
});

test("the report judges issue #17's thread, first-run, load and memory targets from the measurements", () => {
  const side = (median, firstRunMs, loadMs, peakBytes) => ({ stats: { median, p10: median, p90: median, n: 5 }, firstRunMs, loadMs, loadOnlyMs: loadMs - firstRunMs, peakBytes });
  const row = (name, threads, pt2web, ort) => ({ name, kind: 'model', threads, inputs: [], pt2web, ort });
  const results = [
    row('big', 1, side(10, 20, 50, 100), side(12, 20, 40, 200)),
    row('big', 2, side(5, 20, 50, 100), side(6, 20, 40, 200)),
    row('slow2', 1, side(8, 40, 50, 300), side(8, 8, 60, 200)),
    row('slow2', 2, side(9, 40, 50, 300), side(8, 8, 60, 200)),
  ];
  const text = formatReport(results, { threadCounts: [1, 2], header: '#', build: 'b', missing: ['resnet18'], generateCommand: 'CMD' });
  assert.match(text, /Generated models not on disk, not run: resnet18\. Write them with:\n\n {4}CMD/);
  assert.match(text, /2 threads >= 1\.8x one thread on models of 5 ms or more: NOT met on slow2 0\.89x/);
  assert.match(text, /never slower on 2 threads than on 1: NOT met on slow2 0\.89x/);
  assert.match(text, /first run at most 3x the steady median \(models over 1 ms, 1 thread\): NOT met on slow2 5\.0x/);
  assert.match(text, /load \+ first run no slower than onnxruntime-web's \(1 thread\): NOT met on big 1\.25x/);
  assert.match(text, /peak wasm memory no higher than onnxruntime-web's: NOT met on slow2/);
});

test('llm.mjs decodes a static-cache program at each thread count and reports the figures', () => {
  const folder = mkdtempSync(join(tmpdir(), 'pt2web-llm-'));
  try {
    const file = join(REPO_ROOT, 'tests', 'fixtures-transformers', 'llama_decode', 'model.pt2');
    const out = join(folder, 'llm.json');
    const run = spawnSync(process.execPath, [LLM_SCRIPT, file, '--threads', '1', '--tokens', '4', '--torch-ms', '1', '--json', out], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /\| threads \| load s/);
    const { rows } = JSON.parse(readFileSync(out, 'utf8'));
    assert.equal(rows.length, 1);
    assert.equal(rows[0].tokens, 4);
    assert.ok(rows[0].tokensPerSecond > 0 && rows[0].peakResidentBytes > 0 && rows[0].wasmBytes > 0, JSON.stringify(rows[0]));
    const bad = spawnSync(process.execPath, [LLM_SCRIPT, file, '--tokens', '1'], { encoding: 'utf8' });
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /--tokens must be at least 2/);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
