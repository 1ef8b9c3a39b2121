// Decode benchmark for language models exported with transformers' static
// cache (../shared/tools/gen_llm.py writes them at real sizes): for each
// thread count, in a fresh process of its own, loads the file from its
// path, then generates greedily from a one-token prompt and reports
//
//   load        load() from the path to a ready program (s, and GB/s of file)
//   first       the first token: the prompt's step plus the choice (ms)
//   tokens/s    the steps after the first, per second
//   weights/s   parameter bytes read per second at that rate (GB/s): a
//               weight-bound step reads each weight once, so this is the
//               figure to hold against the machine's memory bandwidth
//   peak RSS    the process's high-water resident memory (VmHWM), and as a
//               multiple of the file's size
//   wasm        the wasm memory's size at the end
//
// beside torch eager's ms per token when given (--torch-ms, as gen_llm.py
// prints it). Timing is reported, never asserted.
//
//   node tests/bench/llm.mjs FILE.pt2 [--threads 1,2] [--tokens 32] [--torch-ms 250] [--json OUT]
//
// Exit status 1 when a run failed.

import { fork } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const HERE = fileURLToPath(import.meta.url);

function parseArguments(argv) {
  const options = { file: null, threads: [1, 2], tokens: 32, torchMs: null, json: null };
  for (let i = 0; i < argv.length; i++) {
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${argv[i]} needs a value`);
      return argv[++i];
    };
    if (argv[i] === '--threads') options.threads = value().split(',').map(Number);
    else if (argv[i] === '--tokens') options.tokens = Number(value());
    else if (argv[i] === '--torch-ms') options.torchMs = Number(value());
    else if (argv[i] === '--json') options.json = value();
    else if (argv[i].startsWith('--')) throw new Error(`unknown option ${argv[i]}`);
    else options.file = argv[i];
  }
  if (!options.file) throw new Error('usage: node tests/bench/llm.mjs FILE.pt2 [--threads 1,2] [--tokens N] [--torch-ms MS] [--json OUT]');
  if (!options.threads.every((t) => Number.isInteger(t) && t >= 1)) throw new Error('--threads takes whole numbers, e.g. 1,2');
  if (!(Number.isInteger(options.tokens) && options.tokens >= 2)) throw new Error('--tokens must be at least 2');
  return options;
}

function peakResidentBytes() {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? NaN);
  return kb * 1024;
}

// One thread count, in this process: what the parent reports.
export async function measureDecode(file, threads, tokens) {
  const { heapStats, load } = await import('../../npm/src/index.js');
  const began = performance.now();
  const program = await load(file, { threads });
  const loadSeconds = (performance.now() - began) / 1000;
  try {
    const stamps = [];
    let last = performance.now();
    for await (const _ of program.generateTokens([1], { maxNewTokens: tokens })) {
      const now = performance.now();
      stamps.push(now - last);
      last = now;
    }
    const steady = stamps.slice(1);
    const perToken = steady.reduce((a, b) => a + b, 0) / steady.length;
    const parameterBytes = Number(program.description.state.parameters.bytes);
    return {
      threads: program.threads,
      loadSeconds,
      firstTokenMs: stamps[0],
      msPerToken: perToken,
      tokensPerSecond: 1000 / perToken,
      weightGBps: parameterBytes / perToken / 1e6,
      parameterBytes,
      peakResidentBytes: peakResidentBytes(),
      wasmBytes: (await heapStats(program.memory64 ? { memory64: true } : { threads })).heapSize,
      tokens: stamps.length,
    };
  } finally {
    program.dispose();
  }
}

function runApart(file, threads, tokens) {
  return new Promise((resolve) => {
    const child = fork(HERE, ['--child', file, String(threads), String(tokens)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let result = null;
    child.on('message', (message) => {
      result = message;
    });
    child.on('exit', (code) => resolve(result ?? { error: `the run exited with ${code}` }));
  });
}

const gb = (bytes) => (bytes / 1e9).toFixed(2);

function report(file, fileBytes, rows, torchMs) {
  const lines = [
    `Decode of ${file} (${gb(fileBytes)} GB)${torchMs ? `; torch eager, 1 thread: ${torchMs} ms/token` : ''}`,
    '',
    '| threads | load s (GB/s) | first token ms | ms/token | tokens/s | weights GB/s | peak RSS GB (x file) | wasm GB | vs torch eager |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    if (row.error) {
      lines.push(`| ${row.asked} | failed: ${row.error} |`);
      continue;
    }
    lines.push(
      `| ${row.threads} | ${row.loadSeconds.toFixed(2)} (${(fileBytes / row.loadSeconds / 1e9).toFixed(2)}) | ${row.firstTokenMs.toFixed(1)} | ` +
        `${row.msPerToken.toFixed(1)} | ${row.tokensPerSecond.toFixed(1)} | ${row.weightGBps.toFixed(1)} | ` +
        `${gb(row.peakResidentBytes)} (${(row.peakResidentBytes / fileBytes).toFixed(2)}) | ${gb(row.wasmBytes)} | ` +
        `${torchMs ? `${(torchMs / row.msPerToken).toFixed(2)}x faster` : '-'} |`,
    );
  }
  return lines.join('\n');
}

async function main(argv) {
  if (argv[0] === '--child') {
    const [, file, threads, tokens] = argv;
    try {
      process.send(await measureDecode(file, Number(threads), Number(tokens)));
    } catch (error) {
      process.send({ error: String(error?.message ?? error) });
    }
    return;
  }
  const options = parseArguments(argv);
  const fileBytes = statSync(options.file).size;
  const rows = [];
  for (const threads of options.threads) rows.push({ asked: threads, ...(await runApart(options.file, threads, options.tokens)) });
  console.log(report(options.file, fileBytes, rows, options.torchMs));
  if (options.json) writeFileSync(options.json, JSON.stringify({ file: options.file, fileBytes, torchMs: options.torchMs, rows }, null, 1));
  if (rows.some((row) => row.error)) process.exitCode = 1;
}

if (process.argv[1] === HERE) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(error.message);
    process.exitCode = 1;
  });
}
