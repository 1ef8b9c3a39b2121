// Golden values for the browser tests: what torch computed, read from a
// fixture's cases.json (tensors are base64, little-endian, C-contiguous).

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { REPO } from './browser.mjs';

const DECODERS = {
  float32: (buffer) => Array.from(new Float32Array(buffer)),
  float64: (buffer) => Array.from(new Float64Array(buffer)),
  int64: (buffer) => Array.from(new BigInt64Array(buffer), Number),
  int32: (buffer) => Array.from(new Int32Array(buffer)),
};

function decodeTensor({ dtype, shape, data }) {
  const decode = DECODERS[dtype];
  if (!decode) throw new Error(`golden.mjs cannot decode ${dtype} tensors`);
  const bytes = Buffer.from(data, 'base64');
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  return { dtype, shape, values: decode(buffer) };
}

/**
 * A case of tests/fixtures/FIXTURE/cases.json whose first argument and
 * expected result are single tensors: {input, expected, rtol, atol}.
 */
export async function goldenCase(fixture, name) {
  const file = JSON.parse(await readFile(join(REPO, 'tests', 'fixtures', fixture, 'cases.json'), 'utf8'));
  const found = file.cases.find((c) => c.name === name);
  if (!found?.expected?.tensor) throw new Error(`${fixture}/cases.json has no tensor case '${name}'`);
  return {
    input: decodeTensor(found.args.tuple[0].tensor),
    expected: decodeTensor(found.expected.tensor),
    rtol: found.rtol ?? 0,
    atol: found.atol ?? 0,
  };
}

/** Parses the values the page shows: "[0.5, -1.25e-3, …]" -> [0.5, -0.00125]. */
export function shownValues(text) {
  return text
    .replace(/[[\]…]/g, '')
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean)
    .map(Number);
}

/**
 * Asserts shown (rounded to 4 significant digits by the page) matches want
 * within the case's tolerance plus that rounding.
 */
export function assertClose(shown, want, { rtol, atol }, what) {
  if (shown.length !== want.length) throw new Error(`${what}: ${shown.length} values shown, expected ${want.length}`);
  shown.forEach((got, i) => {
    const bound = atol + rtol * Math.abs(want[i]) + 5e-4 * Math.abs(want[i]) + 1e-12;
    if (!(Math.abs(got - want[i]) <= bound)) {
      throw new Error(`${what}[${i}]: the page shows ${got}, torch computed ${want[i]} (allowed difference ${bound})`);
    }
  });
}
