// How fast pt2web gets to its first result in a fresh Node process, and
// whether the event loop stalls afterwards (issue #17, item 6):
//
//   node tests/bench/first_result.mjs MODEL.pt2 [--threads N] [--runs N] [--watch-ms MS] [--wasm FILE]
//
// Prints one JSON object: startMs (instantiating the wasm module), loadMs,
// firstRunMs, secondRunMs (after the watch window), steadyMs (median of --runs runs, default 20, after
// the watch window), and stall: the longest gap between 1 ms timer ticks, in
// ms, in the --watch-ms (default 3000) after the first result, the program
// idle (V8 compiles wasm functions with its optimizing tier in the
// background; a gap here is main-thread time no JavaScript could run), with
// when it began, in ms after the first result. The model runs on its archive's example inputs, or on
// random ones of valid shapes. Run with `node --liftoff-only` to see the
// figures without the optimizing tier.

import { readFileSync } from 'node:fs';
import { heapStats, load, sampleInputs } from '../../npm/src/index.js';

function parseArgs(argv) {
  const options = { model: null, threads: 1, runs: 20, watchMs: 3000, wasm: undefined };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const number = () => {
      const n = Number(argv[++i]);
      if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} needs a positive integer`);
      return n;
    };
    if (flag === '--threads') options.threads = number();
    else if (flag === '--runs') options.runs = number();
    else if (flag === '--watch-ms') options.watchMs = number();
    else if (flag === '--wasm') options.wasm = readFileSync(argv[++i]);
    else if (!flag.startsWith('--') && !options.model) options.model = flag;
    else throw new Error(`unknown argument '${flag}'`);
  }
  if (!options.model) throw new Error('usage: node tests/bench/first_result.mjs MODEL.pt2 [--threads N] [--runs N] [--watch-ms MS] [--wasm FILE]');
  return options;
}

// Records the longest gap between timer ticks until stop() is called.
function watchEventLoop(origin) {
  let last = performance.now();
  let longest = { ms: 0, at: 0 };
  const timer = setInterval(() => {
    const now = performance.now();
    if (now - last > longest.ms) longest = { ms: now - last, at: last - origin };
    last = now;
  }, 1);
  return {
    stop() {
      clearInterval(timer);
      return longest;
    },
  };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const bytes = readFileSync(options.model);
  const origin = performance.now();
  const loadOptions = { threads: options.threads, ...(options.wasm ? { wasm: options.wasm } : {}) };
  await heapStats(loadOptions);  // instantiates the module
  const startMs = performance.now() - origin;
  const t0 = performance.now();
  const program = await load(bytes, { ...loadOptions, label: options.model });
  const loadMs = performance.now() - t0;
  const { args, kwargs } = sampleInputs(program);
  const t1 = performance.now();
  program.run(args, kwargs);
  const firstRunMs = performance.now() - t1;
  const watcher = watchEventLoop(performance.now());
  await sleep(options.watchMs);
  const stall = watcher.stop();
  const t2 = performance.now();
  program.run(args, kwargs);
  const secondRunMs = performance.now() - t2;
  const times = [];
  for (let i = 0; i < options.runs; i++) {
    const t = performance.now();
    program.run(args, kwargs);
    times.push(performance.now() - t);
  }
  program.dispose();
  const round = (x) => Math.round(x * 100) / 100;
  console.log(
    JSON.stringify({
      model: options.model,
      threads: program.threads,
      startMs: round(startMs),
      loadMs: round(loadMs),
      firstRunMs: round(firstRunMs),
      secondRunMs: round(secondRunMs),
      steadyMs: round(median(times)),
      stall: { longestGapMs: round(stall.ms), beganAtMs: round(stall.at) },
    }),
  );
}

await main();
