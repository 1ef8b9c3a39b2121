// Values that are there now (a program on the calling thread) or later (a
// program in a worker), handled by one code path.

/**
 * fn(value) now, or once a Promise resolves.
 * @template T, U
 * @param {T | Promise<T>} value
 * @param {(value: T) => U} fn
 * @returns {U | Promise<U>}
 */
export function settle(value, fn) {
  return value instanceof Promise ? value.then(fn) : fn(value);
}
