// Summary statistics of a list of timings (milliseconds): the statistics of
// `pt2web bench` (npm/src/cli/stats.js), under the names the report uses.

import { quantile, summarize as summarizeSamples } from '../../npm/src/cli/stats.js';

export const percentile = quantile;

/** @returns {{n, median, p10, p90, min, max}} */
export function summarize(times) {
  const s = summarizeSamples(times);
  return { n: s.runs, median: s.median, p10: s.p10, p90: s.p90, min: s.min, max: s.max };
}
