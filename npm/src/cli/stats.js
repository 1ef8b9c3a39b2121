// Summary statistics of timing samples (milliseconds) for `pt2web bench`.

/** The q-quantile of sorted samples, interpolating linearly (numpy's default). */
export function quantile(sorted, q) {
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low] + (sorted[high] - sorted[low]) * (position - low);
}

/**
 * {runs, median, mean, min, max, p10, p90, stdev} of a non-empty list of samples
 * (quantiles interpolate linearly between the sorted samples).
 */
export function summarize(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
  const variance = sorted.reduce((a, x) => a + (x - mean) ** 2, 0) / Math.max(1, sorted.length - 1);
  return {
    runs: sorted.length,
    median: quantile(sorted, 0.5),
    mean,
    min: sorted[0],
    max: sorted.at(-1),
    p10: quantile(sorted, 0.1),
    p90: quantile(sorted, 0.9),
    stdev: Math.sqrt(variance),
  };
}
