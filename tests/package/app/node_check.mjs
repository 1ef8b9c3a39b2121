// The packaging test's Node check, run inside a fresh project where the
// packed tarball is installed: imports pt2web by its package name, loads
// DIR/model.pt2 by path, runs DIR/cases.json and prints a JSON summary.
// Exit code 0 when every case matches torch. With --worker the program
// runs in a worker thread (load(path, {worker: true})).

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { Tensor, heapStats, load } from 'pt2web';

import { checkDigitCases } from './digits_cases.js';

const [dir, mode] = process.argv.slice(2);
const program = await load(join(dir, 'model.pt2'), { worker: mode === '--worker' });
const summary = await checkDigitCases(program, Tensor, JSON.parse(await readFile(join(dir, 'cases.json'), 'utf8')));
program.dispose();
summary.heapInUse = (await heapStats()).inUse;
console.log(JSON.stringify(summary));
process.exitCode = summary.cases > 0 && summary.failures.length === 0 ? 0 : 1;
