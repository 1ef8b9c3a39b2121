// A program whose weights fill the wasm heap, for the tests of large heaps
// (big_heap.test.mjs, memory64.test.mjs): one aten.mv node over a
// [BALLAST_ROWS, BALLAST_K] float32 weight of ones (614 MB), written with the
// benchmark's .pt2 writer (tests/bench/kernels/pt2_writer.mjs). Its product
// with a vector of ones is BALLAST_K in every element.

import { arg, writeSingleNodePt2 } from '../bench/kernels/pt2_writer.mjs';

export const BALLAST_K = 4096;
export const BALLAST_ROWS = 37_500;

/** The ballast program's .pt2 bytes. */
export function ballastProgram() {
  return writeSingleNodePt2({
    target: 'torch.ops.aten.mv.default',
    input: { name: 'x', shape: [BALLAST_K] },
    parameters: [{
      fqn: 'weight', placeholder: 'p_weight', shape: [BALLAST_ROWS, BALLAST_K],
      data: new Float32Array(BALLAST_ROWS * BALLAST_K).fill(1),
    }],
    nodeInputs: [
      { name: 'self', arg: arg.tensor('p_weight') },
      { name: 'vec', arg: arg.tensor('x') },
    ],
    output: { name: 'y', shape: [BALLAST_ROWS] },
  });
}
