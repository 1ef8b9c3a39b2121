// A program file past 2 GiB loads from a path: Node's readFile stops at
// 2 GiB, so load() reads a path range by range straight into wasm memory
// (npm/src/file_bytes.js) and never holds the file in JavaScript. The file
// is the MLP fixture with a 2.2 GB entry added (zip64) that no part of the
// program reads, written here by Python's zipfile; the program must then
// describe and run exactly as the fixture does.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { inspect, load, sampleInputs } from '../../npm/src/index.js';
import { FIXTURES } from './helpers.mjs';

const MLP = join(FIXTURES, 'mlp', 'model.pt2');
const EXTRA_BYTES = 2200 * 1000 * 1000;

const APPEND = `
import shutil, sys, zipfile
source, target, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
shutil.copyfile(source, target)
block = bytes(1 << 24)
with zipfile.ZipFile(target, 'a') as archive:
    with archive.open('extra/unread.bin', 'w', force_zip64=True) as entry:
        left = size
        while left:
            entry.write(block[:min(left, len(block))])
            left -= min(left, len(block))
`;

let folder;
let big;
before(() => {
  folder = mkdtempSync(join(tmpdir(), 'pt2web-big-'));
  big = join(folder, 'big.pt2');
  const made = spawnSync('python3', ['-c', APPEND, MLP, big, String(EXTRA_BYTES)], { encoding: 'utf8' });
  assert.equal(made.status, 0, made.stderr);
});
after(() => rmSync(folder, { recursive: true, force: true }));

test('a 2.2 GB file loads from a path and runs as the fixture does', async () => {
  assert.ok(statSync(big).size > 2 ** 31, 'the file is past 2 GiB');
  const small = await load(MLP);
  const large = await load(big);
  try {
    assert.deepEqual(large.signature, small.signature);
    const { args, kwargs } = sampleInputs(small, { random: true, seed: 3 });
    assert.deepEqual(Array.from(large.run(args, kwargs).data), Array.from(small.run(args, kwargs).data));
  } finally {
    small.dispose();
    large.dispose();
  }
});

test('inspect() of the 2.2 GB file reads only its directory and program', async () => {
  const description = await inspect(big);
  assert.deepEqual(description.signature.parameters, ['fc1.weight', 'fc1.bias', 'fc2.weight', 'fc2.bias']);
});

test('the 2.2 GB file loads in a worker, which opens the path itself', async () => {
  const program = await load(big, { worker: true });
  try {
    assert.deepEqual(program.signature.parameters, ['fc1.weight', 'fc1.bias', 'fc2.weight', 'fc2.bias']);
  } finally {
    await program.dispose();
  }
});
