// Times several runtimes on the same work, interleaved: after a warm-up,
// each round runs every side once (alternating which goes first), so slow
// drifts of the machine (other processes, thermal state) hit all sides
// alike. Every side runs the same number of rounds: fixed (--runs), or
// enough for the slowest side to fill the time budget at the speed seen in
// the warm-up, within [minRuns, maxRuns].
//
// settleRuns: untimed calls before each timed one, in the same turn. With
// threads, a runtime's workers keep spinning for a while after its call; a
// call made right after the other runtime's shares its cores with those
// spinners. The untimed call absorbs that switch-over for both sides alike.

import { summarize } from './stats.mjs';

// Warm-up lasts at least warmupRuns runs and warmupMs per side: V8 compiles
// hot wasm functions with its optimizing tier in the background for the
// first seconds, and runs in that window are up to twice as slow.
const DEFAULTS = {
  warmupRuns: 5,
  warmupMs: 2000,
  maxWarmupRuns: 200,
  budgetMs: 1500,
  minRuns: 5,
  maxRuns: 500,
  runs: null,
  settleRuns: 0,
};

async function timeOnce(call) {
  const start = performance.now();
  await call();
  return performance.now() - start;
}

/**
 * @param {Array<{name: string, call: () => Promise<any>}>} sides
 * @param {object} [options] warmupRuns and warmupMs (warm each side up for at least both), maxWarmupRuns,
 *   budgetMs (time of the slowest side), minRuns, maxRuns, runs (fixed count, overrides the budget),
 *   settleRuns (untimed calls before each timed one)
 * @returns {Promise<Object<string, {n, median, p10, p90, min, max, warmup: number}>>} per side name
 */
export async function measureInterleaved(sides, options = {}) {
  const o = { ...DEFAULTS, ...options };
  const warm = sides.map(() => ({ times: [], spent: 0 }));
  const warming = (w) => (w.times.length < o.warmupRuns || w.spent < o.warmupMs) && w.times.length < o.maxWarmupRuns;
  while (warm.some(warming)) {
    for (let i = 0; i < sides.length; i++) {
      if (!warming(warm[i])) continue;
      const t = await timeOnce(sides[i].call);
      warm[i].times.push(t);
      warm[i].spent += t;
    }
  }
  const slowest = Math.max(...warm.map((w) => summarize(w.times).median));
  const rounds = o.runs ?? Math.max(o.minRuns, Math.min(o.maxRuns, Math.round(o.budgetMs / Math.max(slowest, 1e-3))));
  const times = sides.map(() => []);
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? sides.map((_, i) => i) : sides.map((_, i) => sides.length - 1 - i);
    for (const i of order) {
      for (let s = 0; s < o.settleRuns; s++) await sides[i].call();
      times[i].push(await timeOnce(sides[i].call));
    }
  }
  return Object.fromEntries(sides.map((side, i) => [side.name, { ...summarize(times[i]), warmup: warm[i].times.length }]));
}
