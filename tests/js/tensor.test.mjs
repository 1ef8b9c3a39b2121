// Tensor construction without the wasm module: dtypes and their arrays,
// conversions (int64 from numbers, float16/bfloat16 from numbers), dtype
// inference from typed arrays, and the errors for bad data and shapes.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { BadInputError, DTYPES, Tensor } from '../../npm/src/index.js';

test('the dtype picks the typed array; a matching array is used without a copy', () => {
  const data = new Float32Array([1, 2, 3, 4, 5, 6]);
  const t = new Tensor('float32', data, [2, 3]);
  assert.equal(t.data, data);
  assert.deepEqual(t.shape, [2, 3]);
  assert.equal(t.size, 6);
  assert.equal(t.rank, 2);
  assert.ok(Object.isFrozen(t.shape));
  assert.ok(new Tensor('int32', [1, 2]).data instanceof Int32Array);
  assert.ok(new Tensor('bool', [true, false, 1]).data instanceof Uint8Array);
  assert.deepEqual(new Tensor('bool', [true, false, 3]).toArray(), [true, false, true]);
  assert.ok(DTYPES.includes('bfloat16') && DTYPES.includes('int64'));
});

test('int64 from plain numbers or BigInts; fractions are refused', () => {
  const t = new Tensor('int64', [1, -2, 2 ** 40], [3]);
  assert.ok(t.data instanceof BigInt64Array);
  assert.deepEqual(t.toArray(), [1n, -2n, 2n ** 40n]);
  assert.deepEqual(new Tensor('int64', [5n, 6]).toArray(), [5n, 6n]);
  assert.throws(() => new Tensor('int64', [1, 2.5]), (e) => e instanceof BadInputError && /element 1 is 2\.5/.test(e.message));
});

test('float16 and bfloat16 from numbers are encoded; a Uint16Array is raw bits', () => {
  assert.deepEqual(Array.from(new Tensor('float16', [1, -2.5, 0.1]).data), [0x3c00, 0xc100, 0x2e66]);
  assert.deepEqual(new Tensor('float16', [1, -2.5, 65504]).toArray(), [1, -2.5, 65504]);
  assert.deepEqual(Array.from(new Tensor('bfloat16', [1, -2.5]).data), [0x3f80, 0xc020]);
  assert.deepEqual(new Tensor('float16', new Uint16Array([0x3c00])).toArray(), [1]);
});

test('new Tensor(typedArray, shape) infers the dtype', () => {
  assert.equal(new Tensor(new Float64Array(4), [2, 2]).dtype, 'float64');
  assert.equal(new Tensor(new BigInt64Array(2)).dtype, 'int64');
  assert.equal(new Tensor(new Uint8Array(2)).dtype, 'uint8');
  assert.throws(() => new Tensor([1, 2], [2]), (e) => e instanceof BadInputError && /dtype/.test(e.message));
});

test('bad dtypes, data and shapes are BAD_INPUT errors saying what is wrong', () => {
  const refuses = (make, pattern) => assert.throws(make, (e) => e instanceof BadInputError && e.code === 'BAD_INPUT' && pattern.test(e.message));
  refuses(() => new Tensor('float33', [1]), /unknown dtype 'float33'/);
  refuses(() => new Tensor('float32', [1, 2, 3], [2, 2]), /needs 4 elements, data has 3/);
  refuses(() => new Tensor('float32', [1, 2], [2, -1]), /invalid tensor shape/);
  refuses(() => new Tensor('float32', [1, 2], [1.5]), /invalid tensor shape/);
  refuses(() => new Tensor('float32', 'abc'), /data must be an array/);
  refuses(() => new Tensor('float32', [1], 3), /shape must be an array/);
});

test('complex dtypes interleave real and imaginary parts', () => {
  const t = new Tensor('complex64', [1, 2, 3, 4], [2]);
  assert.ok(t.data instanceof Float32Array);
  assert.equal(t.size, 2);
});
