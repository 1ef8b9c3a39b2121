#!/usr/bin/env node
// The pt2web command line: info, check and demo (see usage below).

import { check } from '../src/cli/check.js';
import { demo } from '../src/cli/demo.js';
import { info } from '../src/cli/info.js';
import { Pt2webError } from '../src/errors.js';

const USAGE = `usage: pt2web COMMAND

  info MODEL.pt2 [--json]   archive, schema, dialect, inputs and outputs, graph
                            signature, state sizes and every operator (supported?)
  check DIR [--core]        run DIR/cases.json on DIR/model.pt2 (--core: the
                            cases.core.json / model.core.pt2 pair) and compare
  demo                      classify the bundled 8x8 digits with digits_cnn`;

async function main(argv) {
  const [command, ...rest] = argv;
  const flags = new Set(rest.filter((a) => a.startsWith('--')));
  const positional = rest.filter((a) => !a.startsWith('--'));
  const known = { info: ['--json'], check: ['--core'], demo: [] };
  if (!(command in known)) {
    console.error(command && command !== '--help' && command !== '-h' ? `unknown command '${command}'\n\n${USAGE}` : USAGE);
    return command === '--help' || command === '-h' ? 0 : 2;
  }
  const unknownFlag = [...flags].find((f) => !known[command].includes(f));
  const wantsPath = command !== 'demo';
  if (unknownFlag || positional.length !== (wantsPath ? 1 : 0)) {
    console.error(USAGE);
    return 2;
  }
  if (command === 'info') return info(positional[0], { json: flags.has('--json') });
  if (command === 'check') return check(positional[0], { core: flags.has('--core') });
  return demo();
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  const code = error instanceof Pt2webError ? `${error.code}: ` : '';
  console.error(`pt2web: ${code}${error.message}`);
  process.exitCode = 1;
}
