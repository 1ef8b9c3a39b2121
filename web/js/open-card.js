// The "Open any .pt2" card: a file picker, drag and drop, and sample
// programs; a progress bar while the file is read and prepared; the
// program's description; runs on its example inputs or on random inputs
// with outputs and a time profile; a readable error (with whatever the
// file could still tell) when it cannot be opened. What appears is scrolled
// into view; a new Threads choice reopens the program at once. All the work happens in
// the package's worker mode (program-runs.js), so the page stays responsive;
// a program whose worker failed is dropped, and the next open starts afresh.

import { byId, h, replaceChildren } from './dom.js';
import { formatBytes } from './format.js';
import { imageInputOf, imageTensor } from './image-input.js';
import { programView } from './program-view.js';
import { resultsView } from './results-view.js';
import { openProgram, runProgram } from './program-runs.js';

const CODE_TITLES = {
  BAD_FILE: 'This file is not a readable .pt2 archive',
  UNSUPPORTED: 'This program uses something pt2web does not support yet',
  BAD_PROGRAM: 'This program is inconsistent',
  OUT_OF_MEMORY: 'This program needs more memory than this page can have',
  BAD_INPUT: 'The inputs do not fit the program',
  INTERNAL: 'pt2web failed (a bug; the page has recovered)',
};

// Scrolls what just appeared into view (smoothly, unless the visitor asked
// for reduced motion).
function reveal(element) {
  const reduced = globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
  element.scrollIntoView({ block: 'start', behavior: reduced ? 'auto' : 'smooth' });
}

