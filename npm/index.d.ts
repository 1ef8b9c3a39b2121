// TypeScript declarations of pt2web's public API (src/index.js), written by
// hand. tests/js/types.test.mjs keeps them true: every name exported there
// is declared here and every member of Program and Tensor;
// tsc checks the sources' own types (inferred, and their JSDoc) against
// this file; and a strict project compiles against it with TypeScript's
// default lib.

// Program[Symbol.dispose] needs Symbol.dispose, which the default lib of
// targets before esnext lacks.
/// <reference lib="esnext.disposable" />

// The description's types (and DType) come from the schema the core's
// describe_program follows: npm/description.d.ts is generated from
// src/runtime/description.schema.json (npm/tools/description_types.mjs).
import type {
  ArchiveDescription, ConstantValue, DType, GraphSignature, InputDescription, InputSpec, Integer,
  OperatorDescription, OutputDescription, OutputSpec, ProgramDescription, Range, Ranges, Shape,
} from './description.js';
export type {
  ArchiveDescription, ConstantValue, DType, GraphSignature, InputDescription, InputSpec, Integer,
  OperatorDescription, OutputDescription, OutputSpec, ProgramDescription, Range, Ranges, Shape,
};

/** Every DType, in a fixed order. */
export const DTYPES: readonly DType[];

/** The typed array that holds each dtype's elements. */
export interface TypedArrayOf {
  float32: Float32Array;
  float64: Float64Array;
  float16: Uint16Array;
  bfloat16: Uint16Array;
  int64: BigInt64Array;
  int32: Int32Array;
  int16: Int16Array;
  int8: Int8Array;
  uint8: Uint8Array;
  bool: Uint8Array;
  uint16: Uint16Array;
  uint32: Uint32Array;
  uint64: BigUint64Array;
  complex64: Float32Array;
  complex128: Float64Array;
}

export type AnyTypedArray = TypedArrayOf[DType] | Uint8ClampedArray;

/** A dtype, a shape and the elements in a typed array, row-major. Plain JS memory: nothing to dispose. */
export interface Tensor<T extends DType = DType> {
  readonly dtype: T;
  readonly data: TypedArrayOf[T];
  readonly shape: readonly number[];
  /** Number of elements. */
  readonly size: number;
  readonly rank: number;
  /** Elements as plain values, flat: numbers (16-bit floats decoded), BigInts for 64-bit integers, booleans for bool. */
  toArray(): Array<number | bigint | boolean>;
  toString(): string;
}

/** new Tensor(dtype, data, shape), or new Tensor(typedArray, shape) with the dtype its class names. */
export interface TensorConstructor {
  /**
   * @param dtype one of DTYPES
   * @param data the elements: the dtype's typed array is used as is, anything
   *   else is converted (int64 takes BigInts or integral numbers; float16 and
   *   bfloat16 take numbers, or a Uint16Array of raw bits; the smaller
   *   integer dtypes refuse values they cannot hold)
   * @param shape defaults to one dimension holding all of data
   */
  new <T extends DType>(dtype: T, data: ArrayLike<number | bigint | boolean>, shape?: readonly number[]): Tensor<T>;
  new (data: Float32Array, shape?: readonly number[]): Tensor<'float32'>;
  new (data: Float64Array, shape?: readonly number[]): Tensor<'float64'>;
  new (data: BigInt64Array, shape?: readonly number[]): Tensor<'int64'>;
  new (data: Int32Array, shape?: readonly number[]): Tensor<'int32'>;
  new (data: Int16Array, shape?: readonly number[]): Tensor<'int16'>;
  new (data: Int8Array, shape?: readonly number[]): Tensor<'int8'>;
  new (data: Uint8Array | Uint8ClampedArray, shape?: readonly number[]): Tensor<'uint8'>;
  new (data: Uint16Array, shape?: readonly number[]): Tensor<'uint16'>;
  new (data: Uint32Array, shape?: readonly number[]): Tensor<'uint32'>;
  new (data: BigUint64Array, shape?: readonly number[]): Tensor<'uint64'>;
  readonly prototype: Tensor;
}

export const Tensor: TensorConstructor;

/**
 * onnxruntime-web's Tensor, which run() also takes (as a pt2web Tensor
 * sharing its data) when its type is one of pt2web's dtypes.
 */
