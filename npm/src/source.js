// Reads a program's bytes from whatever load() was given: a file path or
// URL (Node reads files; browsers and http(s) URLs use fetch), a Uint8Array
// or other ArrayBuffer view, or an ArrayBuffer.

import { BadFileError, BadInputError } from './errors.js';

const isNode = typeof process === 'object' && process.versions != null && process.versions.node != null;

function isHttp(text) {
  return /^https?:\/\//i.test(text);
}

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new BadFileError(`cannot fetch ${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

async function readFileBytes(path) {
  const { readFile } = await import('node:fs/promises');
  try {
    return await readFile(path);
  } catch (cause) {
    const error = new BadFileError(`cannot read ${path}: ${cause.message}`);
    error.cause = cause;
    throw error;
  }
}

/** Resolves to {bytes: Uint8Array, label: string}. */
export async function readSource(source, label) {
  if (source instanceof Uint8Array) return { bytes: source, label: label ?? 'program.pt2' };
  if (ArrayBuffer.isView(source)) {
    return { bytes: new Uint8Array(source.buffer, source.byteOffset, source.byteLength), label: label ?? 'program.pt2' };
  }
  if (source instanceof ArrayBuffer) return { bytes: new Uint8Array(source), label: label ?? 'program.pt2' };
  if (source instanceof URL) {
    if (isNode && source.protocol === 'file:') return { bytes: await readFileBytes(source), label: label ?? source.pathname };
    return { bytes: await fetchBytes(source.href), label: label ?? source.href };
  }
  if (typeof source === 'string') {
    if (isNode && !isHttp(source)) return { bytes: await readFileBytes(source), label: label ?? source };
    return { bytes: await fetchBytes(source), label: label ?? source };
  }
  throw new BadInputError('load() needs a path, a URL, a Uint8Array or an ArrayBuffer');
}