export function setupOpenCard() {
  const card = byId('open-card');
  const input = byId('file-input');
  const drop = byId('drop-zone');
  const progress = byId('progress');
  const progressBar = byId('progress-bar');
  const progressText = byId('progress-text');
  const errorBox = byId('open-error');
  const programBox = byId('program');
  const runBar = byId('run-bar');
  const runExample = byId('run-example');
  const runRandom = byId('run-random');
  const runImage = byId('run-image');
  const runImageLabel = byId('run-image-label');
  const results = byId('results');
  const threadsChoice = byId('threads');
  if (globalThis.crossOriginIsolated !== true) {
    byId('threads-note').textContent = 'this page is not cross-origin isolated, so programs run on 1 thread';
  }
  let busy = false;
  let opened = null;

  const setBusy = (value) => {
    busy = value;
    card.classList.toggle('busy', value);
    for (const button of card.querySelectorAll('button.needs-idle')) button.disabled = value;
    input.disabled = value;
    threadsChoice.disabled = value;
    drop.classList.toggle('disabled', value);
    runExample.disabled = value || !opened?.hasExample;
    runRandom.disabled = value || !opened;
    runImage.disabled = value || !opened?.image;
  };

  const showProgress = ({ stage, loaded, total }, name) => {
    progress.hidden = false;
    if (stage === 'read') {
      if (total > 0) progressBar.value = loaded / total;
      else progressBar.removeAttribute('value');
      progressText.textContent = `Reading ${name}: ${formatBytes(loaded)}${total > 0 ? ` of ${formatBytes(total)}` : ''}`;
    } else if (stage === 'prepare') {
      progressBar.removeAttribute('value');
      progressText.textContent = `Preparing ${name} (${formatBytes(total)}): checking the program, resolving operators, planning memory…`;
    } else if (stage === 'run') {
      progressBar.removeAttribute('value');
      progressText.textContent = `Running ${name}…`;
    }
  };

  const showError = (error, context) => {
    const title = CODE_TITLES[error.code] ?? 'Something went wrong';
    replaceChildren(
      errorBox,
      h('strong', { class: 'error-title' }, `${title}.`),
      h('p', { class: 'error-message', id: 'error-message' }, `${context}: ${error.message}`),
      error.code ? h('span', { class: 'error-code' }, error.code) : null,
    );
    errorBox.hidden = false;
    errorBox.dataset.code = error.code ?? '';
  };

  const open = async (source, name) => {
    if (busy) return;
    setBusy(true);
    errorBox.hidden = true;
    programBox.hidden = true;
    runBar.hidden = true;
    runImageLabel.hidden = true;
    results.replaceChildren();
    opened?.program.dispose();
    opened = null;
    card.dataset.state = 'loading';
    try {
      showProgress({ stage: 'read', loaded: 0, total: source.size ?? 0 }, name);
      const threads = Number(threadsChoice.value);
      const result = await openProgram(source, name, threads, (message) => showProgress(message, name));
      opened = { ...result, name };
      replaceChildren(programBox, programView(result.description, {
        name,
        bytes: result.bytes,
        loadMs: result.loadMs,
        threads: result.threads,
        runnable: true,
      }));
      programBox.hidden = false;
      runBar.hidden = false;
      card.dataset.state = 'opened';
      opened.source = source;
      opened.image = imageInputOf(result.description);
      runImageLabel.hidden = !opened.image;
      if (opened.image) runImageLabel.title = `scaled to ${opened.image.height} x ${opened.image.width}, values in [0, 1]`;
      progress.hidden = true; // before scrolling: hiding it later would move what was scrolled to
      reveal(programBox);
    } catch (error) {
      showError(error, `could not open ${name}`);
      if (error.description) {
        replaceChildren(programBox, programView(error.description, { name, bytes: source instanceof Blob ? source.size : undefined }));
        programBox.hidden = false;
      }
      card.dataset.state = 'error';
    } finally {
      progress.hidden = true;
      setBusy(false);
    }
  };

  const run = async (mode, file) => {
    if (busy || !opened) return;
    setBusy(true);
    errorBox.hidden = true;
    card.dataset.state = 'running';
    showProgress({ stage: 'run' }, opened.name);
    try {
      const extra = file ? { image: await imageTensor(file, opened.image), path: opened.image.path } : {};
      const result = await runProgram(opened.program, mode, extra);
      replaceChildren(results, resultsView(result));
      card.dataset.state = 'ran';
      progress.hidden = true; // before scrolling, as in open()
      reveal(results);
    } catch (error) {
      showError(error, `could not run ${opened.name}`);
      card.dataset.state = 'run-error';
      if (error.code === 'INTERNAL') {
        // The program's worker stopped (or pt2web failed): drop it; opening starts a fresh one.
        opened.program.dispose();
        opened = null;
      }
    } finally {
      progress.hidden = true;
      setBusy(false);
    }
  };

  const openFiles = (files) => {
    const file = files?.[0];
    if (file) open(file, file.name);
  };

  // A new thread count applies at once: the opened program is opened again with it.
  threadsChoice.addEventListener('change', () => {
    if (opened?.source) open(opened.source, opened.name);
  });

  input.addEventListener('change', () => {
    openFiles(input.files);
    input.value = '';
  });
  runExample.addEventListener('click', () => run('example'));
  runRandom.addEventListener('click', () => run('random'));
  runImage.addEventListener('change', () => {
    const file = runImage.files?.[0];
    runImage.value = '';
    if (file) run('image', file);
  });

  // Files can be dropped anywhere on the card; the zone lights up meanwhile.
  for (const type of ['dragenter', 'dragover']) {
    card.addEventListener(type, (event) => {
      event.preventDefault();
      drop.classList.add('dragging');
    });
  }
  card.addEventListener('dragleave', (event) => {
    if (!card.contains(event.relatedTarget)) drop.classList.remove('dragging');
  });
  card.addEventListener('drop', (event) => {
    event.preventDefault();
    drop.classList.remove('dragging');
    openFiles(event.dataTransfer?.files);
  });
  // A file dropped elsewhere should not make the browser navigate away from the page.
  window.addEventListener('dragover', (event) => event.preventDefault());
  window.addEventListener('drop', (event) => event.preventDefault());

  loadSamples(byId('samples'), (sample) => open(new URL(sample.url, document.baseURI), `${sample.name}.pt2`));
  setBusy(false);
}

// Sample buttons from the server's /models/index.json (absent when the page
// is served without the fixtures: then the row stays hidden).
async function loadSamples(container, onPick) {
  let samples = [];
  try {
    const response = await fetch('models/index.json');
    if (response.ok) samples = await response.json();
  } catch {
    samples = [];
  }
  if (!samples.length) return;
  replaceChildren(
    container,
    h('span', { class: 'samples-label' }, 'or try a sample:'),
    samples.map((sample) =>
      h(
        'button',
        { type: 'button', class: 'sample needs-idle', title: `${sample.about} · ${formatBytes(sample.bytes)}`, dataset: { sample: sample.name }, onclick: () => onPick(sample) },
        sample.title,
      ),
    ),
  );
  container.hidden = false;
}
