// The worker side of load(source, {worker: true}): runs in a Web Worker
// (browsers) or a worker thread (Node), loads one program with load() and
// answers worker_program.js's requests, one at a time, in order.
//
// Protocol (structured-clone messages):
//   in:  {id, method: 'load', bytes, options} then {id, method, args}
//        for run, runProfiled, exampleInputs, stateDict, resetState, setRandomSeed (the
//        caller ends the worker to dispose of the program).
//   out: {id, ok: true, value, memory?} or {id, ok: false, error: {name,
//        code, message}}; output tensors' buffers are transferred.
//
// Errors: every failure is sent back as an error reply; nothing is thrown
// at the worker's top level.

import { load } from './index.js';
import { importHidden, isNode } from './platform.js';
import { Tensor } from './tensor.js';

// The typed array buffers in a value, each once, to transfer.
function buffersOf(value, out = new Set()) {
  if (value instanceof Tensor) out.add(value.data.buffer);
  else if (Array.isArray(value)) for (const item of value) buffersOf(item, out);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) buffersOf(item, out);
  return out;
}

let program = null;

const METHODS = {
  async load({ bytes, options }) {
    program = await load(bytes, options);
    return { description: program.description, threads: program.threads, threadsReason: program.threadsReason };
  },
  run: ([args, kwargs]) => program.run(args, kwargs),
  runProfiled: ([args, kwargs]) => program.runProfiled(args, kwargs),
  exampleInputs: () => program.exampleInputs(),
  stateDict: () => program.stateDict(),
  resetState: () => program.resetState(),
  setRandomSeed: (seed) => program.setRandomSeed(seed),
};

async function answer(message, post) {
  const { id, method } = message;
  try {
    const value = await METHODS[method](method === 'load' ? message : message.args);
    const memory = method === 'run' || method === 'runProfiled' ? program.memory : undefined;
    post({ id, ok: true, value, memory }, [...buffersOf(value)]);
  } catch (error) {
    post({ id, ok: false, error: { name: error?.name, code: error?.code, message: String(error?.message ?? error) } });
  }
}

async function serve() {
  const port = isNode ? (await importHidden('node:worker_threads')).parentPort : globalThis;
  const post = (message, transfer) => port.postMessage(message, transfer);
  let queue = Promise.resolve();
  const onMessage = (message) => {
    queue = queue.then(() => answer(message, post));
  };
  if (isNode) port.on('message', onMessage);
  else port.addEventListener('message', (event) => onMessage(event.data));
}

serve();
