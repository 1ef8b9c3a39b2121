// Type-checked (tsc --strict, never run) against pt2web's declarations: the
// way the README uses the API must compile, and misuse must not (each
// expect-error directive below fails the check if its line compiles).

import {
  BadInputError, DTYPES, Program, Pt2webError, Tensor, UnsupportedError,
  cachedModels, clearModelCache, dict, float, heapStats, inspect, int, list, load, sampleInputs, tuple,
  type DType, type InputDescription, type OutputValue, type ProgramDescription,
} from 'pt2web';

// Fails to compile unless A and B are the same type.
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
function sameType<A, B>(proof: Same<A, B>): void {
  console.log(proof);
}

export async function usage(bytes: Uint8Array, response: Response, blob: Blob): Promise<number> {
  const program: Program = await load('model.pt2', {
    onProgress: ({ loaded, total }) => console.log(loaded, total ?? 'unknown'),
    wasm: new URL('pt2web.wasm', 'https://example.com/'),
    label: 'model',
  });
  await load(bytes);
  await load(response);
  await load(blob, { wasm: bytes });
  const x = new Tensor('float32', new Float32Array(6), [2, 3]);
  const f32: Float32Array = x.data;
  const ids = new Tensor('int64', [1, 2, 3], [1, 3]);
  const i64: BigInt64Array = ids.data;
  const inferred = new Tensor(new Float64Array(4), [2, 2]);
  sameType<typeof inferred.dtype, 'float64'>(true);
  sameType<typeof inferred.data, Float64Array>(true);
  sameType<(typeof x)['dtype'], 'float32'>(true);
  sameType<typeof ids.dtype, 'int64'>(true);
  const bytesTensor = new Tensor(new Uint8ClampedArray(4));
  sameType<typeof bytesTensor.dtype, 'uint8'>(true);
  // The common case needs no cast: one tensor out.
  const logits = program.run([x]);
  const data: Float32Array | BigInt64Array | Uint16Array | Float64Array | Int32Array | Int16Array | Int8Array | Uint8Array | Uint32Array | BigUint64Array = logits.data;
  console.log(logits.shape[1], data.length);
  const [first2, second] = program.run<[Tensor, Tensor]>([x]);
  console.log(first2.shape, second.dtype);
  const named = program.run<{ logits: Tensor }>([x], new Map([['mask', x]]));
  console.log(named.logits.size, program.run([new Map([['a', x]])]).rank);
  sameType<typeof program.dialect, 'TRAINING' | 'ATEN' | (string & {})>(true);
  const threadsReason: string | null = program.threadsReason;
  const inWorker = await load('model.pt2', { worker: true, cache: true, onProgress: ({ stage, loaded }) => console.log(stage, loaded) });
  const fromWorker = await inWorker.run([x], {}, { transfer: true });
  console.log(fromWorker.shape, (await inWorker.stateDict())['w']?.dtype, inWorker.description.outputs[0].path);
  const decomposed: Program<true> = await inWorker.runDecompositions({ preserve: ['aten.linear.default'] });
  const saved: Uint8Array = await inWorker.save();
  const workerSample = await sampleInputs(inWorker);
  await decomposed.run(workerSample.args, workerSample.kwargs);
  await inWorker.run({ input_ids: ids }, undefined, { transfer: true });
  decomposed.dispose();
  inWorker.dispose();
  // @ts-expect-error: a worker's run() is a Promise
  console.log(inWorker.run([x]).shape);
  // One code path for both modes: await works on either.
  const either = async (p: Program<boolean>) => (await p.run([x])).shape;
  console.log(await either(program), await either(inWorker), saved.length, (await program.run({ input_ids: ids })).size);
  const chosen = await load('model.pt2', { worker: Math.random() > 0.5 });
  sameType<typeof chosen, Program<boolean>>(true);
  const cached = await cachedModels();
  console.log(cached[0]?.etag, await clearModelCache(cached[0]?.url));
  console.log(threadsReason, program.outputs[0].path, program.operators[0].qualified);
  const y: OutputValue = program.run([x, [ids, null], { a: inferred }], { scale: float(2), n: int(3n), t: tuple([x]), l: list([]), d: dict([[0, x]]) });
  if (y instanceof Tensor) console.log(y.dtype, y.shape, y.data.length, y.toArray());
  const first: InputDescription = program.inputs[0];
  if (first.kind === 'tensor') console.log(first.path, first.dtype, first.shape, first.ranges);
  const range = program.rangeConstraints['s0'];
  console.log(range?.[0], program.outputs, program.signature.parameters, program.dialect, program.operators[0].target);
  const { outputs, profile } = program.runProfiled([x]);
  console.log(outputs, profile[0].ms, program.memory.plannedBytes, program.exampleInputs()?.args);
  const sample = sampleInputs(program, { random: true, seed: 1 });
  program.run(sample.args, sample.kwargs);
  console.log(program.stateDict()['weight'].shape, program.toString(), program.disposed);
  program.resetState();
  program.dispose();
  program[Symbol.dispose]();
  const description: ProgramDescription = await inspect(bytes);
  const dtypes: readonly DType[] = DTYPES;
  try {
    await load(bytes);
  } catch (error) {
    if (error instanceof BadInputError || error instanceof UnsupportedError) console.log(error.code, error.message);
    if (error instanceof Pt2webError) console.log(error.code);
  }
  console.log(description.dialect, dtypes.length);
  // @ts-expect-error: not a dtype
  new Tensor('float33', [1]);
  // @ts-expect-error: a number is not a source
  await load(42);
  // @ts-expect-error: args are an array
  program.run(x);
  // @ts-expect-error: Program is made by load()
  new Program();
  return (await heapStats()).inUse + (await heapStats({ wasm: 'pt2web.wasm' })).heapSize + f32.length + Number(i64[0]);
}
