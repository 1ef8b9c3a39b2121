// Finds each runtime's WebAssembly.Memory so its size can be read after the
// runs. onnxruntime-web keeps its Emscripten module private, so instead of
// reaching into it we wrap WebAssembly.instantiate (and
// instantiateStreaming) before either runtime starts, and record every
// Memory an instance exports or imports, under the name of the runtime that
// is initialising at the time (whileInitialising). Worker threads
// instantiate in their own isolates with the same shared Memory, so the
// main thread's record covers them.
//
// A wasm memory only grows, so its byte length after the runs is the peak
// of that runtime in this process. Call installWasmMemoryProbe() before
// importing any runtime.

const recorded = new Map(); // owner -> Set<WebAssembly.Memory>
let owner = null;
let installed = false;

function memoriesOf(instance, imports) {
  const found = new Set();
  const consider = (value) => {
    if (value instanceof WebAssembly.Memory) found.add(value);
  };
  for (const value of Object.values(instance?.exports ?? {})) consider(value);
  for (const module of Object.values(imports ?? {})) {
    if (module && typeof module === 'object') for (const value of Object.values(module)) consider(value);
  }
  return found;
}

function record(instance, imports) {
  if (owner === null) return;
  const set = recorded.get(owner) ?? new Set();
  for (const memory of memoriesOf(instance, imports)) set.add(memory);
  recorded.set(owner, set);
}

export function installWasmMemoryProbe() {
  if (installed) return;
  installed = true;
  const instantiate = WebAssembly.instantiate;
  WebAssembly.instantiate = async function (source, imports, ...rest) {
    const result = await instantiate.call(this, source, imports, ...rest);
    record(result instanceof WebAssembly.Instance ? result : result.instance, imports);
    return result;
  };
  const streaming = WebAssembly.instantiateStreaming;
  if (typeof streaming === 'function') {
    WebAssembly.instantiateStreaming = async function (source, imports, ...rest) {
      const result = await streaming.call(this, source, imports, ...rest);
      record(result.instance, imports);
      return result;
    };
  }
}

/** Runs fn (async) with every instantiation attributed to `name`. */
export async function whileInitialising(name, fn) {
  if (!installed) throw new Error('installWasmMemoryProbe() must run before any runtime initialises');
  owner = name;
  try {
    return await fn();
  } finally {
    owner = null;
  }
}

/** Total bytes of the wasm memories recorded for `name` (null when none was seen). */
export function wasmMemoryBytes(name) {
  const set = recorded.get(name);
  if (!set || set.size === 0) return null;
  let total = 0;
  for (const memory of set) total += memory.buffer.byteLength;
  return total;
}
