// WorkerProgram: what load(source, {worker: true}) resolves to. The program
// lives in its own Web Worker (browsers) or worker thread (Node), started
// from program_worker.js, so runs never block the calling thread. The API
// is Program's, except that what touches the program returns a Promise:
// run, runProfiled, exampleInputs, stateDict, resetState and
// setRandomSeed. Inputs are
// copied to the worker (or moved: run(args, kwargs, {transfer: true})
// transfers their buffers, which the caller's arrays then lose), so inputs
// the program mutates are not updated in place; outputs are moved back.
//
// Ownership: the worker owns the program; dispose() frees it and ends the
// worker. In Node the worker never keeps the process alive while idle.
// Errors: load and run errors are the same classes, codes and messages as
// with Program; a worker that fails to start or dies rejects what is
// pending (and load()) with a BadFileError (start) or InternalError (later)
// rather than leaving it waiting.

import { BadFileError, BadInputError, InternalError, errorFromCode } from './errors.js';
import { DISPOSE, importHidden, isNode } from './platform.js';
import { Tensor } from './tensor.js';
import { callOf, fromNative } from './values.js';

// The worker script. Named through a variable here, so that bundlers do not
// copy it as an asset: in browsers they bundle it from the literal below.
const WORKER_FILE = './program_worker.js';

// The buffers of a value's tensors, each once.
function inputBuffers(value, out = new Set()) {
  if (value === null || typeof value !== 'object') return out;
  if (ArrayBuffer.isView(value.data) && typeof value.dtype === 'string') out.add(value.data.buffer);
  else for (const item of Array.isArray(value) ? value : Object.values(value)) inputBuffers(item, out);
  return out;
}

// A worker running program_worker.js, with one interface in both places:
// {post(message, transfer), onMessage(fn), onFailure(fn), busy(flag), end()}.
async function startWorker() {
  if (isNode) {
    const { Worker } = await importHidden('node:worker_threads');
    // A worker inherits the process's options, but refuses --input-type
    // (`node --input-type=module -e ...`): then it is given the others. Only
    // then, because options given explicitly are checked more strictly than
    // inherited ones (Node 24's test runner passes some a worker refuses).
    const execArgv = process.execArgv.filter((option) => !option.startsWith('--input-type'));
    const options = execArgv.length === process.execArgv.length ? {} : { execArgv };
    const worker = new Worker(new URL(WORKER_FILE, import.meta.url), options);
    worker.unref();
    return {
      post: (message, transfer) => worker.postMessage(message, transfer),
      onMessage: (fn) => worker.on('message', fn),
      onFailure: (fn) => {
        worker.on('error', (error) => fn(error.message));
        worker.on('exit', (code) => fn(`the worker thread exited (code ${code})`));
      },
      busy: (flag) => (flag ? worker.ref() : worker.unref()),
      end: () => worker.terminate(),
    };
  }
  // The literal new Worker(new URL(..., import.meta.url)) lets bundlers bundle the worker.
  const worker = new Worker(new URL('./program_worker.js', import.meta.url), { type: 'module' });
  return {
    post: (message, transfer) => worker.postMessage(message, transfer),
    onMessage: (fn) => worker.addEventListener('message', (event) => fn(event.data)),
    onFailure: (fn) => {
      worker.addEventListener('error', (event) => fn(event.message || 'the worker script could not be loaded or run'));
      worker.addEventListener('messageerror', () => fn('a message from the worker could not be read'));
    },
    busy: () => {},
    end: () => worker.terminate(),
  };
}

export class WorkerProgram {
  #worker;
  #pending = new Map();  // id -> {resolve, reject}
  #nextId = 0;
  #failure = null;
  #loaded;
  #memory = { plannedBytes: 0, unplannedBytes: 0 };

