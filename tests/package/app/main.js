// The packaging test's browser entry: loads the digits model from the page's
// server (public/digits/, copied by Vite) with progress, runs its cases and
// publishes the summary as window.pt2webResult for the test to read.
// ?threads=N asks for N threads (the threaded build where the page is
// cross-origin isolated); ?worker=1 loads the program in a Web Worker;
// ?cache=1 keeps the model in the Cache API and reports what is cached;
// ?clear=1 only clears that cache.

import { Tensor, cachedModels, clearModelCache, load } from 'pt2web';

import { checkDigitCases } from './digits_cases.js';

async function main() {
  const progress = [];
  const query = new URLSearchParams(location.search);
  const threads = Number(query.get('threads') ?? 1);
  const worker = query.get('worker') === '1';
  const cache = query.get('cache') === '1';
  if (query.get('clear') === '1') return { cleared: await clearModelCache(), cachedAfter: await cachedModels() };
  const program = await load('./digits/model.pt2', { onProgress: (p) => progress.push(p), threads, worker, cache });
  try {
    const cases = await (await fetch('./digits/cases.json')).json();
    const summary = await checkDigitCases(program, Tensor, cases);
    return {
      ...summary,
      progressEvents: progress.length,
      lastProgress: progress.at(-1),
      stages: [...new Set(progress.map((p) => p.stage))],
      cached: cache ? await cachedModels() : undefined,
      dialect: program.dialect,
      threads: program.threads,
      threadsReason: program.threadsReason,
      worker: program.inWorker,
      isolated: globalThis.crossOriginIsolated === true,
    };
  } finally {
    program.dispose();
  }
}

const status = document.getElementById('status');
main().then(
  (result) => {
    window.pt2webResult = result;
    status.textContent = JSON.stringify(result, null, 2);
  },
  (error) => {
    window.pt2webResult = { error: `${error.name}: ${error.message}` };
    status.textContent = window.pt2webResult.error;
  },
);
