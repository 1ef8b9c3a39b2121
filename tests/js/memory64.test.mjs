// The Memory64 build (npm/dist/pt2web-memory64.*): every fixture's cases
// pass in it as in wasm32, a failed run leaves the program usable (the
// bindings' exception path, which clang 19 got wrong at -O2 in wasm64), and a
// heap past 4.5 GiB, which wasm32 cannot address, holds programs that still
// compute the right results. The module choice itself (options.memory64) is
// checked on every engine: 'auto' takes the Memory64 build only for archives
// past 3.5 GiB and only where the engine has it.
//
// The Memory64 build needs an engine with 64-bit memories and tables and the
// JavaScript API that makes them: Node 24 (Node 20 has no Memory64; Node 22
// validates it but lacks 64-bit tables). On other engines the tests that run
// a program in it are skipped, saying so.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';

import { check, runCase } from '../../npm/src/cli/check.js';
import { readCases } from '../../npm/src/cli/cases.js';
import { heapStats, load, wasmFeatures } from '../../npm/src/index.js';
import { AUTO_MEMORY64_BYTES, moduleChoice } from '../../npm/src/module_choice.js';
import { BALLAST_K, BALLAST_ROWS, ballastProgram } from './ballast.mjs';
import { FIXTURES, fixtureNames } from './helpers.mjs';

const HAS_MEMORY64 = wasmFeatures().memory64;
const skip = HAS_MEMORY64 ? false : `this engine (Node ${process.versions.node}) has no Memory64 with 64-bit tables; run under Node 24`;

test('memory64: auto picks the Memory64 build only for large archives where the engine has it', () => {
  assert.equal(moduleChoice({}, 1e6).build, 'single');
  assert.equal(moduleChoice({ memory64: false }, 8 * 2 ** 30).build, 'single');
  const large = moduleChoice({}, AUTO_MEMORY64_BYTES + 1);
  assert.equal(large.build, HAS_MEMORY64 ? 'memory64' : 'single');
  large.module.catch(() => {});
  if (HAS_MEMORY64) {
    const threaded = moduleChoice({ threads: 2 }, 4.4e9);
    assert.equal(threaded.build, 'memory64');
    assert.equal(threaded.threads, 1);
    assert.match(threaded.reason, /needs the Memory64 build, which runs on one thread/);
  }
});

test('memory64: malformed or impossible choices are refused, naming the option', () => {
  assert.throws(() => moduleChoice({ memory64: 'yes' }), { code: 'BAD_INPUT', message: /options\.memory64 must be true, false or 'auto'/ });
  if (HAS_MEMORY64) {
    assert.throws(() => moduleChoice({ memory64: true, threads: 2 }), { code: 'UNSUPPORTED', message: /runs on one thread/ });
  } else {
    assert.throws(() => moduleChoice({ memory64: true }), { code: 'UNSUPPORTED', message: /lacks WebAssembly Memory64/ });
  }
});

for (const name of fixtureNames()) {
  test(`memory64: ${name} matches torch`, { skip }, async () => {
    const { cases } = await readCases(join(FIXTURES, name, 'cases.json'));
    const program = await load(join(FIXTURES, name, 'model.pt2'), { memory64: true });
    try {
      assert.equal(program.memory64, true);
      for (const testCase of cases) {
        const { pass, detail } = runCase(program, testCase);
        assert.ok(pass, `${name} / ${testCase.name}: ${detail}`);
      }
    } finally {
      program.dispose();
    }
  });
}

test('memory64: a rejected run leaves the program usable, five times over', { skip }, async () => {
  const program = await load(join(FIXTURES, 'mlp', 'model.pt2'), { memory64: true });
  try {
    const { cases } = await readCases(join(FIXTURES, 'mlp', 'cases.json'));
    const good = cases.find((c) => c.expected !== undefined);
    for (let round = 0; round < 5; round++) {
      assert.throws(() => program.run([{ dtype: 'float32', shape: [3, 3, 3], data: new Float32Array(27) }]), { code: 'BAD_INPUT' });
      const { pass, detail } = runCase(program, good);
      assert.ok(pass, `round ${round}: ${detail}`);
    }
  } finally {
    program.dispose();
  }
});

test('memory64: the CLI check of a fixture passes in the Memory64 build', { skip }, async () => {
  const lines = [];
  const log = console.log;
  console.log = (line) => lines.push(line);
  let status;
  try {
    status = await check(join(FIXTURES, 'mlp'), { memory64: true });
  } finally {
    console.log = log;
  }
  assert.equal(status, 0, lines.join('\n'));
});

// Ballast programs of 614 MB of weights each (ballast.mjs), as in big_heap.test.mjs.
const K = BALLAST_K;
const ROWS = BALLAST_ROWS;
const PAST = 4.5 * 2 ** 30;

test('memory64: programs run with the heap past 4.5 GiB', { skip }, async () => {
  const bytes = ballastProgram();
  const loaded = [];
  try {
    while ((await heapStats({ memory64: true })).heapSize < PAST) {
      assert.ok(loaded.length < 10, `the heap stayed under 4.5 GiB after ${loaded.length} programs`);
      loaded.push(await load(bytes, { memory64: true, label: `ballast ${loaded.length}` }));
    }
    const y = loaded.at(-1).run([{ dtype: 'float32', shape: [K], data: new Float32Array(K).fill(1) }]);
    assert.equal(y.data.length, ROWS);
    assert.ok(y.data.every((value) => value === K), 'every element of the product of ones is K');
    const mlp = await load(join(FIXTURES, 'mlp', 'model.pt2'), { memory64: true });
    loaded.push(mlp);
    const { cases } = await readCases(join(FIXTURES, 'mlp', 'cases.json'));
    for (const testCase of cases) {
      const { pass, detail } = runCase(mlp, testCase);
      assert.ok(pass, `${testCase.name}: ${detail}`);
    }
  } finally {
    for (const program of loaded) program.dispose();
  }
});
