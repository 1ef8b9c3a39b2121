// Heavy use of the wasm build: every fixture loaded, run and disposed many
// times with the heap back at its baseline; two programs of one model keep
// separate state; a failed run (bad input, or an operator failing halfway
// after a buffer was mutated) leaves the state exactly as before; running out
// of wasm memory is a clean error after which programs keep working.
//
// Cycles: 1,000 per fixture, except mobilenet_v2 and encoder_small (15 MB
// archives whose every load parses and copies ~14 MB of weights and whose
// runs take tens of milliseconds in wasm): 25 cycles each, which keeps this
// file within about a minute of CI time; their leaks would show after one.
// The baseline is taken after one warm-up cycle (see heap.test.mjs).

import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { Tensor, heapStats, load } from '../../npm/src/index.js';
import { decodeCall, readCases } from '../../npm/src/cli/cases.js';
import { writeSingleNodePt2, arg } from '../bench/kernels/pt2_writer.mjs';
import { writeStoredZip } from '../bench/kernels/zip_writer.mjs';
import { FIXTURES, fixtureNames } from './helpers.mjs';
import { readStoredZip } from './zip_reader.mjs';

const LARGE_ARCHIVE = 4 << 20;

function cyclesFor(fixture) {
  return statSync(join(FIXTURES, fixture, 'model.pt2')).size > LARGE_ARCHIVE ? 25 : 1000;
}

async function firstCase(fixture) {
  const { cases } = await readCases(join(FIXTURES, fixture, 'cases.json'));
  return cases.find((c) => c.expected !== undefined);
}

async function firstCall(fixture) {
  return decodeCall(await firstCase(fixture));
}

// The bytes of every tensor in a (nested) value, for exact comparison.
function tensorBytes(value, out = []) {
  if (value instanceof Tensor) out.push(Array.from(new Uint8Array(value.data.buffer, value.data.byteOffset, value.data.byteLength)));
  else if (Array.isArray(value)) value.forEach((v) => tensorBytes(v, out));
  else if (value && typeof value === 'object') Object.keys(value).sort().forEach((k) => tensorBytes(value[k], out));
  return out;
}

function stateBytes(program) {
  return tensorBytes(program.stateDict());
}

for (const fixture of fixtureNames()) {
  const cycles = cyclesFor(fixture);
  test(`${fixture}: ${cycles} load/run/dispose cycles return the heap to its baseline`, async () => {
    const bytes = new Uint8Array(readFileSync(join(FIXTURES, fixture, 'model.pt2')));
    const testCase = await firstCase(fixture);
    let last;
    async function cycle() {
      // Fresh inputs every cycle: a program may write into them (input_mutation).
      const { args, kwargs } = decodeCall(testCase);
      const program = await load(bytes);
      try {
        last = tensorBytes(program.run(args, kwargs));
      } finally {
        program.dispose();
      }
    }
    await cycle();
    const first = last;
    const baseline = (await heapStats()).inUse;
    for (let i = 0; i < cycles; i++) await cycle();
    const after = (await heapStats()).inUse;
    assert.equal(after, baseline, `${after - baseline} bytes more in use after ${cycles} cycles`);
    assert.deepEqual(last, first, 'the last cycle computes what the first did');
  });
}

test('two programs of the same model keep separate state', async () => {
  const bytes = new Uint8Array(readFileSync(join(FIXTURES, 'counter_buffer', 'model.pt2')));
  const a = await load(bytes);
  const b = await load(bytes);
  try {
    const x = new Tensor('float32', new Float32Array(12).fill(1), [3, 4]);
    for (let call = 0; call < 3; call++) a.run([x]);
    const outB = b.run([x]);
    assert.deepEqual(Array.from(a.stateDict().count.data), [3]);
    assert.deepEqual(Array.from(b.stateDict().count.data), [1]);
    assert.deepEqual(Array.from(outB[0].data), new Array(12).fill(1), 'b sees count 1, not a\'s 4');
    a.resetState();
    assert.deepEqual(Array.from(b.stateDict().count.data), [1], 'resetting a leaves b alone');
  } finally {
    a.dispose();
    b.dispose();
  }
});

test('a refused input leaves the state exactly as before', async () => {
  const program = await load(join(FIXTURES, 'counter_buffer', 'model.pt2'));
  try {
    program.run([new Tensor('float32', new Float32Array(12).fill(2), [3, 4])]);
    const before = stateBytes(program);
    const bad = [
      [new Tensor('float32', new Float32Array(15), [3, 5])],
      [new Tensor('int64', new BigInt64Array(12), [3, 4])],
      [new Tensor('float32', new Float32Array(12), [12])],
      [],
      [1, 2],
    ];
    for (const args of bad) {
      assert.throws(() => program.run(args), (e) => e.code === 'BAD_INPUT');
      assert.deepEqual(stateBytes(program), before);
    }
  } finally {
    program.dispose();
  }
});

