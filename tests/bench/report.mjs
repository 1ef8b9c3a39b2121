// Turns the workers' results into the printed report: per thread count a
// table of the models and a table of the kernels, then issue #4's targets
// with the measured value of each, then how things were measured.
// A result is either a worker result (see worker.mjs) or {name, threads, error}.

import { formatTable } from './table.mjs';

const MB = 1024 * 1024;

function ms(x) {
  if (x == null || !Number.isFinite(x)) return '-';
  if (x < 10) return x.toFixed(2);
  if (x < 100) return x.toFixed(1);
  return x.toFixed(0);
}

function timing(stats) {
  return stats ? `${ms(stats.median)} (${ms(stats.p10)}-${ms(stats.p90)})` : '-';
}

function megabytes(bytes) {
  return bytes == null ? '-' : (bytes / MB).toFixed(1);
}

function gflops(flops, stats) {
  return flops && stats ? (flops / (stats.median * 1e6)).toFixed(1) : '-';
}

function ratio(r) {
  const a = r.pt2web?.stats?.median;
  const b = r.ort?.stats?.median;
  return a && b ? a / b : null;
}

function diff(check) {
  if (!check) return '-';
  const text = `${check.maxAbsDiff.toExponential(1)} / ${check.maxAbs.toExponential(1)}`;
  return check.problem ? `${text} (!)` : text;
}

function load(side) {
  if (side?.loadMs == null) return '-';
  return `${ms(side.loadMs)} (${ms(side.loadOnlyMs)}+${ms(side.firstRunMs)})`;
}

function shapes(r) {
  return (r.inputs ?? []).map((i) => `${i.dtype === 'float32' ? '' : `${i.dtype} `}${i.shape.join('x')}`).join(', ');
}

// pt2web's first outputs against torch's (generated models only).
function torchCell(r) {
  if (!r.torchCheck) return '-';
  const error = Number.isFinite(r.torchCheck.maxError) ? r.torchCheck.maxError.toExponential(1) : 'inf';
  return r.torchCheck.ok ? `ok ${error}` : 'WRONG';
}

function sideCell(side) {
  if (!side) return '-';
  if (side.error && !side.stats) return 'failed (see notes)';
  return timing(side.stats);
}

function modelRow(r) {
  const q = ratio(r);
  return [
    r.name,
    shapes(r),
    sideCell(r.pt2web),
    sideCell(r.ort),
    q ? `${q.toFixed(2)}x` : '-',
    load(r.pt2web),
    load(r.ort),
    megabytes(r.pt2web?.peakBytes),
    megabytes(r.ort?.peakBytes),
    diff(r.check),
    torchCell(r),
    String(Math.max(r.pt2web?.stats?.n ?? 0, r.ort?.stats?.n ?? 0)),
  ];
}

function kernelRow(r) {
  const row = modelRow(r);
  row.splice(5, 0, gflops(r.flops, r.pt2web?.stats), gflops(r.flops, r.ort?.stats));
  return row;
}

const MODEL_HEADERS = [
  'model',
  'input',
  '>pt2web ms (p10-p90)',
  '>ort ms (p10-p90)',
  '>pt2web/ort',
  '>pt2web load ms (load+1st run)',
  '>ort load ms (load+1st run)',
  '>pt2web peak MB',
  '>ort peak MB',
  '>max|diff| / max|out|',
  '>vs torch',
  '>runs',
];
const KERNEL_HEADERS = [...MODEL_HEADERS.slice(0, 5), '>pt2web GFLOP/s', '>ort GFLOP/s', ...MODEL_HEADERS.slice(5)];

function median(values) {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return v.length ? v[Math.floor(v.length / 2)] : null;
}

