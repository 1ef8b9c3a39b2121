// Messages for the mistakes newcomers make, and the JS forms run() takes
// besides the documented ones: a file of another format is named (ONNX),
// an embedding id out of range gives the id and the size, integer data a
// dtype cannot hold is refused instead of wrapping, a Map is a dict, an
// onnxruntime-web Tensor is a tensor (or refused saying why), and
// Emscripten's advice to rebuild with assertions never reaches a user.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { callNative } from '../../npm/src/errors.js';
import { Tensor, load } from '../../npm/src/index.js';
import { FIXTURES, REPO } from './helpers.mjs';

const model = (fixture, file = 'model.pt2') => join(FIXTURES, fixture, file);

test('an ONNX file is named as one, with how to get a .pt2', async () => {
  const onnx = readFileSync(model('mlp', 'model.onnx'));
  await assert.rejects(load(onnx, { label: 'mlp.onnx' }), {
    code: 'BAD_FILE',
    message: /^mlp\.onnx is an ONNX model, not a torch\.export program; .*torch\.export\.save\(ep, 'model\.pt2'\)/,
  });
});

test('an embedding id out of range says which id and how many rows there are', async () => {
  const program = await load(model('tiny_transformer'));
  try {
    const [ids] = program.exampleInputs().args;
    const rows = program.stateDict()['tok.weight'].shape[0];
    const bad = new Tensor('int64', Array.from(ids.data, () => BigInt(rows)), ids.shape);
    assert.throws(() => program.run([bad]), {
      code: 'BAD_INPUT',
      message: new RegExp(`index out of range in self: index ${rows} is outside \\[0, ${rows}\\)`),
    });
    program.run([ids]);  // still usable
  } finally {
    program.dispose();
  }
});

test('integer data a dtype cannot hold is refused, not wrapped', () => {
  assert.throws(() => new Tensor('uint8', [0, 255, 256]), { code: 'BAD_INPUT', message: /uint8 element 2 is 256, which uint8 cannot hold \(it holds 0 to 255\)/ });
  assert.throws(() => new Tensor('int8', new Float32Array([-129])), { code: 'BAD_INPUT', message: /int8 element 0 is -129/ });
  assert.throws(() => new Tensor('int32', [2 ** 31]), { code: 'BAD_INPUT', message: /int32 element 0/ });
  assert.deepEqual(Array.from(new Tensor('int8', [-128, 127, 2.9, -2.9]).data), [-128, 127, 2, -2]);
});

test('a Map is a dict, in args and as kwargs', async () => {
  const program = await load(model('pytree_io'));
  try {
    const { args, kwargs } = program.exampleInputs();
    const expected = program.run(args, kwargs);
    // pytree_io(d: dict, pair: tuple, *, scale, mask)
    const [dict, pair] = args;
    assert.deepEqual(Object.keys(dict), ['a', 'b']);
    const withMaps = program.run([new Map(Object.entries(dict)), pair], new Map(Object.entries(kwargs)));
    assert.deepEqual(withMaps, expected);
  } finally {
    program.dispose();
  }
});

test('an onnxruntime-web Tensor is taken as a tensor, or refused with what to do', async () => {
  const npmRequire = createRequire(join(REPO, 'npm', 'package.json'));
  const ort = await import(pathToFileURL(npmRequire.resolve('onnxruntime-web')).href);
  const program = await load(model('mlp'));
  try {
    const [x] = program.exampleInputs().args;
    const expected = program.run([x]);
    assert.deepEqual(program.run([new ort.Tensor('float32', x.data, x.shape)]), expected);
    assert.throws(() => program.run([new ort.Tensor('string', ['a'], [1])]), {
      code: 'BAD_INPUT',
      message: /an onnxruntime-web Tensor of type 'string' has no pt2web dtype/,
    });
  } finally {
    program.dispose();
  }
});

test("Emscripten's advice to rebuild with ASSERTIONS is left out of errors", () => {
  assert.throws(() => callNative(() => {
    throw new WebAssembly.RuntimeError('Aborted(). Build with -s ASSERTIONS=1 for more info.');
  }), (error) => {
    assert.equal(error.code, 'INTERNAL');
    assert.doesNotMatch(error.message, /ASSERTIONS/);
    assert.match(error.message, /the WebAssembly module aborted \(out of memory, or a bug\): Aborted\(\)$/);
    return true;
  });
});
