// Summary statistics of a list of timings (milliseconds): median and the
// 10th/90th percentiles (linear interpolation between order statistics,
// like numpy's default), min, max and count.

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const at = (sorted.length - 1) * p;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}

/** @returns {{n, median, p10, p90, min, max}} */
export function summarize(times) {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    n: sorted.length,
    median: percentile(sorted, 0.5),
    p10: percentile(sorted, 0.1),
    p90: percentile(sorted, 0.9),
    min: sorted[0],
    max: sorted[sorted.length - 1],
  };
}
