// The page's side of program-worker.js: promise-returning calls, progress
// callbacks, and recovery. If the worker dies (a crash inside the wasm
// module, an out-of-memory abort) or reports an INTERNAL error, the next
// call starts a fresh worker, so one bad file never leaves the page broken.

export class WorkerError extends Error {
  constructor({ name, code, message }, description = null) {
    super(message);
    this.name = name;
    this.code = code;
    this.description = description;
  }
}

export class ProgramWorker {
  #worker = null;
  #ready = null;
  #nextId = 1;
  #pending = new Map();

  /** @param {string} packageUrl where the worker imports pt2web from */
  constructor(packageUrl) {
    this.packageUrl = packageUrl;
  }

  /**
   * Opens a File or a URL to run on `threads` threads (one where the page is
   * not cross-origin isolated); onProgress({stage, loaded, total}). Resolves
   * to the worker's open result.
   */
  async open(source, name, threads, onProgress) {
    const body = source instanceof Blob ? { file: source } : { url: String(source) };
    return this.#call({ type: 'open', name, threads, ...body }, onProgress);
  }

  /** Runs the open program: mode 'example' or 'random', or 'image' with {image, path}. */
  async run(mode, extra = {}) {
    return this.#call({ type: 'run', mode, ...extra });
  }

  #start() {
    const worker = new Worker(new URL('./program-worker.js', import.meta.url), { type: 'module', name: 'pt2web' });
    worker.onmessage = (event) => this.#receive(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      this.#fail(new WorkerError({ name: 'WorkerError', code: 'INTERNAL', message: `the worker stopped: ${event.message || 'unknown error'}` }));
    };
    this.#worker = worker;
    this.#ready = this.#send(worker, { type: 'init', packageUrl: this.packageUrl });
    this.#ready.catch(() => this.#restart());
  }

  #restart() {
    this.#worker?.terminate();
    this.#worker = null;
    this.#ready = null;
  }

  async #call(request, onProgress) {
    if (!this.#worker) this.#start();
    await this.#ready;
    try {
      return await this.#send(this.#worker, request, onProgress);
    } catch (error) {
      if (error.code === 'INTERNAL') this.#restart();
      throw error;
    }
  }

  #send(worker, request, onProgress) {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, onProgress });
      worker.postMessage({ id, ...request });
    });
  }

  #receive(message) {
    const entry = this.#pending.get(message.id);
    if (!entry) return;
    if (message.type === 'progress') return entry.onProgress?.(message);
    this.#pending.delete(message.id);
    if (message.type === 'result') entry.resolve(message.value);
    else entry.reject(new WorkerError(message.error, message.description));
  }

  // Rejects every call in flight and drops the worker.
  #fail(error) {
    for (const entry of this.#pending.values()) entry.reject(error);
    this.#pending.clear();
    this.#restart();
  }
}