export interface OrtLikeTensor {
  readonly type: string;
  readonly dims: readonly number[];
  readonly data: unknown;
}

/** Tags for what a plain JS value cannot say (see the README's value table). */
export interface FloatTag { float: number }
export interface IntTag { int: number | bigint | string }
export interface TupleTag { tuple: InputValue[] }
export interface ListTag { list: InputValue[] }
export interface DictTag { dict: Array<[string | number, InputValue]> }

/**
 * A value run() accepts: tensors, Python scalars, None and pytrees of them
 * (tuples, lists and namedtuples as arrays; dicts as objects or Maps;
 * dataclasses as objects of their fields or arrays of their values).
 */
export type InputValue =
  | Tensor
  | { dtype: DType; shape: readonly number[]; data: AnyTypedArray }
  | OrtLikeTensor
  | Map<string | number, InputValue>
  | number | bigint | boolean | string | null
  | FloatTag | IntTag | TupleTag | ListTag | DictTag
  | InputValue[]
  | { [key: string]: InputValue };

/**
 * A value run() returns: tensors (fresh copies), Python scalars, None and
 * pytrees of them (tuples, lists and namedtuples as arrays; dicts and
 * dataclasses as objects, a dataclass's keys being its field names).
 */
export type OutputValue =
  | Tensor
  | number | bigint | boolean | string | null
  | OutputValue[]
  | { [key: string]: OutputValue };

/** A Python float, even when integral: float(2) is 2.0, where a plain 2 is the int 2. */
export function float(x: number): FloatTag;
/** A Python int (a number, a BigInt, or a decimal string beyond 2^53). */
export function int(x: number | bigint | string): IntTag;
/** A Python tuple, where the program insists on one. */
export function tuple(items: Iterable<InputValue>): TupleTag;
/** A Python list, where the program insists on one. */
export function list(items: Iterable<InputValue>): ListTag;
/** A Python dict from [key, value] pairs (integer keys allowed). */
export function dict(pairs: Iterable<readonly [string | number, InputValue]>): DictTag;

/** Where pt2web.wasm comes from: a URL or (Node) a path, its bytes, or a compiled module. */
export type WasmSource = string | URL | ArrayBuffer | ArrayBufferView | WebAssembly.Module;

/** What onProgress receives. */
export interface LoadProgress {
  stage: 'download' | 'wasm' | 'prepare' | 'weights' | 'ready';
  loaded: number;
  total: number | null;
}

export interface LoadOptions {
  /** The program's name in error messages (default: the file name or URL). */
  label?: string;
  /**
   * Which model of a PT2 archive to load (its models/<model>.json), for
   * archives that hold several. Default: "model" (what torch.export.save
   * writes), else the archive's only model; an archive with several models
   * and none named "model" is refused with a BadInputError naming them.
   */
  model?: string;
  /**
   * Called as loading goes on: 'download' as the model's bytes arrive (the
   * complete download once, with loaded === total), 'wasm' when the
   * WebAssembly module is ready, 'prepare' while the program is read and
   * planned, 'weights' as the weights the program reads are copied into
   * place (in steps of at least 1%, the last with loaded === total), 'ready'
   * last. loaded and total are the model's bytes so far (total null while
   * unknown), except for 'weights', where they count the bytes of those weights.
   */
  onProgress?: (progress: LoadProgress) => void;
  /**
   * Keep the bytes of a fetched model in the browser's Cache API, keyed by
   * URL and revalidated by ETag, so later visits do not download it again
   * (where the Cache API is missing, e.g. Node, the model is fetched as usual).
   */
  cache?: boolean;
  /** Where pt2web.wasm is (default: next to the package's glue, found through import.meta.url). */
  wasm?: WasmSource;
}

/** Options of Program.generate() and Program.generateTokens(). */
export interface GenerateOptions {
  /** How many tokens to make at most (default 20). */
  maxNewTokens?: number;
  /** The most tokens, prompt included (default: the static cache's positions). */
  maxLength?: number;
  /** Draw each token (true) rather than take the most likely (false, the default). */
  sample?: boolean;
  /** Divides the logits before sampling (default 1). */
  temperature?: number;
  /** Sample among the k most likely tokens only (default 0: all). */
  topK?: number;
  /** Sample among the fewest most likely tokens whose probability reaches p (default 1: all). */
  topP?: number;
  /** Where the sampling stream starts (default 0): the same seed gives the same tokens. */
  seed?: number;
  /** Token ids that end generation (the one met is returned last). */
  stopTokens?: Iterable<number>;
  /** Stops generation between two steps; the call rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Called with each new token id as it is chosen (generate() only). */
  onToken?: (id: number, index: number) => void;
}

