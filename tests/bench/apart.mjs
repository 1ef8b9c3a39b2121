// --apart (run.mjs): the two results of one job run as two processes, one
// per runtime (worker.mjs with `only`), merged into the row that one
// process with both runtimes would have given. What cannot carry over is
// said in the row: `apart: true` (no interleaved timing) and the OS thread
// count of each process.

import { outputCheck } from './compare.mjs';

/**
 * @param job the benchmark job both processes ran
 * @param ours the pt2web-only process's result (with its `apart` extras)
 * @param theirs the onnxruntime-web-only process's result
 * @returns one result, as worker.mjs returns it, plus `apart: true`
 */
export function mergeApart(job, ours, theirs) {
  const { apart: oursApart, ...merged } = ours;
  merged.ort = theirs.ort;
  merged.osThreads = `${ours.osThreads} (pt2web) / ${theirs.osThreads} (onnxruntime-web)`;
  merged.check = outputCheck(job, oursApart.firstOutputs, theirs.apart.firstOutputs);
  merged.apart = true;
  return merged;
}
