// The "Draw a digit" card: a drawing pad, the 8x8 image the model sees, and
// the ten class probabilities of the bundled digits_cnn program, updated
// live while the visitor draws. The program is small (a few hundred
// microseconds a run), so it runs here on the page's thread through the
// package's plain API: load() once, run() per change.

import { load, Tensor } from 'pt2web';

import { drawBars } from './bar-chart.js';
import { GRID, strokesToDigit } from './digit-image.js';
import { byId } from './dom.js';
import { DrawingPad } from './drawing-pad.js';
import { formatMs } from './format.js';

const MODEL_URL = 'models/digits_cnn.pt2';
// A drawing smaller than this fraction of the pad is not blown up to full size.
const MIN_EXTENT = 0.2;

function softmax(logits) {
  const max = Math.max(...logits);
  const exps = logits.map((x) => Math.exp(x - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((x) => x / sum);
}

function paintPreview(canvas, image) {
  const context = canvas.getContext('2d');
  const pixels = context.createImageData(GRID, GRID);
  for (let i = 0; i < GRID * GRID; i++) {
    const shade = Math.round(255 * (1 - (image ? image[i] : 0)));
    pixels.data.set([shade, shade, shade, 255], i * 4);
  }
  context.putImageData(pixels, 0, 0);
}

export function setupDrawCard() {
  const card = byId('draw-card');
  const status = byId('draw-status');
  const prediction = byId('prediction');
  const confidence = byId('confidence');
  const bars = byId('probabilities');
  const preview = byId('preview');
  const timing = byId('draw-timing');
  let program = null;

  const showProbabilities = (probabilities) => {
    const best = probabilities ? probabilities.indexOf(Math.max(...probabilities)) : -1;
    drawBars(
      bars,
      Array.from({ length: 10 }, (_, digit) => ({
        label: String(digit),
        value: probabilities ? probabilities[digit] : 0,
        text: probabilities ? `${(probabilities[digit] * 100).toFixed(1)}%` : '',
        highlight: digit === best,
      })),
      { max: 1 },
    );
    prediction.textContent = best >= 0 ? String(best) : '–';
    prediction.dataset.digit = best >= 0 ? String(best) : '';
    confidence.textContent = best >= 0 ? `${(probabilities[best] * 100).toFixed(0)}% sure` : '';
  };

  const classify = (strokes) => {
    const { width, height } = pad.size;
    const image = strokesToDigit(strokes, { minExtent: MIN_EXTENT * Math.min(width, height) });
    paintPreview(preview, image);
    card.classList.toggle('has-drawing', image !== null);
    if (!image || !program) {
      showProbabilities(null);
      timing.textContent = '';
      return;
    }
    try {
      const started = performance.now();
      const logits = program.run([new Tensor('float32', image, [1, 1, GRID, GRID])]);
      const elapsed = performance.now() - started;
      showProbabilities(softmax(Array.from(logits.data)));
      timing.textContent = `inference ${formatMs(elapsed)}`;
    } catch (error) {
      showProbabilities(null);
      timing.textContent = '';
      status.textContent = `Could not classify the drawing: ${error.message}`;
      status.classList.add('error-text');
    }
  };

  const pad = new DrawingPad(byId('pad'), classify);
  byId('clear').addEventListener('click', () => pad.clear());
  showProbabilities(null);
  paintPreview(preview, null);

  status.textContent = 'Loading the model…';
  const started = performance.now();
  return load(MODEL_URL, { label: 'digits_cnn.pt2' }).then(
    (loaded) => {
      program = loaded;
      status.textContent = `digits_cnn loaded in ${formatMs(performance.now() - started)}. Draw a digit from 0 to 9.`;
      card.dataset.ready = 'true';
      classify(pad.strokes);
    },
    (error) => {
      status.textContent = `Could not load the digits model: ${error.message}`;
      status.classList.add('error-text');
      card.dataset.ready = 'failed';
    },
  );
}