export interface ProgramOptions extends LoadOptions {
  /**
   * Threads a run may use, the calling one included (1 to 64, default 1).
   * More than 1 loads the threaded build (dist/pt2web-threads.*) where it can
   * run: Node, and pages that are cross-origin isolated (COOP/COEP headers).
   * Elsewhere the program runs on one thread; Program.threads tells which.
   * The program's first runs compare that count with one thread, and later
   * runs use one thread if it proved faster (a small program can lose more
   * to splitting its work than a second core gives); results are the same
   * bits either way. The threaded build is always the packaged one (`wasm`
   * names the single-threaded binary).
   */
  threads?: number;
  /**
   * Where the stream of the program's random operators starts (rand, randn,
   * dropout in training mode, ...): a whole number from 0 to 2^53-1, default
   * 0. Program.setRandomSeed restarts it later. The values are pt2web's own,
   * not torch's.
   */
  seed?: number;
  /**
   * Hold the program in a Web Worker (Node: a worker thread), so runs never
   * block the calling thread: the same Program, whose methods then return
   * Promises (Program<true>). Default false.
   */
  worker?: boolean;
  /**
   * Run in the Memory64 build (dist/pt2web-memory64.*: 64-bit wasm addresses,
   * for programs past wasm32's 4 GB; one thread; Node 24, Chrome and Edge
   * 133, Firefox 134). true: always (an UnsupportedError where the engine
   * lacks Memory64 or with threads > 1); false: never; 'auto' (default):
   * for archives larger than 3.5 GiB where the engine has it, with one
   * thread whatever `threads` asks. Memory64 costs speed, so wasm32 stays the
   * choice for everything that fits. Always the packaged binary.
   */
  memory64?: boolean | 'auto';
}

/** What load() reads: a URL, a path (Node), a Response, a Blob or File, or the bytes. */
export type ProgramSource = string | URL | Response | Blob | ReadableStream<Uint8Array> | ArrayBuffer | ArrayBufferView;

/** What a Program's method gives: the result itself, or a Promise of it for a program in a worker. */
export type Settled<InWorker extends boolean, T> = InWorker extends true ? Promise<T> : T;

/** What run() and runProfiled() take besides the inputs. */
export interface RunOptions {
  /** In a worker: move the inputs' buffers there instead of copying them (the caller's arrays become empty). */
  transfer?: boolean;
}

/** run() timing every node: the outputs, and per operator its calls and milliseconds, slowest first. */
export interface ProfiledRun<Out> {
  outputs: Out;
  profile: Array<{ target: string; calls: number; ms: number }>;
}

/**
 * A loaded program, ready to run; load() makes it. On the calling thread
 * (the default) every method returns its result. Loaded with
 * {worker: true} (InWorker true) the program lives in a Web Worker (Node: a
 * worker thread): the same methods return Promises, and runs never block
 * the calling thread; inputs are copied there (or moved with
 * {transfer: true}), so inputs the program mutates are not updated in place.
 * `await program.run(...)` works in both. Owns wasm memory: call dispose()
 * (or use `using`).
 */
