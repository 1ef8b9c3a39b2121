// `pt2web bench MODEL.pt2 [--cases FILE [--case NAME]] [--random] [--seed N]
// [--threads N] [--warmup N] [--runs N] [--json]`: times load() once and run() on one
// input (the named case, the first case with expected results, or
// sampleInputs()) after warm-up runs, and reports the median and spread.

import { load } from '../index.js';
import { chooseInputs } from './inputs.js';
import { summarize } from './stats.js';

function ms(x) {
  return `${x.toFixed(3)} ms`;
}

/** Runs the command; resolves to the process exit code. */
export async function bench(modelPath, { cases, caseName, random, seed, threads = 1, warmup = 5, runs = 30, json = false } = {}) {
  const loadStart = performance.now();
  const program = await load(modelPath, { threads });
  const loadMs = performance.now() - loadStart;
  try {
    const { source, calls } = await chooseInputs(program, { cases, caseName, random, seed });
    const [call] = calls;
    for (let i = 0; i < warmup; i++) program.run(call.args, call.kwargs);
    const samples = [];
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      program.run(call.args, call.kwargs);
      samples.push(performance.now() - start);
    }
    const run = summarize(samples);
    if (json) {
      console.log(JSON.stringify({ model: modelPath, dialect: program.dialect, inputs: source, case: call.name, threads: program.threads, warmup, loadMs, run }, null, 2));
      return 0;
    }
    console.log(`${modelPath} (${program.dialect}), input '${call.name}' from ${source}, ${program.threads} thread${program.threads === 1 ? '' : 's'}`);
    console.log(`load  ${ms(loadMs)}`);
    console.log(`run   median ${ms(run.median)}  p10 ${ms(run.p10)}  p90 ${ms(run.p90)}  min ${ms(run.min)}  max ${ms(run.max)}  ` +
      `(${run.runs} runs after ${warmup} warm-up)`);
    return 0;
  } finally {
    program.dispose();
  }
}
