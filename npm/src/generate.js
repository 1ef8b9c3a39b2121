// Text generation with a decoder program exported with transformers' static
// key/value cache (transformers.integrations.executorch's
// TorchExportableModuleWithStaticCache, or any program of the same form):
// keyword inputs input_ids [1, n] and cache_position [n] (int64), the logits
// [1, n, vocab] as output (a tensor, or a ModelOutput with `logits`), and
// the cache kept in buffers the program writes in place (key_cache_0, ...
// of shape [batch, heads, capacity, head_dim]).
//
// generateTokens() yields each new token id as it is chosen; generate()
// collects them. Both start from the program's state at load (resetState():
// the cache and its lengths), feed the prompt (whole when input_ids' length
// is symbolic, else a token per step), then choose each next token from the
// last position's logits: the most likely one (greedy, the default), or with
// sample: true one drawn from them after transformers' processors in
// transformers' order (temperature, then top-k, then top-p), from a seeded
// stream, so the same seed gives the same text on every platform.
//
// Errors: BadInputError for a prompt or option that is not usable, or a
// program that is not of this form (naming what is missing); the program's
// own errors as run() raises them; an aborted signal rejects with its
// reason (an AbortError DOMException by default), between two steps.

import { BadInputError } from './errors.js';
import { seededRandom } from './random.js';
import { Tensor } from './tensor.js';

const OPTIONS = ['maxNewTokens', 'maxLength', 'sample', 'temperature', 'topK', 'topP', 'seed', 'stopTokens', 'signal', 'onToken'];

/**
 * Generates up to options.maxNewTokens tokens after prompt.
 * @param {any} program a loaded Program (on this thread or in a worker)
 * @param {ArrayLike<number|bigint>} prompt token ids, at least one
 * @param {object} [options] see ../README.md ("Generating text")
 * @returns {AsyncGenerator<number>} the new token ids, one at a time
 */
export async function* generateTokens(program, prompt, options = {}) {
  const settings = generationSettings(options);
  const ids = promptIds(prompt);
  const form = decoderForm(program);
  // As transformers' TorchExportableModuleWithStaticCache.generate: prompt
  // and new tokens together fill at most the cache's positions.
  const length = Math.min(form.capacity, settings.maxLength);
  if (ids.length >= length) {
    throw new BadInputError(`the prompt has ${ids.length} tokens, leaving no room in the ${length} ${limitName(form, settings)} allows`);
  }
  const budget = Math.min(settings.maxNewTokens, length - ids.length);
  const random = seededRandom(settings.seed);
  checkSignal(settings.signal);
  await program.resetState();
  let logits = null;
  let position = 0;
  const feed = async (tokens) => {
    checkSignal(settings.signal);
    logits = lastLogits(await program.run([], stepInputs(tokens, position)));
    position += tokens.length;
  };
  if (form.wholePrompt) await feed(ids);
  else for (const id of ids) await feed([id]);
  for (let made = 1; ; made++) {
    const next = settings.sample ? sampleToken(logits, settings, random) : argmax(logits);
    yield next;
    // The last token is never fed: nothing reads its logits.
    if (settings.stopTokens.has(next) || made === budget) return;
    await feed([next]);
  }
}

/**
 * generateTokens() collected: resolves to the new token ids, calling
 * options.onToken(id, index) as each is chosen.
 * @param {any} program
 * @param {ArrayLike<number|bigint>} prompt
 * @param {object} [options]
 * @returns {Promise<number[]>}
 */
export async function generate(program, prompt, options = {}) {
  const tokens = [];
  for await (const id of generateTokens(program, prompt, options)) {
    tokens.push(id);
    options.onToken?.(id, tokens.length - 1);
  }
  return tokens;
}

function generationSettings(options) {
  if (options === null || typeof options !== 'object') throw new BadInputError('generate(): options must be an object');
  for (const key of Object.keys(options)) {
    if (!OPTIONS.includes(key)) throw new BadInputError(`generate(): unknown option '${key}' (options: ${OPTIONS.join(', ')})`);
  }
  const count = (name, fallback) => {
    const value = options[name] ?? fallback;
    if (value !== Infinity && !(Number.isInteger(value) && value >= 1)) {
      throw new BadInputError(`generate(): ${name} must be a whole number of at least 1, got ${String(value)}`);
    }
    return value;
  };
  const settings = {
    maxNewTokens: count('maxNewTokens', 20),
    maxLength: count('maxLength', Infinity),
    sample: options.sample ?? false,
    temperature: options.temperature ?? 1,
    topK: options.topK ?? 0,
    topP: options.topP ?? 1,
    seed: options.seed ?? 0,
    stopTokens: new Set(Array.from(options.stopTokens ?? [], Number)),
    signal: options.signal,
  };
  if (typeof settings.sample !== 'boolean') throw new BadInputError(`generate(): sample must be true or false, got ${String(settings.sample)}`);
  if (!(settings.temperature > 0 && Number.isFinite(settings.temperature))) {
    throw new BadInputError(`generate(): temperature must be a positive number, got ${String(settings.temperature)}`);
  }
  if (!(Number.isInteger(settings.topK) && settings.topK >= 0)) {
    throw new BadInputError(`generate(): topK must be a whole number (0: no limit), got ${String(settings.topK)}`);
  }
  if (!(settings.topP > 0 && settings.topP <= 1)) throw new BadInputError(`generate(): topP must lie in (0, 1], got ${String(settings.topP)}`);
  if (!(Number.isInteger(settings.seed) && settings.seed >= 0 && settings.seed < 2 ** 32)) {
    throw new BadInputError(`generate(): seed must be a whole number from 0 to 2^32-1, got ${String(settings.seed)}`);
  }
  if (settings.signal !== undefined && typeof settings.signal?.aborted !== 'boolean') {
    throw new BadInputError('generate(): signal must be an AbortSignal');
  }
  if (options.onToken !== undefined && typeof options.onToken !== 'function') {
    throw new BadInputError('generate(): onToken must be a function');
  }
  return settings;
}

