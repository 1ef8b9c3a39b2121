// sampleInputs(program): inputs run() accepts, for trying a program out (the
// CLI's `run` and `bench`, the web demo). The archive's example inputs (what
// torch.export was given) when it has them; otherwise, or with
// {random: true}, random values of valid shapes, made by the core
// (src/runtime/random_inputs.h): one value per size symbol inside its range,
// preferring small sizes; floats in [-1, 1), integers in [0, 3], bools
// either; specialized constants get their value. The generator is seeded
// (options.seed, default 0), so results repeat. For a program in a worker
// the result is a Promise, as its methods' are.

import { settle } from './settle.js';

/**
 * Inputs for program.run(...): {args, kwargs, source}, source 'example' (the
 * archive's example inputs) or 'random'.
 * @param {{exampleInputs(): any, randomInputs(seed: number): any}} program a Program
 * @param {{random?: boolean, seed?: number}} [options]
 * @returns {any}
 */
export function sampleInputs(program, { random = false, seed = 0 } = {}) {
  const randomSample = () => settle(program.randomInputs(seed), (inputs) => ({ ...inputs, source: 'random' }));
  if (random) return randomSample();
  return settle(program.exampleInputs(), (example) => (example ? { ...example, source: 'example' } : randomSample()));
}