function section(threads, results) {
  const ok = results.filter((r) => !r.error);
  const sample = ok[0];
  const lines = [
    `## ${threads} thread${threads > 1 ? 's' : ''}: onnxruntime-web ${sample?.ort.threads ?? threads}, pt2web ${sample?.pt2web.threads ?? '1'}`,
    '',
  ];
  const models = results.filter((r) => r.kind === 'model');
  const kernels = results.filter((r) => r.kind === 'kernel');
  if (models.length) lines.push(formatTable(MODEL_HEADERS, models.map((r) => (r.error ? [r.name, 'failed (see notes)'] : modelRow(r)))), '');
  if (kernels.length) lines.push(formatTable(KERNEL_HEADERS, kernels.map((r) => (r.error ? [r.name, 'failed (see notes)'] : kernelRow(r)))), '');
  if (ok.length) {
    lines.push(
      `Runtime start-up (wasm instantiation${threads > 1 ? ', worker pool' : ''} and a one-node model loaded and run once; ` +
        `not in the load times), median over processes: ` +
        `pt2web ${ms(median(ok.map((r) => r.pt2web.initMs)))} ms, onnxruntime-web ${ms(median(ok.map((r) => r.ort.initMs)))} ms; ` +
        `wasm memory after start-up: pt2web ${megabytes(median(ok.map((r) => r.pt2web.baseBytes)))} MB, ` +
        `onnxruntime-web ${megabytes(median(ok.map((r) => r.ort.baseBytes)))} MB. ` +
        `OS threads per process after start-up: ${[...new Set(ok.map((r) => r.osThreads))].join(', ')}.`,
      '',
    );
  }
  return lines.join('\n');
}

function find(results, name, threads) {
  return results.find((r) => r.name === name && r.threads === threads && !r.error);
}

function verdict(met) {
  return met == null ? 'not measured' : met ? 'met' : 'NOT met';
}

function listVerdict(checked, failing) {
  if (!checked.length) return 'not measured';
  return failing.length ? `NOT met on ${failing.join(', ')}` : `met (${checked.length} models)`;
}

// Issue #17's targets, each with the measured values behind it.
function targetLines(results) {
  const lines = [];
  const single = results.filter((r) => r.threads === 1 && !r.error);
  const models = single.filter((x) => x.kind === 'model');
  for (const r of models) {
    const q = ratio(r);
    lines.push(`- ${r.name}: pt2web/ort median ${q ? q.toFixed(2) : '-'} (target <= 0.67): ${verdict(q == null ? null : q <= 0.67)}`);
  }
  for (const [name, target] of [['gemm_512x512x512', 58], ['conv3x3_64to64_56x56', 52]]) {
    const r = find(results, name, 1);
    const g = r?.pt2web?.stats ? r.flops / (r.pt2web.stats.median * 1e6) : null;
    lines.push(`- ${name}: pt2web ${g == null ? '-' : g.toFixed(1)} GFLOP/s (target >= ${target}): ${verdict(g == null ? null : g >= target)}`);
  }
  const pairs = models
    .map((one) => ({ one, two: find(results, one.name, 2) }))
    .filter(({ one, two }) => one.pt2web?.stats && two?.pt2web?.stats);
  const speedup = ({ one, two }) => one.pt2web.stats.median / two.pt2web.stats.median;
  const big = pairs.filter(({ one }) => one.pt2web.stats.median >= 5);
  lines.push(
    `- 2 threads >= 1.8x one thread on models of 5 ms or more: ${listVerdict(
      big.map((p) => p.one.name),
      big.filter((p) => speedup(p) < 1.8).map((p) => `${p.one.name} ${speedup(p).toFixed(2)}x`),
    )}`,
  );
  lines.push(
    `- never slower on 2 threads than on 1: ${listVerdict(
      pairs.map((p) => p.one.name),
      pairs.filter((p) => speedup(p) < 1).map((p) => `${p.one.name} ${speedup(p).toFixed(2)}x`),
    )}`,
  );
  const slowFirst = models.filter((r) => r.pt2web?.stats && r.pt2web.stats.median > 1 && r.pt2web.firstRunMs != null);
  lines.push(
    `- first run at most 3x the steady median (models over 1 ms, 1 thread): ${listVerdict(
      slowFirst.map((r) => r.name),
      slowFirst
        .filter((r) => r.pt2web.firstRunMs > 3 * r.pt2web.stats.median)
        .map((r) => `${r.name} ${(r.pt2web.firstRunMs / r.pt2web.stats.median).toFixed(1)}x`),
    )}`,
  );
  const loaded = models.filter((r) => r.pt2web?.loadMs != null && r.ort?.loadMs != null);
  lines.push(
    `- load + first run no slower than onnxruntime-web's (1 thread): ${listVerdict(
      loaded.map((r) => r.name),
      loaded.filter((r) => r.pt2web.loadMs > r.ort.loadMs).map((r) => `${r.name} ${(r.pt2web.loadMs / r.ort.loadMs).toFixed(2)}x`),
    )}`,
  );
  const memory = single.filter((r) => r.pt2web?.peakBytes && r.ort?.peakBytes);
  lines.push(
    `- peak wasm memory no higher than onnxruntime-web's: ${listVerdict(
      memory.map((r) => r.name),
      memory.filter((r) => r.pt2web.peakBytes > r.ort.peakBytes).map((r) => r.name),
    )}`,
  );
  const checked = models.filter((r) => r.torchCheck);
  lines.push(
    `- generated models match torch on their input: ${listVerdict(
      checked.map((r) => r.name),
      checked.filter((r) => !r.torchCheck.ok).map((r) => r.name),
    )}`,
  );
  return lines.join('\n');
}