test('an operator failing after a buffer mutation leaves the state exactly as before', async () => {
  // counter_buffer adds 1 to `count` in place first; its sum is edited to
  // reduce over dimension 5 of a 2-d input, which fails only in the kernel.
  const entries = readStoredZip(new Uint8Array(readFileSync(join(FIXTURES, 'counter_buffer', 'model.pt2'))));
  const json = entries.find((e) => e.name === 'serialized_exported_program.json');
  const program = JSON.parse(new TextDecoder().decode(json.data));
  const sum = program.graph_module.graph.nodes.find((n) => n.target === 'torch.ops.aten.sum.dim_IntList');
  sum.inputs[1].arg.as_ints = [5];
  json.data = new TextEncoder().encode(JSON.stringify(program));
  const broken = await load(writeStoredZip(entries));
  try {
    const before = stateBytes(broken);
    const x = new Tensor('float32', new Float32Array(12).fill(1), [3, 4]);
    assert.throws(() => broken.run([x]), (e) => e.code !== 'INTERNAL' && /sum/.test(e.message));
    assert.deepEqual(stateBytes(broken), before);
  } finally {
    broken.dispose();
  }
});

test('running out of wasm memory is a clean error, and programs keep working', async () => {
  // new_zeros of 32768 x 32768 floats asks for 4 GiB, more than the wasm
  // heap can ever hold (its maximum is 4 GiB including everything else).
  const hungry = await load(writeSingleNodePt2({
    target: 'torch.ops.aten.new_zeros.default',
    input: { name: 'x', shape: [2] },
    parameters: [],
    nodeInputs: [{ name: 'self', arg: arg.tensor('x') }, { name: 'size', arg: arg.ints([32768, 32768]) }],
    output: { name: 'new_zeros', shape: [32768, 32768] },
  }));
  const mlp = await load(join(FIXTURES, 'mlp', 'model.pt2'));
  try {
    const { args } = await firstCall('mlp');
    const expected = tensorBytes(mlp.run(args));
    const baseline = (await heapStats()).inUse;
    const x = new Tensor('float32', [1, 2], [2]);
    for (let attempt = 0; attempt < 3; attempt++) {
      assert.throws(() => hungry.run([x]), (e) => e.code === 'OUT_OF_MEMORY' && /out of memory/.test(e.message));
      assert.equal((await heapStats()).inUse, baseline, 'the failed run frees what it had allocated');
      assert.deepEqual(tensorBytes(mlp.run(args)), expected);
    }
  } finally {
    hungry.dispose();
    mlp.dispose();
  }
});

test('sizes at the edge of the 32-bit address space are OUT_OF_MEMORY, and programs keep working', async () => {
  // float32 new_zeros whose bytes lie just under 2^32: 1073741815 elements
  // (4294967260 bytes) passed the old size check and wrapped to a tiny block
  // once padded, then were written far past it (a trap); 1073741804 is the
  // largest whose padded block fits; 2^31 and 65536 x 16384 overflow size_t.
  const sizes = [[1073741815], [1073741804], [2 ** 31], [65536, 16384], [1073741823]];
  const programs = await Promise.all(sizes.map((size) => load(writeSingleNodePt2({
    target: 'torch.ops.aten.new_zeros.default',
    input: { name: 'x', shape: [2] },
    parameters: [],
    nodeInputs: [{ name: 'self', arg: arg.tensor('x') }, { name: 'size', arg: arg.ints(size) }],
    output: { name: 'new_zeros', shape: size },
  }))));
  const mlp = await load(join(FIXTURES, 'mlp', 'model.pt2'));
  try {
    const { args } = await firstCall('mlp');
    const expected = tensorBytes(mlp.run(args));
    const x = new Tensor('float32', [1, 2], [2]);
    for (const [i, program] of programs.entries()) {
      assert.throws(() => program.run([x]), (e) => e.code === 'OUT_OF_MEMORY' && /bytes/.test(e.message), `size ${sizes[i]}`);
      assert.deepEqual(tensorBytes(mlp.run(args)), expected, `after size ${sizes[i]}`);
    }
  } finally {
    for (const program of programs) program.dispose();
    mlp.dispose();
  }
});
