// `pt2web demo`: the digits demo. Loads the digits_cnn program (a CNN
// trained on scikit-learn's 8x8 handwritten digits), classifies every image
// of its cases and compares each predicted digit with the one torch's logits
// give. The package ships the program and its cases in demo/digits_cnn/
// (copied from the repository's tests/fixtures by prepack.mjs); in the
// repository the fixture itself is used.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { load } from '../index.js';
import { decodeCall, decodeTensor, readCases } from './cases.js';

const FOLDERS = [
  new URL('../../demo/digits_cnn/', import.meta.url),
  new URL('../../../tests/fixtures/digits_cnn/', import.meta.url),
];
const SHADES = ' .:-=+*#%@';

function argmaxRows(data, classes) {
  const rows = [];
  for (let start = 0; start < data.length; start += classes) {
    let best = 0;
    for (let c = 1; c < classes; c++) if (data[start + c] > data[start + best]) best = c;
    rows.push(best);
  }
  return rows;
}

// An 8x8 image (values in [0, 1]) as text, two characters per pixel.
function drawDigit(pixels, offset) {
  const lines = [];
  for (let y = 0; y < 8; y++) {
    let line = '    ';
    for (let x = 0; x < 8; x++) {
      const v = Math.min(1, Math.max(0, pixels[offset + y * 8 + x]));
      const shade = SHADES[Math.round(v * (SHADES.length - 1))];
      line += shade + shade;
    }
    lines.push(line);
  }
  return lines.join('\n');
}

/** Runs the command; resolves to the process exit code. */
export async function demo() {
  const folder = FOLDERS.find((url) => existsSync(new URL('model.pt2', url)));
  if (!folder) {
    console.error(`pt2web demo: the digits program is missing (looked in ${FOLDERS.map((url) => fileURLToPath(url)).join(' and ')}); ` +
      'reinstall the package, or try `pt2web run MODEL.pt2` on a program of your own');
    return 1;
  }
  const modelPath = fileURLToPath(new URL('model.pt2', folder));
  const { description, cases } = await readCases(fileURLToPath(new URL('cases.json', folder)));
  console.log(`pt2web demo: ${description}`);
  const program = await load(modelPath);
  console.log(`loaded ${modelPath} (${program.dialect} dialect, ${program.operators.length} operators)\n`);
  let total = 0;
  let agree = 0;
  try {
    for (const testCase of cases) {
      if (!testCase.expected) continue;
      const { args, kwargs } = decodeCall(testCase);
      const logits = program.run(args, kwargs);
      const predicted = argmaxRows(logits.data, logits.shape[1]);
      const expected = argmaxRows(decodeTensor(testCase.expected.tensor).data, logits.shape[1]);
      const matches = predicted.filter((p, i) => p === expected[i]).length;
      total += predicted.length;
      agree += matches;
      if (predicted.length === 1) {
        console.log(`case ${testCase.name}: predicted ${predicted[0]}, expected ${expected[0]}  ${matches ? 'ok' : 'MISMATCH'}`);
        console.log(drawDigit(args[0].data, 0));
      } else {
        console.log(`case ${testCase.name}: ${matches}/${predicted.length} predictions match`);
        console.log(`    predicted ${predicted.join(' ')}`);
        console.log(`    expected  ${expected.join(' ')}`);
      }
    }
  } finally {
    program.dispose();
  }
  console.log(`\n${agree} of ${total} predicted digits match torch's`);
  return agree === total ? 0 : 1;
}