export class Program<InWorker extends boolean = false> {
  private constructor();
  /** True for a program loaded with {worker: true}. */
  readonly inWorker: InWorker;
  readonly description: ProgramDescription;
  readonly inputs: InputDescription[];
  readonly outputs: OutputDescription[];
  readonly signature: GraphSignature;
  readonly rangeConstraints: Record<string, Range>;
  readonly dialect: ProgramDescription['dialect'];
  readonly operators: OperatorDescription[];
  /** Threads a run may use: options.threads where the threaded build loaded, else 1 (runs use one thread when that proved faster for this program). */
  readonly threads: number;
  /** Why the program got fewer threads than options.threads asked for (the page is not cross-origin isolated, ...); null when it did not. */
  readonly threadsReason: string | null;
  /** True when the program runs in the Memory64 build (ProgramOptions.memory64). */
  readonly memory64: boolean;
  /** Activation memory of the last run (zeros before the first). */
  readonly memory: { plannedBytes: number; unplannedBytes: number };
  readonly disposed: boolean;
  /**
   * Runs like ep.module()(*args, **kwargs). Outputs are fresh copies; on the
   * calling thread, input tensors the program mutates are updated in place;
   * buffers persist. The type argument says what the program returns, which
   * only the program knows: one tensor unless given (`run<[Tensor, Tensor]>(...)`
   * for a pair, `run<OutputValue>(...)` to check at run time).
   * @throws BadInputError when the inputs do not match (nothing is computed)
   */
  run<Out extends OutputValue = Tensor>(
    args?: InputValue[],
    kwargs?: Record<string, InputValue> | Map<string, InputValue>,
    options?: RunOptions,
  ): Settled<InWorker, Out>;
  /**
   * run(feeds): the keyword inputs as one object, for a program whose inputs
   * are all keywords (transformers models: `run({ input_ids, attention_mask })`).
   * @throws BadInputError naming the positional inputs when the program has some
   */
  run<Out extends OutputValue = Tensor>(
    feeds: Record<string, InputValue> | Map<string, InputValue>,
    kwargs?: undefined,
    options?: RunOptions,
  ): Settled<InWorker, Out>;
  /** run() timing every node. */
  runProfiled<Out extends OutputValue = Tensor>(
    args?: InputValue[],
    kwargs?: Record<string, InputValue> | Map<string, InputValue>,
    options?: RunOptions,
  ): Settled<InWorker, ProfiledRun<Out>>;
  runProfiled<Out extends OutputValue = Tensor>(
    feeds: Record<string, InputValue> | Map<string, InputValue>,
    kwargs?: undefined,
    options?: RunOptions,
  ): Settled<InWorker, ProfiledRun<Out>>;
  /** The archive's example inputs (what torch.export was given), or null. */
  exampleInputs(): Settled<InWorker, { args: InputValue[]; kwargs: Record<string, InputValue> } | null>;
  /**
   * Parameters and buffers (current values, copies) by name, in state-dict
   * order. Entries no node reads are read from the bytes given to load().
   */
  stateDict(): Settled<InWorker, Record<string, Tensor>>;
  /**
   * Every buffer (current values, copies) by name, as torch's named_buffers():
   * non-persistent ones included (a static key/value cache), which
   * stateDict() leaves out as torch's state_dict() does.
   */
  buffers(): Settled<InWorker, Record<string, Tensor>>;
  /** Restores every buffer to its value at load time. */
  resetState(): Settled<InWorker, void>;
  /**
   * Restarts the stream the random operators draw from (rand, randn,
   * randint, randperm, bernoulli, dropout in training mode, ...): the same
   * seed gives the same values on every platform. Programs start at seed 0.
   * The stream is pt2web's own, not torch's.
   */
  setRandomSeed(seed: number): Settled<InWorker, void>;
  /**
   * For a decoder exported with transformers' static cache (keyword inputs
   * input_ids and cache_position, the logits out, key_cache_0 ... as
   * buffers): the new token ids after prompt. Resets the state first, feeds
   * the prompt, then picks each token greedily or, with sample: true, draws
   * it after temperature, top-k and top-p from a seeded stream.
   */
  generate(prompt: ArrayLike<number | bigint>, options?: GenerateOptions): Promise<number[]>;
  /** generate()'s tokens as an async iterator, each as it is chosen. */
  generateTokens(prompt: ArrayLike<number | bigint>, options?: Omit<GenerateOptions, 'onToken'>): AsyncGenerator<number, void, undefined>;
  /**
   * ExportedProgram.run_decompositions(): a new Program holding this one
   * decomposed into Core ATen (dialect 'ATEN'), with the same threads, in the
   * same place (a worker program's in the same worker); this one is
   * unchanged. preserve: operators kept as they are ("aten.linear.default").
   * Dispose of the new Program too.
   * @throws BadInputError for an operator that cannot be preserved
   */
  runDecompositions(options?: { preserve?: string[] }): Settled<InWorker, Program<InWorker>>;
  /** The program as .pt2 bytes (torch.export.save's layout; load() reads them), its state as loaded. */
  save(): Settled<InWorker, Uint8Array>;
  /** @internal sampleInputs(program, {random: true, seed}) is the public form. */
  randomInputs(seed?: number): Settled<InWorker, { args: InputValue[]; kwargs: Record<string, InputValue> }>;
  /** The program printed in the spirit of Python's print(ep). */
  toString(): string;
  /** Frees the program (the last program of a worker ends it); later calls fail with BadInputError. Safe to call twice. */
  dispose(): void;
  [Symbol.dispose](): void;
}

