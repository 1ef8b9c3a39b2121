// The packaging test's browser entry: loads the digits model from the page's
// server (public/digits/, copied by Vite) with progress, runs its cases and
// publishes the summary as window.pt2webResult for the test to read.
// ?threads=N asks for N threads (the threaded build where the page is
// cross-origin isolated).

import { Tensor, load } from 'pt2web';

import { checkDigitCases } from './digits_cases.js';

async function main() {
  const progress = [];
  const threads = Number(new URLSearchParams(location.search).get('threads') ?? 1);
  const program = await load('./digits/model.pt2', { onProgress: (p) => progress.push(p), threads });
  try {
    const cases = await (await fetch('./digits/cases.json')).json();
    const summary = checkDigitCases(program, Tensor, cases);
    return {
      ...summary,
      progressEvents: progress.length,
      lastProgress: progress.at(-1),
      dialect: program.dialect,
      threads: program.threads,
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
