// Memory: 200 cycles of load, run and dispose bring the wasm heap back to
// its baseline exactly. heapStats().inUse is malloc's count of bytes handed
// out and not freed. The baseline is taken after one warm-up cycle, because
// the first load and run allocate process-wide tables once (about 0.6 MB:
// the operator registry and similar lazily built statics), which are not
// per-program memory.
// Outputs, state dicts and descriptions are JS copies, so holding on to
// them must not hold wasm memory either.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { heapStats, load } from '../../npm/src/index.js';
import { decodeCall, readCases } from '../../npm/src/cli/cases.js';
import { FIXTURES } from './helpers.mjs';

const CYCLES = 200;

for (const fixture of ['digits_cnn', 'counter_buffer']) {
  test(`${fixture}: ${CYCLES} load/run/dispose cycles return the heap to its baseline`, async () => {
    const bytes = new Uint8Array(readFileSync(join(FIXTURES, fixture, 'model.pt2')));
    const { cases } = await readCases(join(FIXTURES, fixture, 'cases.json'));
    const { args, kwargs } = decodeCall(cases.find((c) => c.expected !== undefined));
    const kept = [];
    async function cycle() {
      const program = await load(bytes);
      try {
        kept.push(program.run(args, kwargs), program.stateDict());
      } finally {
        program.dispose();
      }
    }
    await cycle();
    const baseline = (await heapStats()).inUse;
    for (let i = 0; i < CYCLES; i++) await cycle();
    const after = (await heapStats()).inUse;
    assert.equal(after, baseline, `${after - baseline} bytes more in use after ${CYCLES} cycles`);
    assert.equal(kept.length, 2 * (CYCLES + 1));
    assert.ok(kept.every((value) => value !== undefined));
  });
}
