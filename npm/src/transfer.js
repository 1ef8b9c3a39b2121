// What a message to or from a worker can move rather than copy: the
// buffers of the typed arrays in a value (tensors' data), each once.

/**
 * @param {unknown} value
 * @param {Set<ArrayBufferLike>} [out]
 * @returns {Set<ArrayBufferLike>}
 */
export function buffersOf(value, out = new Set()) {
  if (ArrayBuffer.isView(value)) out.add(value.buffer);
  else if (Array.isArray(value)) for (const item of value) buffersOf(item, out);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) buffersOf(item, out);
  return out;
}
