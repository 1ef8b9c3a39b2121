// pt2web vs onnxruntime-web benchmark (issues #4 and #17). Runs every model at each
// thread count in its own child process (worker.mjs), one at a time, and
// prints a Markdown report (report.mjs) to stdout; progress goes to stderr.
// With threads, by default each runtime gets a process of its own (--apart).
//
//   node tests/bench/run.mjs [--threads 1,2] [--filter NAME[,NAME...]] [--runs N] [--apart threads|always|never]
//                            [--json OUT.json] [--dialect training|core] [--budget-ms MS] [--timeout-s S]
//
// Exit status: 0 when every job ran (targets missed do not fail it), 1 when
// a job failed, 2 for bad arguments.

import { fork } from 'node:child_process';
import { rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mergeApart } from './apart.mjs';
import { GENERATE_COMMAND, benchmarkJobs, generatedModels } from './models.mjs';
import { formatReport } from './report.mjs';

const WORKER = fileURLToPath(new URL('./worker.mjs', import.meta.url));
const USAGE = `usage: node tests/bench/run.mjs [--threads 1,2] [--filter NAME[,NAME...]] [--runs N] [--json OUT.json]
                                [--apart threads|always|never] [--dialect training|core] [--budget-ms MS] [--timeout-s S]
  --threads    thread counts to run, each for both runtimes; default 1,2
  --apart      run the two runtimes of a model in two processes, one after the other: 'threads' (default) at 2 or
               more threads, where one runtime's spinning workers would take cores from the other; 'always'; 'never'
  --filter     only models/kernels whose name contains one of these substrings
  --runs       fixed number of timed runs per runtime (default: the slower one runs about --budget-ms, 5 to 500 runs)
  --json       also write every measurement to this file
  --dialect    which fixture program pt2web runs: training (model.pt2, default) or core (model.core.pt2)
  --budget-ms  time the slower runtime spends in timed runs, per model (default 1500)
  --timeout-s  give up on one model after this long (default 600)`;

function parseArgs(argv) {
  const options = {
    threads: [1, 2],
    filter: null,
    runs: null,
    json: null,
    apart: 'threads',
    dialect: 'training',
    budgetMs: 1500,
    timeoutS: 600,
  };
  const positiveInt = (flag, text) => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} needs a positive integer, got '${text}'`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${flag} needs a value`);
      return argv[++i];
    };
    switch (flag) {
      case '--threads':
        options.threads = value().split(',').map((t) => positiveInt('--threads', t));
        break;
      case '--filter':
        options.filter = value();
        break;
      case '--runs':
        options.runs = positiveInt('--runs', value());
        break;
      case '--json':
        options.json = value();
        break;
      case '--apart':
        options.apart = value();
        if (!['threads', 'always', 'never'].includes(options.apart)) {
          throw new Error(`--apart is threads, always or never, not '${options.apart}'`);
        }
        break;
      case '--dialect':
        options.dialect = value();
        if (!['training', 'core'].includes(options.dialect)) throw new Error(`--dialect is training or core, not '${options.dialect}'`);
        break;
      case '--budget-ms':
        options.budgetMs = positiveInt('--budget-ms', value());
        break;
      case '--timeout-s':
        options.timeoutS = positiveInt('--timeout-s', value());
        break;
      case '-h':
      case '--help':
        options.help = true;
        break;
      default:
        throw new Error(`unknown argument '${flag}'`);
    }
  }
  return options;
}

function loadAverage() {
  return loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
}

function runWorker(message, timeoutS) {
  return new Promise((resolve) => {
    // 'advanced' serialization carries typed arrays (inputs and outputs of --apart).
    const child = fork(WORKER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
    let settled = false;
    const finish = (value) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(value);
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish({ ok: false, error: `gave up after ${timeoutS} s` });
    }, timeoutS * 1000);
    child.on('message', finish);
    child.on('error', (error) => finish({ ok: false, error: error.message }));
    child.on('exit', (code, signal) => finish({ ok: false, error: `worker exited (${signal ?? `code ${code}`}) without a result` }));
    child.send(message);
  });
}

const runsApart = (options, job, threads) =>
  Boolean(job.onnxPath) && (options.apart === 'always' || (options.apart === 'threads' && threads > 1));

// One job as two processes: pt2web first (its inputs, seeded or torch's,
// are handed to the second), then onnxruntime-web; the results merge into
// one row as if both had run in one process, minus the interleaving.
async function runJobApart(message, timeoutS) {
  const ours = await runWorker({ ...message, only: 'pt2web' }, timeoutS);
  if (!ours.ok) return ours;
  const theirs = await runWorker({ ...message, only: 'ort', inputs: ours.result.apart.inputs }, timeoutS);
  if (!theirs.ok) return { ok: false, error: `onnxruntime-web's process: ${theirs.error}` };
  return { ok: true, result: mergeApart(message.job, ours.result, theirs.result) };
}