  /** @internal use load(source, {worker: true}) */
  constructor(worker) {
    this.#worker = worker;
    worker.onMessage((reply) => this.#receive(reply));
    worker.onFailure((reason) => this.#fail(reason));
  }

  /** @internal Starts a worker and loads bytes there with load()'s options. */
  static async start(bytes, options) {
    const program = new WorkerProgram(await startWorker());
    try {
      program.#loaded = await program.#call('load', undefined, { bytes, options });
    } catch (error) {
      program.dispose();
      throw error;
    }
    return program;
  }

  #call(method, args, extra = {}, transfer = []) {
    if (this.#failure) return Promise.reject(this.#failure);
    if (!this.#worker) return Promise.reject(disposedError());
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.busy(true);
      this.#worker.post({ id, method, args, ...extra }, transfer);
    });
  }

  #receive({ id, ok, value, error, memory }) {
    const pending = this.#pending.get(id);
    if (!pending) return;
    this.#pending.delete(id);
    if (this.#pending.size === 0) this.#worker?.busy(false);
    if (memory) this.#memory = memory;
    if (ok) pending.resolve(value);
    else {
      const failure = errorFromCode(error.code, error.message);
      if (!error.code) failure.name = error.name ?? failure.name;
      pending.reject(failure);
    }
  }

  #fail(reason) {
    if (!this.#worker || this.#failure) return;
    const started = this.#loaded !== undefined;
    this.#failure = started
      ? new InternalError(`pt2web's worker stopped: ${reason}`)
      : new BadFileError(`cannot start pt2web's worker (${WORKER_FILE}): ${reason}`);
    for (const { reject } of this.#pending.values()) reject(this.#failure);
    this.#pending.clear();
  }

  // What the worker sent at load, under Program's names.
  get inputs() { return this.#loaded.description.inputs; }
  get outputs() { return this.#loaded.description.outputs; }
  get signature() { return this.#loaded.description.signature; }
  get rangeConstraints() { return this.#loaded.description.range_constraints; }
  get dialect() { return this.#loaded.description.dialect; }
  get operators() { return this.#loaded.description.operators; }
  get threads() { return this.#loaded.threads; }
  get threadsReason() { return this.#loaded.threadsReason; }

  /** The full description (Program.description). */
  get description() {
    return this.#loaded.description;
  }

  /** Activation memory of the last run (zeros before the first). */
  get memory() {
    return this.#memory;
  }

  // run or runProfiled in the worker, the inputs copied or (transfer) moved.
  #runCall(method, args, kwargs, transfer) {
    const call = callOf(args, kwargs, this.inputs);
    return this.#call(method, [call.args, call.kwargs], {}, transfer ? [...inputBuffers(call)] : []);
  }

  /**
   * Runs in the worker like Program.run; resolves to the outputs.
   * @param {Array|object} [args] positional arguments; or, alone, the feeds
   *   object of a program whose inputs are all keywords
   * @param {object} [kwargs] keyword arguments
   * @param {{transfer?: boolean}} [options] transfer: move the inputs' buffers instead of copying them
   */
  async run(args = [], kwargs, { transfer = false } = {}) {
    return fromNative(await this.#runCall('run', args, kwargs, transfer));
  }

  /**
   * Like run(), timing every node; resolves to {outputs, profile}.
   * @param {Array|object} [args]
   * @param {object} [kwargs]
   * @param {{transfer?: boolean}} [options]
   */
  async runProfiled(args = [], kwargs, { transfer = false } = {}) {
    const { outputs, profile } = await this.#runCall('runProfiled', args, kwargs, transfer);
    return { outputs: fromNative(outputs), profile };
  }

  /** The archive's example inputs as {args, kwargs}, or null. */
  async exampleInputs() {
    const example = await this.#call('exampleInputs');
    return example && { args: fromNative(example.args), kwargs: fromNative(example.kwargs) };
  }

  /** Parameters and buffers (current values) by name. */
  async stateDict() {
    const state = await this.#call('stateDict');
    return Object.fromEntries(Object.entries(state).map(([name, raw]) => [name, Tensor.fromRaw(raw)]));
  }

  /** Restores every buffer to its value at load time. */
  async resetState() {
    await this.#call('resetState');
  }

  /**
   * Restarts the stream of the program's random operators (Program.setRandomSeed).
   * @param {number} seed a whole number from 0 to 2^53-1
   */
  async setRandomSeed(seed) {
    await this.#call('setRandomSeed', seed);
  }

  /** The program printed in the spirit of Python's print(ep). */
  toString() {
    return this.description.printed;
  }

  /** Frees the program and ends its worker; pending calls reject. */
  dispose() {
    if (!this.#worker) return;
    const worker = this.#worker;
    this.#worker = null;
    worker.end();
    for (const { reject } of this.#pending.values()) reject(disposedError());
    this.#pending.clear();
  }

  [DISPOSE]() {
    this.dispose();
  }

  get disposed() {
    return this.#worker === null;
  }
}

function disposedError() {
  return new BadInputError('the program was disposed (dispose() frees it for good; load it again to use it)');
}

