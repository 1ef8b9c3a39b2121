// Checks that both runtimes computed the same thing on the benchmark
// inputs (a guard against mixed-up inputs, not a numerics test: the
// fixtures' cases.json tests do that). Outputs are paired in order; where
// the ONNX exporter ordered them differently, an output is paired with the
// first unused one of the same shape.

function sameShape(a, b) {
  return a.length === b.length && a.every((d, i) => d === b[i]);
}

/**
 * @param {Array<{shape, data}>} ours pt2web's flattened outputs
 * @param {Array<{shape, data}>} theirs onnxruntime-web's outputs
 * @returns {{maxAbsDiff: number, maxAbs: number, paired: number, problem: string|null}}
 *   maxAbs: the largest |value| in their outputs, to judge maxAbsDiff against
 */
export function compareOutputs(ours, theirs) {
  const used = new Set();
  let maxAbsDiff = 0;
  let maxAbs = 0;
  let paired = 0;
  const unmatched = [];
  ours.forEach((out, i) => {
    let j = i < theirs.length && !used.has(i) && sameShape(out.shape, theirs[i].shape) ? i : -1;
    if (j < 0) j = theirs.findIndex((t, k) => !used.has(k) && sameShape(out.shape, t.shape));
    if (j < 0) {
      unmatched.push(`output ${i} [${out.shape.join(', ')}]`);
      return;
    }
    used.add(j);
    paired++;
    const a = out.data;
    const b = theirs[j].data;
    for (let k = 0; k < a.length; k++) {
      const x = Number(a[k]);
      const y = Number(b[k]);
      const d = Math.abs(x - y);
      if (Number.isNaN(d)) maxAbsDiff = Number.isNaN(x) && Number.isNaN(y) ? maxAbsDiff : Infinity;
      else if (d > maxAbsDiff) maxAbsDiff = d;
      if (Math.abs(y) > maxAbs) maxAbs = Math.abs(y);
    }
  });
  let problem = null;
  if (unmatched.length) problem = `no onnxruntime-web output of the same shape for ${unmatched.join(', ')}`;
  else if (ours.length !== theirs.length) problem = `pt2web gave ${ours.length} outputs, onnxruntime-web ${theirs.length}`;
  return { maxAbsDiff, maxAbs, paired, problem };
}

/**
 * The comparison of a job's first outputs, or null when the job does not
 * compare them or either runtime has none.
 */
export function outputCheck(job, ours, theirs) {
  return job.compareOutputs !== false && ours && theirs ? compareOutputs(ours, theirs) : null;
}
