#!/usr/bin/env node
// The pt2web command line: info, run, check, bench, decompose and demo (usage below;
// `pt2web COMMAND --help` prints one command's). Help asked for goes to
// stdout; usage printed because of a mistake goes to stderr.
// Exit codes: 0 success, 1 failure (a pt2web error, failed cases), 2 bad usage.

import { readFileSync } from 'node:fs';

import { UsageError, integerOption, parseArgs } from '../src/cli/args.js';
import { bench } from '../src/cli/bench.js';
import { check } from '../src/cli/check.js';
import { decompose } from '../src/cli/decompose.js';
import { demo } from '../src/cli/demo.js';
import { info } from '../src/cli/info.js';
import { run } from '../src/cli/run.js';
import { Pt2webError } from '../src/errors.js';

const THREADS_HELP = '--threads N: threads a run may use (default 1; the threaded build)';
const INPUT_VALUES = ['cases', 'case', 'seed', 'threads'];

function inputChoice(args) {
  return {
    cases: args.values.get('cases'),
    caseName: args.values.get('case'),
    random: args.flags.has('random'),
    seed: integerOption(args.values, 'seed', 0),
    threads: integerOption(args.values, 'threads', 1, 1),
  };
}

const COMMANDS = {
  info: {
    synopsis: 'info MODEL.pt2 [--json]',
    help: `archive, schema, dialect, inputs and outputs, graph signature, state
sizes, every operator (supported?) and the planned activation memory
of one run; --json prints the description as JSON`,
    spec: { positional: 1, flags: ['json'] },
    start: (a) => info(a.positional[0], { json: a.flags.has('json') }),
  },
  run: {
    synopsis: 'run MODEL.pt2 [--cases FILE [--case NAME]] [--random] [--seed N] [--threads N] [--json] [--out FILE]',
    help: `run on the cases of a cases.json file (those torch ran, in order), or
on the archive's example inputs, or on random inputs of valid shapes
(--random, or when the archive has no example inputs); print the
outputs, or write them as JSON (--out)
${THREADS_HELP}`,
    spec: { positional: 1, flags: ['json', 'random'], values: [...INPUT_VALUES, 'out'] },
    start: (a) => run(a.positional[0], { ...inputChoice(a), json: a.flags.has('json'), out: a.values.get('out') }),
  },
  check: {
    synopsis: 'check DIR [--core] [--threads N]',
    help: `run DIR/cases.json on DIR/model.pt2 (--core: cases.core.json on
model.core.pt2) and compare with torch's results; DIR is a folder
in the format of the repository's tests/fixtures
${THREADS_HELP}`,
    spec: { positional: 1, flags: ['core'], values: ['threads'] },
    start: (a) => check(a.positional[0], { core: a.flags.has('core'), threads: integerOption(a.values, 'threads', 1, 1) }),
  },
  bench: {
    synopsis: 'bench MODEL.pt2 [--cases FILE [--case NAME]] [--random] [--seed N] [--threads N] [--warmup N] [--runs N] [--json]',
    help: `time load and run (median and spread over --runs, default 30, after
--warmup runs, default 5) on one input chosen as for run
${THREADS_HELP}`,
    spec: { positional: 1, flags: ['json', 'random'], values: [...INPUT_VALUES, 'warmup', 'runs'] },
    start: (a) => bench(a.positional[0], {
      ...inputChoice(a),
      warmup: integerOption(a.values, 'warmup', 5),
      runs: integerOption(a.values, 'runs', 30, 1),
      json: a.flags.has('json'),
    }),
  },
  decompose: {
    synopsis: 'decompose IN.pt2 OUT.pt2 [--preserve OP,...]',
    help: `write IN's program after run_decompositions() (Core ATen, dialect
ATEN) to OUT, as torch.export.save writes it; --preserve keeps the
operators named (e.g. aten.linear.default) as they are`,
    spec: { positional: 2, values: ['preserve'] },
    start: (a) => decompose(a.positional[0], a.positional[1], { preserve: a.values.get('preserve') }),
  },
  demo: {
    synopsis: 'demo',
    help: 'classify 8x8 handwritten digits with the small CNN that ships with the package',
    spec: { positional: 0 },
    start: () => demo(),
  },
};

const indent = (text, by) => text.split('\n').map((line) => `${by}${line}`).join('\n');

function commandUsage(name) {
  const { synopsis, help } = COMMANDS[name];
  return `usage: pt2web ${synopsis}\n\n${indent(help, '  ')}`;
}

const USAGE = `usage: pt2web COMMAND ...   (pt2web COMMAND --help: one command's usage)

${Object.values(COMMANDS).map(({ synopsis, help }) => `  ${synopsis}\n${indent(help, '      ')}`).join('\n')}

  --version: the version of pt2web`;

function version() {
  const { version: number } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  return number;
}

const wantsHelp = (arg) => arg === '--help' || arg === '-h';

async function main(argv) {
  const [name, ...rest] = argv;
  if (name === undefined) {
    console.error(USAGE);
    return 2;
  }
  if (wantsHelp(name) || name === 'help') {
    const topic = name === 'help' ? rest[0] : undefined;
    console.log(topic in COMMANDS ? commandUsage(topic) : USAGE);
    return 0;
  }
  if (name === '--version' || name === '-V') {
    console.log(version());
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    console.error(`pt2web: unknown command '${name}'\n\n${USAGE}`);
    return 2;
  }
  if (rest.some(wantsHelp)) {
    console.log(commandUsage(name));
    return 0;
  }
  try {
    return await command.start(parseArgs(rest, command.spec));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`pt2web ${name}: ${error.message}\n\n${commandUsage(name)}`);
    return 2;
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  const code = error instanceof Pt2webError ? `${error.code}: ` : '';
  console.error(`pt2web: ${code}${error.message}`);
  process.exitCode = 1;
}
