// Formatting for the page's views: sizes, shapes, durations,
// numbers. Pure functions.

export function formatBytes(n) {
  const value = Number(n);
  if (!Number.isFinite(value)) return '?';
  if (value < 1024) return `${value} B`;
  if (value < 1024 * 1024) return `${(value / 1024).toFixed(1)} KB`;
  if (value < 1024 * 1024 * 1024) return `${(value / (1024 * 1024)).toFixed(1)} MB`;
  return `${(value / (1024 * 1024 * 1024)).toFixed(2)} GB`;
}

/** [2, 's0', 8] -> "[2, s0, 8]"; null (unknown) -> "?" */
export function formatShape(shape) {
  return Array.isArray(shape) ? `[${shape.join(', ')}]` : '?';
}

export function formatMs(ms) {
  if (!Number.isFinite(ms)) return '?';
  if (ms < 0.01) return `${(ms * 1000).toFixed(1)} µs`;
  if (ms < 10) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${ms.toFixed(1)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

/** A short, readable number: 4 significant digits, exponent when very large or small. */
export function formatNumber(x) {
  if (typeof x === 'bigint') return x.toString();
  if (typeof x === 'boolean') return x ? 'True' : 'False';
  if (typeof x !== 'number') return String(x);
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (Number.isInteger(x) && Math.abs(x) < 1e9) return String(x);
  const magnitude = Math.abs(x);
  if (magnitude !== 0 && (magnitude < 1e-3 || magnitude >= 1e6)) return x.toExponential(3);
  return String(Number(x.toPrecision(4)));
}

/** "[min, max]" of a symbol's range; null bounds are unbounded. */
export function formatRange([min, max]) {
  return `[${min ?? '-∞'}, ${max ?? '∞'}]`;
}

/** An operator target without torch's namespace prefix: "torch.ops.aten.add.Tensor" -> "aten.add.Tensor". */
export function shortTarget(target) {
  return String(target).replace(/^torch\.ops\./, '');
}
