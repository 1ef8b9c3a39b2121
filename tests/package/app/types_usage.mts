// Type-checked (tsc --strict, never run) against pt2web's declarations: the
// way the README uses the API must compile, and misuse must not (each
// expect-error directive below fails the check if its line compiles).

import {
  BadInputError, DTYPES, Program, Pt2webError, Tensor, UnsupportedError,
  dict, float, heapStats, inspect, int, list, load, sampleInputs, tuple,
  type DType, type InputDescription, type OutputValue, type ProgramDescription,
} from 'pt2web';

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
