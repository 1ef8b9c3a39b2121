// Shared by the packaging test's Node script and browser page: decodes the
// digits_cnn fixture's cases.json (tests/fixtures/README.md) with web APIs
// only, runs every case torch ran on a loaded pt2web program and compares
// the logits with torch's within the case's tolerance. Returns a summary
// {cases, passed, maxError, failures}; failures name the case and element.

const ARRAYS = { float32: Float32Array, float64: Float64Array, int64: BigInt64Array, int32: Int32Array, uint8: Uint8Array };

function decodeTensor(Tensor, { dtype, shape, data }) {
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const ArrayClass = ARRAYS[dtype];
  if (!ArrayClass) throw new Error(`unexpected dtype ${dtype} in the cases`);
  return new Tensor(dtype, new ArrayClass(bytes.buffer), shape);
}

/**
 * Runs the cases that have expected results; program: from pt2web's load()
 * (in a worker or not: run() is awaited).
 */
export async function checkDigitCases(program, Tensor, casesJson) {
  const summary = { cases: 0, passed: 0, maxError: 0, failures: [] };
  for (const testCase of casesJson.cases) {
    if (testCase.expected === undefined) continue;
    summary.cases++;
    const args = testCase.args.tuple.map((value) => decodeTensor(Tensor, value.tensor));
    const got = await program.run(args);
    const want = decodeTensor(Tensor, testCase.expected.tensor);
    let problem = null;
    if (got.dtype !== want.dtype || got.shape.join() !== want.shape.join()) {
      problem = `got ${got.dtype}[${got.shape}], want ${want.dtype}[${want.shape}]`;
    }
    for (let i = 0; !problem && i < want.data.length; i++) {
      const error = Math.abs(got.data[i] - want.data[i]);
      summary.maxError = Math.max(summary.maxError, error);
      if (!(error <= testCase.atol + testCase.rtol * Math.abs(want.data[i]))) {
        problem = `element ${i}: got ${got.data[i]}, want ${want.data[i]}`;
      }
    }
    if (problem) summary.failures.push(`${testCase.name}: ${problem}`);
    else summary.passed++;
  }
  return summary;
}
