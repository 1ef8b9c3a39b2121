// sampleInputs(program): inputs run() accepts, for trying a program out (the
// CLI's `run` and `bench`, the web demo). The archive's example inputs (what
// torch.export was given) when it has them; otherwise, or with
// {random: true}, random values of valid shapes:
//   - every symbolic size gets one value inside its range (the same value
//     wherever the symbol appears), preferring small sizes: a uniform pick in
//     [min, min(max, max(min, 8))];
//   - floats are uniform in [-1, 1), integers in [0, 3] (small enough to be
//     valid indices for embeddings and gathers), bools either;
//   - specialized constants get their value; symbolic int inputs a value in range.
// The generator is seeded (options.seed, default 0), so results repeat.
//
// Errors: a program whose input paths or size expressions cannot be read
// throws a BadInputError naming them.

import { BadInputError } from './errors.js';
import { numberToBfloat16, numberToFloat16 } from './half.js';
import { assembleInputs } from './pytree_path.js';
import { randomInteger, seededRandom } from './random.js';
import { evaluateSize, sizeSymbols } from './size_expr.js';
import { Tensor, arrayClassOf } from './tensor.js';
import { float } from './values.js';

const SMALL_SIZE = 8;
const FLOAT_FILLERS = {
  float32: (x) => x,
  float64: (x) => x,
  complex64: (x) => x,
  complex128: (x) => x,
  float16: numberToFloat16,
  bfloat16: numberToBfloat16,
};

// One value per symbol, inside its range.
function chooseSymbols(inputs, random) {
  const ranges = {};
  for (const input of inputs) Object.assign(ranges, input.ranges ?? {});
  const values = {};
  for (const [symbol, [min, max]] of Object.entries(ranges)) {
    const low = min ?? 2;
    const high = Math.min(max ?? Infinity, Math.max(low, SMALL_SIZE));
    values[symbol] = randomInteger(random, low, high);
  }
  return values;
}

function randomTensor(input, sizes, random) {
  const shape = input.shape.map((size) => evaluateSize(size, sizes));
  const count = shape.reduce((a, b) => a * b, 1);
  const lanes = input.dtype === 'complex64' || input.dtype === 'complex128' ? 2 : 1;
  const ArrayClass = arrayClassOf(input.dtype);
  const data = new ArrayClass(count * lanes);
  const encodeFloat = FLOAT_FILLERS[input.dtype];
  for (let i = 0; i < data.length; i++) {
    if (encodeFloat) data[i] = encodeFloat(random() * 2 - 1);
    else if (input.dtype === 'bool') data[i] = random() < 0.5 ? 1 : 0;
    else if (ArrayClass === BigInt64Array || ArrayClass === BigUint64Array) data[i] = BigInt(randomInteger(random, 0, 3));
    else data[i] = randomInteger(random, 0, 3);
  }
  return new Tensor(input.dtype, data, shape);
}

function constantValue(input) {
  const special = { inf: Infinity, '-inf': -Infinity, nan: NaN };
  if (input.type === 'float') return float(typeof input.value === 'string' ? special[input.value] : input.value);
  return input.value;
}

function symbolicScalar(input, sizes, random) {
  if (input.kind === 'bool') return random() < 0.5;
  if (input.kind === 'float') return random() * 2 - 1;
  if (input.symbol !== undefined && sizeSymbols(input.symbol).every((s) => s in sizes)) {
    return evaluateSize(input.symbol, sizes);
  }
  return randomInteger(random, 0, 3);
}

function randomValue(input, sizes, random) {
  if (input.kind === 'tensor') {
    if (!input.dtype || !input.shape) throw new BadInputError(`input ${input.path} has no recorded dtype or shape`);
    return randomTensor(input, sizes, random);
  }
  if (input.kind === 'constant') return constantValue(input);
  if (input.kind === 'int' || input.kind === 'float' || input.kind === 'bool') return symbolicScalar(input, sizes, random);
  throw new BadInputError(`cannot make a random value for input ${input.path} of kind ${input.kind}`);
}

/**
 * Random inputs of valid shapes from a list of input descriptions
 * (program.inputs).
 * @returns {{args: any[], kwargs: object}}
 */
export function randomInputs(inputs, { seed = 0 } = {}) {
  const random = seededRandom(seed);
  const sizes = chooseSymbols(inputs, random);
  return assembleInputs(inputs.map((input) => [input.path, randomValue(input, sizes, random)]));
}

/**
 * Inputs for program.run(...): {args, kwargs, source}, source 'example' (the
 * archive's example inputs) or 'random'.
 * @param {import('./program.js').Program} program
 * @param {{random?: boolean, seed?: number}} [options]
 */
export function sampleInputs(program, { random = false, seed = 0 } = {}) {
  if (!random) {
    const example = program.exampleInputs();
    if (example) return { ...example, source: 'example' };
  }
  return { ...randomInputs(program.inputs, { seed }), source: 'random' };
}