function noteLines(results, build) {
  const notes = [];
  const noted = new Set();
  for (const r of results) {
    if (r.note && !noted.has(r.name)) {
      noted.add(r.name);
      notes.push(`- ${r.name}: ${r.note}`);
    }
    const where = `${r.name} (${r.threads} thread${r.threads > 1 ? 's' : ''})`;
    if (r.error) notes.push(`- ${where}: ${r.error}`);
    if (r.rebuiltDuring) notes.push(`- ${where}: npm/dist/pt2web.wasm was rebuilt while this row ran; its figures are not trustworthy`);
    else if (r.build && r.build !== build) notes.push(`- ${where}: ran with another build than the header's (${r.build})`);
    if (r.pt2web?.error) notes.push(`- ${where}, pt2web: ${r.pt2web.error}`);
    if (r.ort?.error) notes.push(`- ${where}, onnxruntime-web: ${r.ort.error}`);
    if (r.check?.problem) notes.push(`- ${where}, output check: ${r.check.problem}`);
    if (r.pt2web?.heapSize && r.pt2web.peakBytes && r.pt2web.heapSize !== r.pt2web.peakBytes) {
      notes.push(`- ${where}: pt2web heapStats().heapSize ${r.pt2web.heapSize} differs from the probed memory ${r.pt2web.peakBytes}`);
    }
  }
  return notes.join('\n');
}

export const METHOD = `How this was measured:
- One Node process per model and thread count, both runtimes in it, or one per runtime, one after the other (see the
  Processes line above); inputs are the same for both: seeded pseudo-random bytes, or for the generated models torch's
  own input from their cases.json.
- Timed: one call (pt2web Program.run / onnxruntime-web session.run), inputs in and outputs copied out included.
  After a warm-up (at least 5 runs and 2 s per runtime: V8 tiers wasm up in the background meanwhile), runs alternate
  between the runtimes when they share a process, the same number for both: enough for the
  slower one to run about 1.5 s (at least 5, at most 500, or --runs N). Shown: median and 10th-90th percentile, in ms.
- pt2web/ort: ratio of medians (below 1 means pt2web is faster).
- load: from the file's bytes in memory to the first result (pt2web load() + first run; onnxruntime-web
  InferenceSession.create() + first run), after the runtime was started (start-up is reported apart); the two parts
  are in parentheses.
- peak MB: the byte length of each runtime's WebAssembly.Memory at the end of the process, found by wrapping
  WebAssembly.instantiate while that runtime starts (a wasm memory never shrinks, so this is the peak). It includes the
  runtime's initial memory. For pt2web it equals heapStats().heapSize.
- vs torch (generated models): they run on torch's own input (the first case of their cases.json), and pt2web's first
  outputs must match torch's within that case's rtol/atol ('ok' and the largest error), else pt2web is not timed.
- max|diff| / max|out|: largest absolute difference between the two runtimes' outputs on the first run, and the largest
  |output| for scale (a check that both got the same inputs; '(!)' marks outputs that could not be paired).
- Kernel rows: one-operator models written by make_kernel_models.mjs, weights as constants in both (parameter /
  initializer), no bias; GFLOP/s = 2*M*N*K (GEMM) or 2*N*Cout*Hout*Wout*Cin/groups*kH*kW (conv) per median time.`;

/** The whole report as text. */
export function formatReport(results, { threadCounts, header, build, missing = [], generateCommand = '' }) {
  const parts = [header, ''];
  if (missing.length) {
    parts.push(`Generated models not on disk, not run: ${missing.join(', ')}. Write them with:`, '', `    ${generateCommand}`, '');
  }
  for (const t of threadCounts) parts.push(section(t, results.filter((r) => r.threads === t)));
  parts.push('## Targets of issue #17', '', targetLines(results), '');
  const notes = noteLines(results, build);
  if (notes) parts.push('## Notes', '', notes, '');
  parts.push(METHOD);
  return parts.join('\n');
}
