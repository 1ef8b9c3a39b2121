// Formats rows of cells as an aligned plain-text table (Markdown pipe
// syntax, so it can be pasted into an issue as is). Cells are strings;
// columns whose header starts with '>' are right-aligned (the '>' is dropped).

export function formatTable(headers, rows) {
  const right = headers.map((h) => h.startsWith('>'));
  const titles = headers.map((h) => (h.startsWith('>') ? h.slice(1) : h));
  const widths = titles.map((t, c) => Math.max(t.length, ...rows.map((r) => String(r[c] ?? '').length)));
  const pad = (text, c) => (right[c] ? String(text).padStart(widths[c]) : String(text).padEnd(widths[c]));
  const line = (cells) => `| ${cells.map((cell, c) => pad(cell ?? '', c)).join(' | ')} |`;
  const rule = `|${widths.map((w, c) => (right[c] ? `${'-'.repeat(w + 1)}:` : `${'-'.repeat(w + 2)}`)).join('|')}|`;
  return [line(titles), rule, ...rows.map(line)].join('\n');
}
