// Where `run` and `bench` get their inputs: the cases of a cases.json file
// (only those torch ran, i.e. with expected results; all of them in order, or
// the one named), or else sampleInputs(): the archive's example inputs, or
// random inputs of valid shapes (--random, --seed).
//
// Errors: a case name that is not in the file throws a UsageError listing
// the names there.

import { sampleInputs } from '../sample_inputs.js';
import { UsageError } from './args.js';
import { decodeCall, readCases } from './cases.js';

/**
 * The calls to make: [{name, args, kwargs, expected?}, ...] and a description
 * of where they came from.
 * @param {{cases?: string, caseName?: string, random?: boolean, seed?: number}} choice
 */
export async function chooseInputs(program, { cases, caseName, random = false, seed = 0 }) {
  if (cases === undefined) {
    if (caseName !== undefined) throw new UsageError('--case needs --cases FILE');
    const sample = sampleInputs(program, { random, seed });
    const source = sample.source === 'random' ? `random inputs (seed ${seed})` : "the archive's example inputs";
    return { source, calls: [{ name: sample.source, args: sample.args, kwargs: sample.kwargs }] };
  }
  const file = await readCases(cases);
  const ran = file.cases.filter((c) => c.expected !== undefined);
  const chosen = caseName === undefined ? ran : ran.filter((c) => c.name === caseName);
  if (chosen.length === 0) {
    const names = ran.map((c) => c.name).join(', ');
    throw new UsageError(caseName === undefined ? `${cases} has no case with expected results` : `no case '${caseName}' with expected results in ${cases} (cases: ${names})`);
  }
  const calls = chosen.map((c) => ({ name: c.name, ...decodeCall(c), expected: c.expected }));
  return { source: cases, calls };
}
