// `pt2web decompose IN.pt2 OUT.pt2 [--preserve op,...]`: writes IN's
// program after ExportedProgram.run_decompositions() (Program.
// runDecompositions), as torch.export.save would write it, and prints what
// changed: the dialect and the operators before and after.

import { writeFile } from 'node:fs/promises';

import { load } from '../index.js';

function operatorList(program) {
  return program.operators.map(({ target, count }) => `${target.replace(/^torch\.ops\./, '')} x${count}`).join(', ');
}

/**
 * Runs the command; resolves to the process exit code.
 * @param {string} input the .pt2 to read
 * @param {string} output where to write the decomposed .pt2
 * @param {{preserve?: string}} options preserve: operator names, comma-separated
 */
export async function decompose(input, output, { preserve } = {}) {
  const names = preserve ? preserve.split(',').map((name) => name.trim()).filter(Boolean) : [];
  const program = await load(input);
  try {
    const decomposed = program.runDecompositions({ preserve: names });
    try {
      await writeFile(output, decomposed.save());
      console.log(`${input} (${program.dialect}): ${operatorList(program)}`);
      console.log(`${output} (${decomposed.dialect}): ${operatorList(decomposed)}`);
    } finally {
      decomposed.dispose();
    }
  } finally {
    program.dispose();
  }
  return 0;
}
