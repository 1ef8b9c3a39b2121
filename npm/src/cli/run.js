// `pt2web run MODEL.pt2 [--cases FILE [--case NAME]] [--random] [--seed N]
// [--json] [--out FILE]`: runs the program on the chosen inputs (inputs.js)
// and prints the outputs (a readable summary, or --json), or writes them as
// JSON (--out; value_json.js describes the encoding).

import { writeFile } from 'node:fs/promises';

import { load } from '../index.js';
import { chooseInputs } from './inputs.js';
import { formatJson, leaves, toJsonValue } from './value_json.js';

const SHOWN = 8;

function formatNumber(x) {
  if (typeof x === 'bigint' || Number.isInteger(x)) return String(x);
  if (typeof x !== 'number') return String(x);
  return Number.isFinite(x) ? x.toPrecision(5).replace(/\.?0+(e|$)/, '$1') : String(x);
}

function formatLeaf(value) {
  if (value !== null && typeof value === 'object' && ArrayBuffer.isView(value.data)) {
    const items = value.toArray();
    const shown = items.slice(0, SHOWN).map(formatNumber).join(', ');
    const more = items.length > SHOWN ? `, ... (${items.length - SHOWN} more)` : '';
    return `${value.dtype}[${value.shape.join(', ')}]  [${shown}${more}]`;
  }
  return typeof value === 'number' || typeof value === 'bigint' ? formatNumber(value) : JSON.stringify(value);
}

function printResults(header, results) {
  console.log(header);
  for (const { name, ms, output } of results) {
    console.log(`${name}  (${ms.toFixed(2)} ms)`);
    for (const [path, value] of leaves(output)) console.log(`  ${path}  ${formatLeaf(value)}`);
  }
}

/** Runs the command; resolves to the process exit code. */
export async function run(modelPath, { cases, caseName, random, seed, threads = 1, json = false, out } = {}) {
  const program = await load(modelPath, { threads });
  try {
    const { source, calls } = await chooseInputs(program, { cases, caseName, random, seed });
    const results = [];
    for (const call of calls) {
      const start = performance.now();
      const output = program.run(call.args, call.kwargs);
      results.push({ name: call.name, ms: performance.now() - start, output });
    }
    const document = {
      model: modelPath,
      dialect: program.dialect,
      inputs: source,
      results: results.map(({ name, ms, output }) => ({ name, ms, output: toJsonValue(output) })),
    };
    if (out !== undefined) {
      await writeFile(out, `${formatJson(document)}\n`);
      if (!json) console.log(`wrote ${results.length} result${results.length === 1 ? '' : 's'} to ${out}`);
    }
    if (json) console.log(formatJson(document));
    else if (out === undefined) printResults(`${modelPath} (${program.dialect}), inputs: ${source}`, results);
    return 0;
  } finally {
    program.dispose();
  }
}
