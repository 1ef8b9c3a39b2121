// The "Write like the GPL" card: a character-level language model (a tiny
// Llama trained for a minute on the GNU GPL text that Debian ships;
// tools/torch/train_char_decoder.py) continues the visitor's prompt, each
// character shown as it is chosen. The program is a decode step exported
// with transformers' static cache; the page uses the package's own loop
// (program.generateTokens) in a worker, so the page keeps drawing while it
// writes, and Stop cancels it through an AbortSignal.

import { load } from 'pt2web';

import { byId } from './dom.js';

const MODEL_URL = 'models/generate/char_decoder.pt2';
const VOCAB_URL = 'models/generate/char_decoder.json';

export async function setupGenerateCard() {
  const card = byId('generate-card');
  const prompt = byId('generate-prompt');
  const output = byId('generate-output');
  const start = byId('generate-start');
  const stop = byId('generate-stop');
  const sample = byId('generate-sample');
  const status = byId('generate-status');
  let controller = null;

  status.textContent = 'Loading the model…';
  let program;
  let chars;
  try {
    [program, { chars }] = await Promise.all([
      load(MODEL_URL, { label: 'char_decoder.pt2', worker: true }),
      fetch(VOCAB_URL).then((response) => response.json()),
    ]);
  } catch (error) {
    status.textContent = `Could not load the text model: ${error.message}`;
    status.classList.add('error-text');
    card.dataset.ready = 'failed';
    return;
  }
  const index = new Map(chars.map((c, i) => [c, i]));

  const write = async () => {
    const text = prompt.value;
    const unknown = [...text].filter((c) => !index.has(c));
    if (text.length === 0 || unknown.length) {
      status.textContent = text.length === 0 ? 'Type a few words first.' : `The model does not know ${JSON.stringify(unknown[0])}.`;
      return;
    }
    controller = new AbortController();
    start.disabled = true;
    stop.disabled = false;
    output.textContent = text;
    card.dataset.state = 'writing';
    const begun = performance.now();
    let made = 0;
    try {
      const options = { maxNewTokens: 200, signal: controller.signal, ...(sample.checked ? { sample: true, temperature: 0.8, topK: 20, seed: Date.now() % 2 ** 32 } : {}) };
      for await (const id of program.generateTokens([...text].map((c) => index.get(c)), options)) {
        output.textContent += chars[id];
        made += 1;
      }
      const seconds = (performance.now() - begun) / 1000;
      status.textContent = `${made} characters in ${seconds.toFixed(2)} s (${(made / seconds).toFixed(0)} per second).`;
    } catch (error) {
      status.textContent = error.name === 'AbortError' ? `Stopped after ${made} characters.` : `Could not write: ${error.message}`;
    } finally {
      start.disabled = false;
      stop.disabled = true;
      controller = null;
      card.dataset.state = 'done';
    }
  };

  start.addEventListener('click', write);
  stop.addEventListener('click', () => controller?.abort());
  start.disabled = false;
  status.textContent = 'Ready: write a prompt and press Write.';
  card.dataset.ready = 'true';
}
