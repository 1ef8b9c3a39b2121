// The worker side of load(source, {worker: true}): runs in a Web Worker
// (browsers) or a worker thread (Node), holds programs as ThreadHosts and
// answers worker_host.js's requests, one at a time, in order.
//
// Protocol (structured-clone messages; every reply echoes the request's id):
//   {id, method: 'load', bytes, options}        -> a new program (bytes: a
//                                               what worker_bytes.js posts)
//   {id, program, method: 'decompose', args}    -> a new program from one held
//   {id, program, method: 'dispose'}            frees one (the caller ends the
//                                               worker when it frees the last)
//   {id, program, method, args}                 ThreadHost.call(method, args)
//   out: {id, progress: {done, total}} while a load reads its weights, when
//        its options asked (weightProgress: true); then
//        {id, ok: true, value} or {id, ok: false, error: {name, code,
//        message}}. A new program's value is {program, summary, printed,
//        threads, threadsReason, memory64}; a call's is {value, memory?} (memory after
//        run and runProfiled). Tensors' buffers in replies are transferred.
//
// Errors: every failure is sent back as an error reply; nothing is thrown
// at the worker's top level.

import { disposedError } from './errors.js';
import { buffersOf } from './transfer.js';
import { importHidden, isNode } from './platform.js';
import { closingOnFailure } from './source.js';
import { ThreadHost } from './thread_host.js';
import { bytesInWorker } from './worker_bytes.js';

const hosts = new Map();  // program id -> ThreadHost
let nextProgram = 0;

function adopt(host) {
  const program = nextProgram++;
  hosts.set(program, host);
  return { program, summary: host.summary(), printed: host.printed(), threads: host.threads, threadsReason: host.threadsReason, memory64: host.memory64 };
}

function hostOf(program) {
  const host = hosts.get(program);
  if (!host) throw disposedError();
  return host;
}

async function reply(message, post) {
  const { method, program, args = [] } = message;
  if (method === 'load') {
    const bytes = await bytesInWorker(message.bytes);
    const { weightProgress, ...options } = message.options;
    if (weightProgress) options.onWeights = (done, total) => post({ id: message.id, progress: { done, total } });
    return adopt(await closingOnFailure(bytes, () => ThreadHost.open(bytes, options)));
  }
  if (method === 'decompose') return adopt(hostOf(program).decompose(args[0]));
  if (method === 'dispose') {
    hostOf(program).dispose();
    hosts.delete(program);
    return null;
  }
  const host = hostOf(program);
  const value = host.call(method, args);
  return { value, memory: method === 'run' || method === 'runProfiled' ? host.memory() : undefined };
}

async function answer(message, post) {
  try {
    const value = await reply(message, post);
    post({ id: message.id, ok: true, value }, [...buffersOf(value)]);
  } catch (error) {
    post({ id: message.id, ok: false, error: { name: error?.name, code: error?.code, message: String(error?.message ?? error) } });
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
