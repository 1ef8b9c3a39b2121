// Prints the report of one or more --json files of run.mjs together, e.g. a
// 1-thread run and a 2-thread run made apart, so the 2-thread targets
// (speedup over one thread) can be judged:
//
//   node tests/bench/report_json.mjs ONE.json [MORE.json ...]
//
// A model and thread count found in several files is taken from the last.

import { readFileSync } from 'node:fs';
import { formatReport } from './report.mjs';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node tests/bench/report_json.mjs ONE.json [MORE.json ...]');
  process.exit(2);
}
const byKey = new Map();
for (const file of files) {
  const { results } = JSON.parse(readFileSync(file, 'utf8'));
  for (const r of results) byKey.set(`${r.name}/${r.threads}`, r);
}
const results = [...byKey.values()];
const threadCounts = [...new Set(results.map((r) => r.threads))].sort((a, b) => a - b);
const builds = [...new Set(results.map((r) => r.build).filter(Boolean))];
const header = ['# pt2web vs onnxruntime-web (merged)', '', `from ${files.join(', ')}; builds: ${builds.join('; ')}`].join('\n');
console.log(formatReport(results, { threadCounts, header, build: builds[0] }));