function promptIds(prompt) {
  if (prompt === null || typeof prompt !== 'object' || typeof prompt.length !== 'number' || prompt.length === 0) {
    throw new BadInputError('generate(): the prompt must be a non-empty array of token ids');
  }
  return Array.from(prompt, (id, i) => {
    const n = Number(id);
    if (!Number.isSafeInteger(n) || n < 0) throw new BadInputError(`generate(): prompt token ${i} is ${String(id)}, not a token id`);
    return n;
  });
}

// What generation needs to know of the program, from its description:
// whether input_ids takes a whole prompt, and how many positions its cache
// holds (and the buffer that says so, for messages).
function decoderForm(program) {
  const description = program.description;
  const input = (name) => description.inputs.find((entry) => entry.name === name);
  const ids = input('input_ids');
  const positions = input('cache_position');
  if (ids?.kind !== 'tensor' || positions?.kind !== 'tensor') {
    throw new BadInputError(
      'generate() needs a decoder exported with a static cache: tensor inputs input_ids and cache_position ' +
        `(this program's inputs: ${description.inputs.map((entry) => entry.name).join(', ') || 'none'})`,
    );
  }
  const cache = description.state.tensors.find((tensor) => tensor.kind === 'buffer' && /(^|\.)key_cache(_0|\.0)?$/.test(tensor.name));
  if (!cache || cache.shape.length !== 4) {
    throw new BadInputError("generate() needs the static cache's buffers (key_cache_0, ... of shape [batch, heads, positions, head_dim]); this program has none");
  }
  return { wholePrompt: typeof ids.shape[1] !== 'number', capacity: cache.shape[2], cacheName: cache.name };
}

function limitName(form, settings) {
  return settings.maxLength < form.capacity ? 'tokens maxLength' : `positions of the static cache (${form.cacheName})`;
}

function stepInputs(tokens, start) {
  return {
    input_ids: new Tensor('int64', BigInt64Array.from(tokens, BigInt), [1, tokens.length]),
    cache_position: new Tensor('int64', BigInt64Array.from(tokens, (_, i) => BigInt(start + i)), [tokens.length]),
  };
}

// The last position's logits as numbers.
function lastLogits(output) {
  const logits = output instanceof Tensor ? output : output?.logits ?? (Array.isArray(output) ? output[0] : undefined);
  if (!(logits instanceof Tensor) || logits.rank !== 3) {
    throw new BadInputError("generate() needs the program to return the logits [1, n, vocab] (a tensor, or a ModelOutput's 'logits'); it returned something else");
  }
  const vocab = logits.shape[2];
  const row = logits.shape[1] - 1;
  const values = logits.dtype === 'float32' || logits.dtype === 'float64' ? logits.data : Float64Array.from(logits.toArray());
  return values.subarray(row * vocab, (row + 1) * vocab);
}

function checkSignal(signal) {
  if (!signal?.aborted) return;
  throw signal.reason ?? new DOMException('generation was aborted', 'AbortError');
}

// The first index of the largest value (torch.argmax's choice among ties).
function argmax(values) {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i] > values[best]) best = i;
  return best;
}

// A token drawn from softmax(logits / temperature) restricted to the topK
// most likely and then to the smallest set whose probability reaches topP.
function sampleToken(logits, { temperature, topK, topP }, random) {
  const order = Array.from(logits.keys()).sort((a, b) => logits[b] - logits[a] || a - b);
  const kept = topK > 0 ? order.slice(0, topK) : order;
  const top = logits[kept[0]] / temperature;
  const weights = kept.map((id) => Math.exp(logits[id] / temperature - top));
  const total = weights.reduce((a, b) => a + b, 0);
  let count = kept.length;
  if (topP < 1) {
    // transformers drops the tokens whose cumulative probability, from the
    // least likely up, stays within 1 - topP; the most likely always stays.
    let cumulative = 0;
    count = 0;
    for (const weight of weights) {
      count += 1;
      cumulative += weight / total;
      if (cumulative >= topP) break;
    }
  }
  const mass = weights.slice(0, count).reduce((a, b) => a + b, 0);
  let draw = random() * mass;
  for (let i = 0; i < count; i++) {
    draw -= weights[i];
    if (draw < 0) return kept[i];
  }
  return kept[count - 1];
}
