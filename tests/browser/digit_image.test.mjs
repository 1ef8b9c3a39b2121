// The drawing-to-8x8 reduction of the demo (web/js/digit-image.js) fed to
// the real digits_cnn program: hand-made strokes of digits, drawn at
// different sizes, slants and aspect ratios, must be classified as the
// digit they show. Runs in Node (no browser), through the npm package.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { load, Tensor } from '../../npm/src/index.js';
import { BITMAP, GRID, fitStrokes, poolBitmap, rasterize, strokesToDigit } from '../../web/js/digit-image.js';
import { DIGIT_STROKES } from './support/digit-strokes.mjs';

const MODEL = fileURLToPath(new URL('../fixtures/digits_cnn/model.pt2', import.meta.url));
let program;

before(async () => {
  program = await load(MODEL);
});

after(() => program?.dispose());

function classify(image) {
  const logits = program.run([new Tensor('float32', image, [1, 1, GRID, GRID])]).data;
  return logits.indexOf(Math.max(...logits));
}

// Strokes of the unit box mapped to a drawing of the given size, slanted.
function drawn(strokes, { width, height, slant = 0, x0 = 0, y0 = 0 }) {
  return strokes.map((stroke) =>
    stroke.map(({ x, y }) => ({ x: x0 + (x + slant * (0.5 - y)) * width, y: y0 + y * height })),
  );
}

test('an empty drawing gives no image', () => {
  assert.equal(strokesToDigit([]), null);
  assert.equal(strokesToDigit([[]]), null);
});

test('the image holds ink fractions of 4x4 blocks of a 32x32 bitmap, as scikit-learn digits do', () => {
  const bitmap = new Uint8Array(BITMAP * BITMAP);
  for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) bitmap[i * BITMAP + j] = 1; // block (0, 0) full
  for (let j = 4; j < 8; j++) bitmap[j] = 1; // a quarter of block (0, 1)
  const image = poolBitmap(bitmap);
  assert.equal(image[0], 1);
  assert.equal(image[1], 0.25);
  assert.equal(image.slice(2).reduce((a, b) => a + b, 0), 0);
});

test('a drawing is cropped, scaled to fill the box and centred, whatever its size and place', () => {
  const small = strokesToDigit(drawn(DIGIT_STROKES[7], { width: 40, height: 60, x0: 5, y0: 300 }));
  const large = strokesToDigit(drawn(DIGIT_STROKES[7], { width: 400, height: 600, x0: 900, y0: 0 }));
  assert.deepEqual(Array.from(small), Array.from(large));
  const fitted = fitStrokes(drawn(DIGIT_STROKES[1], { width: 10, height: 300 }));
  const ys = fitted.flat().map((p) => p.y);
  const xs = fitted.flat().map((p) => p.x);
  assert.ok(Math.min(...ys) > 0 && Math.max(...ys) < BITMAP, 'the tall side fits the bitmap');
  assert.ok(Math.max(...ys) - Math.min(...ys) > BITMAP * 0.75, 'the tall side fills most of it');
  assert.ok(Math.abs((Math.min(...xs) + Math.max(...xs)) / 2 - BITMAP / 2) < 1e-9, 'a thin drawing is centred');
});

test('a dot is not blown up to fill the box when minExtent is given', () => {
  const image = strokesToDigit([[{ x: 50, y: 50 }]], { minExtent: 100 });
  const inked = image.filter((v) => v > 0).length;
  assert.ok(inked > 0 && inked <= 4, `a dot inks a few pixels, not ${inked}`);
  assert.equal(rasterize([]).reduce((a, b) => a + b, 0), 0);
});

for (const [digit, strokes] of Object.entries(DIGIT_STROKES)) {
  test(`hand-drawn ${digit}s are classified as ${digit}`, () => {
    const variants = [
      { width: 300, height: 300 },
      { width: 220, height: 300 },
      { width: 90, height: 140, slant: 0.15 },
      { width: 260, height: 240, slant: -0.12 },
    ];
    for (const variant of variants) {
      const predicted = classify(strokesToDigit(drawn(strokes, variant)));
      assert.equal(predicted, Number(digit), `drawn as ${JSON.stringify(variant)}`);
    }
  });
}
