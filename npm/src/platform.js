// What differs between Node and browsers, in one place: whether we run in
// Node, how a string names a resource there (a URL with a scheme, or else a
// file path), and reading local files. Node's modules are imported lazily,
// by a computed name, so that browsers never load them and bundlers neither
// try to resolve them nor warn about them.

/**
 * The key of a disposable's dispose method (`using` declarations): the
 * runtime's Symbol.dispose, or where it has none yet the symbol that
 * polyfills (and later runtimes) register under the same name.
 * @type {typeof Symbol.dispose}
 */
export const DISPOSE = Symbol.dispose ?? Symbol.for('Symbol.dispose');

/** True in Node.js (and runtimes that present themselves as Node). */
export const isNode = typeof process === 'object' && process.versions != null && process.versions.node != null;

/**
 * import() hidden from bundlers (Vite, webpack, Rollup): for Node built-ins,
 * which browsers never load, and for URLs known only at run time.
 */
export function importHidden(specifier) {
  return import(/* webpackIgnore: true */ /* @vite-ignore */ specifier);
}

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * A string as a URL: in browsers relative to the page; in Node a string
 * without a scheme (`http://`, `file://`, ...) is a file path, made absolute
 * against the working directory.
 */
export async function resolveLocation(text) {
  if (isNode && !SCHEME.test(text)) {
    const [{ pathToFileURL }, { resolve }] = await Promise.all([importHidden('node:url'), importHidden('node:path')]);
    return pathToFileURL(resolve(text));
  }
  return new URL(text, globalThis.location?.href);
}

/** True for a URL Node reads from disk rather than fetching. */
export function isLocalFile(url) {
  return isNode && url.protocol === 'file:';
}

/** The bytes of a local file (Node), and its size; errors keep the cause. */
export async function readLocalFile(url) {
  const [{ readFile }, { fileURLToPath }] = await Promise.all([importHidden('node:fs/promises'), importHidden('node:url')]);
  return readFile(fileURLToPath(url));
}

/** A file URL shown as a path (Node), any other URL as itself. */
export function displayName(url) {
  return url.protocol === 'file:' ? decodeURIComponent(url.pathname) : url.href;
}