const WASM_PATH = fileURLToPath(new URL('../../npm/dist/pt2web.wasm', import.meta.url));

// Which pt2web build is in npm/dist (the lead may rebuild while a run is on).
function buildStamp() {
  try {
    const s = statSync(WASM_PATH);
    return `npm/dist/pt2web.wasm ${(s.size / 1e6).toFixed(2)} MB built ${s.mtime.toISOString()}`;
  } catch {
    return 'npm/dist/pt2web.wasm missing';
  }
}

const PROCESS_MODES = {
  threads:
    'one per model at 1 thread, both runtimes in it, timed runs interleaved; at 2+ threads one per runtime, ' +
    'one after the other (no interleaving)',
  always: 'one per runtime and model, one after the other (no interleaving)',
  never: 'one per model, both runtimes in it, timed runs interleaved',
};

function header(options, { loadAtStart, build }) {
  const busiest = Math.max(...[loadAtStart, loadAverage()].map((text) => Number(text.split(' ')[0])));
  const warning =
    busiest > cpus().length / 2
      ? [`**The machine was busy (1-minute load average up to ${busiest.toFixed(1)} on ${cpus().length} cores): ` +
          'timings and especially the 2-thread rows are unreliable.**']
      : [];
  return [
    '# pt2web vs onnxruntime-web',
    '',
    `${new Date().toISOString()}; Node ${process.version}; ${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}; ` +
      `load average at start ${loadAtStart}, at end ${loadAverage()} (other work on the machine skews timings)`,
    `${build}; fixture programs: ${options.dialect === 'core' ? 'model.core.pt2 (Core ATen)' : 'model.pt2 (training IR, as torch.export writes)'}`,
    `Processes: ${PROCESS_MODES[options.apart]}`,
    ...warning,
  ].join('\n');
}

async function main() {
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`${error.message}\n${USAGE}`);
    process.exit(2);
  }
  if (options.help) {
    console.log(USAGE);
    return;
  }
  const kernelDir = join(tmpdir(), `pt2web-bench-kernels-${process.pid}`);
  const jobs = benchmarkJobs({ filter: options.filter, dialect: options.dialect, kernelDir });
  const { missing } = generatedModels({ filter: options.filter, dialect: options.dialect });
  if (missing.length) {
    process.stderr.write(
      `generated models not on disk, skipped: ${missing.join(', ')}\n  write them with: ${GENERATE_COMMAND}\n`,
    );
  }
  if (jobs.length === 0) {
    console.error(`no model or kernel name contains '${options.filter}'`);
    process.exit(2);
  }
  const measureOptions = { budgetMs: options.budgetMs, runs: options.runs };
  const loadAtStart = loadAverage();
  const build = buildStamp();
  const start = performance.now();
  const results = [];
  let failed = 0;
  for (const job of jobs) {
    for (const threads of options.threads) {
      const t0 = performance.now();
      process.stderr.write(`${job.name}, ${threads} thread${threads > 1 ? 's' : ''} ... `);
      const buildBefore = buildStamp();
      const message = { job, threads, measureOptions };
      const reply = runsApart(options, job, threads)
        ? await runJobApart(message, options.timeoutS)
        : await runWorker(message, options.timeoutS);
      if (reply.ok) {
        reply.result.build = buildBefore;
        reply.result.rebuiltDuring = buildStamp() !== buildBefore;
      }
      const seconds = ((performance.now() - t0) / 1000).toFixed(1);
      if (reply.ok) {
        results.push(reply.result);
        const ortError = reply.result.ort.skipped ? null : reply.result.ort.error;
        const errors = [reply.result.pt2web.error, ortError].filter(Boolean);
        if (errors.length) failed++;
        process.stderr.write(`${seconds} s${errors.length ? ` (${errors.join('; ')})` : ''}\n`);
      } else {
        failed++;
        results.push({ name: job.name, kind: job.kind, note: job.note ?? null, threads, error: reply.error });
        process.stderr.write(`failed after ${seconds} s: ${reply.error}\n`);
      }
    }
  }
  rmSync(kernelDir, { recursive: true, force: true });
  process.stderr.write(`all done in ${((performance.now() - start) / 1000).toFixed(0)} s\n`);
  console.log(
    formatReport(results, {
      threadCounts: options.threads,
      build,
      header: header(options, { loadAtStart, build }),
      missing,
      generateCommand: GENERATE_COMMAND,
    }),
  );
  if (options.json) {
    writeFileSync(options.json, JSON.stringify({ options, results }, null, 1));
    process.stderr.write(`wrote ${options.json}\n`);
  }
  process.exitCode = failed ? 1 : 0;
}

await main();