/** A Program loaded with {worker: true}: the same class, its methods returning Promises. */
export type WorkerProgram = Program<true>;

/** Loads a program in a worker: its methods return Promises and never block the calling thread. */
export function load(source: ProgramSource, options: ProgramOptions & { worker: true }): Promise<Program<true>>;
/** Loads a program and prepares it to run. Rejects with UnsupportedError listing every missing operator. */
export function load(source: ProgramSource, options?: ProgramOptions & { worker?: false }): Promise<Program>;
/** Loads a program, in a worker when options.worker is true. */
export function load(source: ProgramSource, options?: ProgramOptions): Promise<Program<boolean>>;

/** Describes a program without preparing it to run (works with unsupported operators). */
export function inspect(source: ProgramSource, options?: LoadOptions): Promise<ProgramDescription>;

/** The wasm heap of the module for options.wasm (or the threaded build, threads > 1): bytes malloc has handed out, and the memory's size. */
export function heapStats(options?: { wasm?: WasmSource; threads?: number; memory64?: boolean }): Promise<{ inUse: number; heapSize: number }>;

/**
 * Inputs for program.run(args, kwargs): the archive's example inputs, or
 * (when it has none, or with random: true) random values of valid shapes,
 * reproducible from seed (default 0).
 */
export function sampleInputs<InWorker extends boolean>(
  program: Program<InWorker>,
  options?: { random?: boolean; seed?: number },
): Settled<InWorker, { args: InputValue[]; kwargs: Record<string, InputValue>; source: 'example' | 'random' }>;

/** The models load(url, {cache: true}) keeps in the Cache API: URL, size (null when unknown) and ETag. */
export function cachedModels(): Promise<Array<{ url: string; bytes: number | null; etag: string | null }>>;

/** Removes one cached model (by URL) or, without an argument, all of them; resolves to how many were removed. */
export function clearModelCache(url?: string | URL): Promise<number>;

/**
 * Which WebAssembly features this engine has. pt2web needs simd128 and
 * exceptions (load() rejects with an UnsupportedError saying which is
 * missing and which engines have it); threads for the threaded build (else
 * programs run on one thread); memory64 for programs past 4 GB.
 */
export function wasmFeatures(): { simd128: boolean; exceptions: boolean; threads: boolean; memory64: boolean };

/** What kind of failure an error is. */
export type ErrorCode = 'BAD_FILE' | 'BAD_INPUT' | 'UNSUPPORTED' | 'BAD_PROGRAM' | 'OUT_OF_MEMORY' | 'INTERNAL';

/** The base class of pt2web's errors. */
export class Pt2webError extends Error {
  constructor(message: string, code?: ErrorCode | string);
  readonly code: ErrorCode | string;
}
/** The archive or its contents are malformed, or a file or URL cannot be read. */
export class BadFileError extends Pt2webError { constructor(message: string); readonly code: 'BAD_FILE' }
/** The inputs or options do not match what is expected; nothing was computed. */
export class BadInputError extends Pt2webError { constructor(message: string); readonly code: 'BAD_INPUT' }
/** An operator or feature pt2web does not implement. */
export class UnsupportedError extends Pt2webError { constructor(message: string); readonly code: 'UNSUPPORTED' }
/** The program is inconsistent. */
export class BadProgramError extends Pt2webError { constructor(message: string); readonly code: 'BAD_PROGRAM' }
/** Memory ran out, or a size is past what the platform addresses; the message names the bytes. The program stays usable. */
export class OutOfMemoryError extends Pt2webError { constructor(message: string); readonly code: 'OUT_OF_MEMORY' }
/** A bug in pt2web. */
export class InternalError extends Pt2webError { constructor(message: string); readonly code: 'INTERNAL' }

export {};
