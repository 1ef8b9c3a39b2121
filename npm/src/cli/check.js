// `pt2web check DIR [--core]`: runs a fixture folder's cases in order on one
// loaded program (state carries over between cases) and compares the results
// with torch's. One line per case, then "N passed, M failed". A DIR that is
// not a folder is a UsageError (exit 2) saying what check expects.

import { stat } from 'node:fs/promises';
import { join } from 'node:path';

import { load } from '../index.js';
import { UsageError } from './args.js';
import { decodeCall, readCases } from './cases.js';
import { compareAll } from './compare.js';

function formatError(error) {
  return error.code ? `${error.code}: ${error.message}` : String(error.message ?? error);
}

function firstLine(text) {
  return String(text).split('\n')[0];
}

/**
 * Runs one fixture case on a loaded program and compares with torch's result.
 * @returns {{pass: boolean, detail: string}}
 */
export function runCase(program, testCase) {
  const { args, kwargs } = decodeCall(testCase);
  let outputs;
  try {
    outputs = program.run(args, kwargs);
  } catch (error) {
    if (testCase.error !== undefined || testCase.note !== undefined) {
      const pass = error.code === 'BAD_INPUT';
      const detail = pass ? `rejected: ${firstLine(error.message)}` : `expected a BAD_INPUT rejection, got ${formatError(error)}`;
      return { pass, detail };
    }
    return { pass: false, detail: firstLine(formatError(error)) };
  }
  if (testCase.error !== undefined) {
    return { pass: false, detail: `ran, but torch raised ${testCase.error}: ${firstLine(testCase.message)}` };
  }
  const pairs = [['output', outputs, testCase.expected]];
  if (testCase.state_after) {
    // torch records named_buffers(): non-persistent buffers (a static cache) included.
    const state = { ...program.buffers(), ...program.stateDict() };
    for (const [name, want] of testCase.state_after.dict) pairs.push([`state['${name}']`, state[name] ?? null, want]);
  }
  if (testCase.args_after) pairs.push(['args_after', args, testCase.args_after]);
  if (testCase.kwargs_after) pairs.push(['kwargs_after', kwargs, testCase.kwargs_after]);
  const result = compareAll(pairs, { rtol: testCase.rtol ?? 0, atol: testCase.atol ?? 0 });
  const error = `max error ${result.maxError.toExponential(2)}`;
  return { pass: result.ok, detail: result.ok ? error : `${result.problem} (${error})` };
}

// check takes a fixture folder; a file or a missing path is a usage mistake.
async function requireFolder(dir) {
  const found = await stat(dir).catch(() => null);
  if (found?.isDirectory()) return;
  const what = found ? `${dir} is a file` : `${dir} does not exist`;
  const hint = found ? `; to run one program, use pt2web run ${dir}` : '';
  throw new UsageError(`${what}: check takes a folder holding model.pt2 and cases.json${hint}`);
}

/** Runs the command; resolves to the process exit code. */
export async function check(dir, { core = false, threads = 1, memory64 = 'auto' } = {}) {
  await requireFolder(dir);
  const modelPath = join(dir, core ? 'model.core.pt2' : 'model.pt2');
  const casesPath = join(dir, core ? 'cases.core.json' : 'cases.json');
  const { cases } = await readCases(casesPath);
  let program;
  try {
    program = await load(modelPath, { threads, memory64 });
  } catch (error) {
    console.log(`cannot load ${modelPath}: ${formatError(error)}`);
    console.log(`0 passed, ${cases.length} failed`);
    return 1;
  }
  console.log(`${modelPath} (${program.dialect}), ${cases.length} cases`);
  const width = Math.max(...cases.map((c) => c.name.length));
  let passed = 0;
  try {
    for (const testCase of cases) {
      const { pass, detail } = runCase(program, testCase);
      if (pass) passed++;
      console.log(`${testCase.name.padEnd(width)}  ${pass ? 'PASS' : 'FAIL'}  ${detail}`);
    }
  } finally {
    program.dispose();
  }
  const failed = cases.length - passed;
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}
