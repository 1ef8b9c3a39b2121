// pt2web vs onnxruntime-web benchmark (issues #4 and #17). Runs every model at each
// thread count in its own child process (worker.mjs), one at a time, and
// prints a Markdown report (report.mjs) to stdout; progress goes to stderr.
//
//   node tests/bench/run.mjs [--threads 1,2] [--filter NAME[,NAME...]] [--runs N]
//                            [--json OUT.json] [--dialect training|core] [--budget-ms MS] [--timeout-s S]
//
// Exit status: 0 when every job ran (targets missed do not fail it), 1 when
// a job failed, 2 for bad arguments.

import { fork } from 'node:child_process';
import { rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GENERATE_COMMAND, benchmarkJobs, generatedModels } from './models.mjs';
import { formatReport } from './report.mjs';

const WORKER = fileURLToPath(new URL('./worker.mjs', import.meta.url));
const USAGE = `usage: node tests/bench/run.mjs [--threads 1,2] [--filter NAME[,NAME...]] [--runs N] [--json OUT.json]
                                [--dialect training|core] [--budget-ms MS] [--timeout-s S]
  --threads    thread counts to run, each for both runtimes; default 1,2
  --filter     only models/kernels whose name contains one of these substrings
  --runs       fixed number of timed runs per runtime (default: the slower one runs about --budget-ms, 5 to 500 runs)
  --json       also write every measurement to this file
  --dialect    which fixture program pt2web runs: training (model.pt2, default) or core (model.core.pt2)
  --budget-ms  time the slower runtime spends in timed runs, per model (default 1500)
  --timeout-s  give up on one model after this long (default 600)`;

function parseArgs(argv) {
  const options = { threads: [1, 2], filter: null, runs: null, json: null, dialect: 'training', budgetMs: 1500, timeoutS: 600 };
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
    const child = fork(WORKER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
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
      const reply = await runWorker({ job, threads, measureOptions }, options.timeoutS);
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
