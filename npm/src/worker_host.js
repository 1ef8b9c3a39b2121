// WorkerHost: a program held in a Web Worker (browsers) or a worker thread
// (Node), started from program_worker.js: the host of a Program loaded with
// {worker: true}. Every call resolves later, with the raw values a
// ThreadHost returns now, so Program treats both alike. Programs made from
// one (runDecompositions) live in the same worker.
//
// Ownership: a WorkerConnection owns its worker and ends it when the last of
// its programs is disposed; in Node an idle worker never keeps the process
// alive. Errors: the worker's errors keep their class, code and message; a
// worker that fails to start or dies rejects what is pending (and load())
// with a BadFileError (start) or InternalError (later), never leaving a
// call waiting.

import { BadFileError, InternalError, disposedError, errorFromCode } from './errors.js';
import { importHidden, isNode } from './platform.js';

// The worker script. Named through a variable here, so that bundlers do not
// copy it as an asset: in browsers they bundle it from the literal below.
const WORKER_FILE = './program_worker.js';

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
      worker.addEventListener('error', (event) => {
        event.preventDefault?.();
        fn(event.message || 'the worker script could not be loaded or run');
      });
      worker.addEventListener('messageerror', () => fn('a message from the worker could not be read'));
    },
    busy: () => {},
    end: () => worker.terminate(),
  };
}

// One worker and the requests in flight to it.
class WorkerConnection {
  #worker;
  #pending = new Map();  // id -> {resolve, reject, onProgress?}
  #nextId = 0;
  #failure = null;
  #started = false;
  #programs = 0;

  constructor(worker) {
    this.#worker = worker;
    worker.onMessage((reply) => this.#receive(reply));
    worker.onFailure((reason) => this.#fail(reason));
  }

  /**
   * A request to the worker; resolves to its reply's value. onProgress gets
   * the `progress` of the messages the worker sends before it replies.
   */
  request(message, transfer = [], onProgress = undefined) {
    if (this.#failure) return Promise.reject(this.#failure);
    if (!this.#worker) return Promise.reject(disposedError());
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, onProgress });
      this.#worker.busy(true);
      this.#worker.post({ id, ...message }, transfer);
    });
  }

  /** A program now lives in the worker. */
  adopt() {
    this.#started = true;
    this.#programs++;
  }

  /** A program of the worker was disposed; the last one ends the worker. */
  release(program) {
    this.#programs--;
    if (this.#programs > 0) {
      this.request({ method: 'dispose', program }).catch(() => {});
      return;
    }
    this.end();
  }

  end() {
    if (!this.#worker) return;
    const worker = this.#worker;
    this.#worker = null;
    worker.end();
    for (const { reject } of this.#pending.values()) reject(disposedError());
    this.#pending.clear();
  }

  #receive({ id, ok, value, error, progress }) {
    const pending = this.#pending.get(id);
    if (!pending) return;
    if (progress !== undefined) {
      pending.onProgress?.(progress);
      return;
    }
    this.#pending.delete(id);
    if (this.#pending.size === 0) this.#worker?.busy(false);
    if (ok) pending.resolve(value);
    else {
      const failure = errorFromCode(error.code, error.message);
      if (!error.code) failure.name = error.name ?? failure.name;
      pending.reject(failure);
    }
  }

  #fail(reason) {
    if (!this.#worker || this.#failure) return;
    this.#failure = this.#started
      ? new InternalError(`pt2web's worker stopped: ${reason}`)
      : new BadFileError(`cannot start pt2web's worker (${WORKER_FILE}): ${reason}`);
    for (const { reject } of this.#pending.values()) reject(this.#failure);
    this.#pending.clear();
  }
}

export class WorkerHost {
  #connection;
  #program;  // the program's id in the worker
  #loaded;  // {summary, printed, threads, threadsReason, memory64}
  #memory = { plannedBytes: 0, unplannedBytes: 0 };
  #disposed = false;

  /** @internal use WorkerHost.open() */
  constructor(connection, loaded) {
    this.#connection = connection;
    this.#program = loaded.program;
    this.#loaded = loaded;
    this.threads = loaded.threads;
    this.threadsReason = loaded.threadsReason;
    this.memory64 = loaded.memory64;
    this.inWorker = true;
    connection.adopt();
  }

  /**
   * Starts a worker and loads bytes there with load()'s options (those a
   * structured clone carries).
   * @param {Uint8Array|{path: string}|{chunks: Uint8Array[]}} bytes (a path: a
   *   local file the worker opens itself; chunks: a download, program_worker.js)
   * @param {object} options
   * @param {ArrayBuffer[]} [transfer] buffers moved to the worker rather than copied
   * @param {(done: number, total: number) => void} [onWeights] told as the worker reads the weights into place
   */
  static async open(bytes, options, transfer = [], onWeights = undefined) {
    const connection = new WorkerConnection(await startWorker());
    try {
      const request = { method: 'load', bytes, options: { ...options, weightProgress: onWeights !== undefined } };
      const loaded = await connection.request(request, transfer, onWeights && (({ done, total }) => onWeights(done, total)));
      return new WorkerHost(connection, loaded);
    } catch (error) {
      connection.end();
      throw error;
    }
  }

  summary() {
    return this.#loaded.summary;
  }

  printed() {
    return this.#loaded.printed;
  }

  /** Activation memory of the last run the worker reported. */
  memory() {
    return this.#memory;
  }

  /**
   * One of ThreadHost.call's methods, run in the worker.
   * @param {string} method
   * @param {unknown[]} [args]
   * @param {ArrayBuffer[]} [transfer] buffers moved to the worker rather than copied
   */
  async call(method, args = [], transfer = []) {
    if (this.#disposed) throw disposedError();
    const { value, memory } = await this.#connection.request({ method, program: this.#program, args }, transfer);
    if (memory) this.#memory = memory;
    return value;
  }

  /** run_decompositions() in the worker: a new host in the same worker. */
  async decompose(preserve) {
    if (this.#disposed) throw disposedError();
    return new WorkerHost(this.#connection, await this.#connection.request({ method: 'decompose', program: this.#program, args: [preserve] }));
  }

  get disposed() {
    return this.#disposed;
  }

  dispose() {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#connection.release(this.#program);
  }
}
