// Reads a program's bytes from whatever load() was given:
//   string      a URL (fetched; relative to the page in browsers), or in Node
//               a file path unless it has a scheme such as https://
//   URL         fetched, or read from disk in Node when it is a file: URL
//               (local files are not read here: they come back open, as a
//               FileBytes that the core reads range by range, file_bytes.js)
//   Response    a fetch() response whose body has not been read yet
//   Blob/File   e.g. from an <input type="file"> or a drop
//   ReadableStream  of Uint8Array chunks (e.g. a decompressing stream)
//               (downloads and blobs are kept as the chunks they streamed
//               in, a ChunkBytes: chunk_bytes.js)
//   ArrayBuffer, Uint8Array or another typed array / DataView: used as is
// progress.download(loaded, total) is called as bytes arrive (total: null
// when the size is unknown) and progress.downloaded(size) at the end (see
// progress.js). With cache: true, fetched URLs go through the browser's
// Cache API (model_cache.js).
//
// Errors: an unreadable file, a failed fetch or an HTTP error status is a
// BadFileError naming the file or URL; a source of another kind, or a used
// Response body, is a BadInputError.

import { BadFileError, BadInputError } from './errors.js';
import { fetchThroughCache } from './model_cache.js';
import { ChunkBytes } from './chunk_bytes.js';
import { openFileBytes } from './file_bytes.js';
import { displayName, isLocalFile, resolveLocation } from './platform.js';
import { progressReporter } from './progress.js';

function fileError(where, cause) {
  const reason = cause instanceof Error ? cause.message : String(cause);
  const error = new BadFileError(`cannot read ${where}: ${reason}`);
  error.cause = cause;
  return error;
}

// Reads a stream of Uint8Array chunks, reporting progress; the chunks are
// kept as they came (chunk_bytes.js), never joined.
async function readStream(stream, total, progress) {
  const reader = stream.getReader();
  const chunks = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!(value instanceof Uint8Array)) throw new BadInputError(`the stream gave a chunk that is not a Uint8Array (${describeKind(value)})`);
    chunks.push(value);
    loaded += value.byteLength;
    progress.download(loaded, total);
  }
  return new ChunkBytes(chunks);
}

async function readResponse(response, where, progress) {
  if (!response.ok) throw fileError(where, `HTTP ${response.status} ${response.statusText}`.trim());
  if (response.bodyUsed) throw new BadInputError(`the body of the response for ${where} was already read`);
  const length = Number(response.headers.get('content-length'));
  // Compressed responses announce the compressed size; only trust the header when it cannot mislead.
  const encoded = (response.headers.get('content-encoding') ?? 'identity') !== 'identity';
  const total = Number.isFinite(length) && length > 0 && !encoded ? length : null;
  try {
    if (response.body) return await readStream(response.body, total, progress);
    return new ChunkBytes([new Uint8Array(await response.arrayBuffer())]);
  } catch (cause) {
    throw fileError(where, cause);
  }
}

async function fetchBytes(url, progress, cache) {
  let response;
  try {
    response = cache ? (await fetchThroughCache(url)).response : await fetch(url);
  } catch (cause) {
    throw fileError(url.href, cause);
  }
  return readResponse(response, url.href, progress);
}

async function readUrl(url, progress, cache) {
  if (!isLocalFile(url)) return fetchBytes(url, progress, cache);
  try {
    return await openFileBytes(url);
  } catch (cause) {
    throw fileError(displayName(url), cause);
  }
}

function viewBytes(source) {
  if (source instanceof Uint8Array) return source;
  if (source instanceof ArrayBuffer) return new Uint8Array(source);
  return new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
}

function describeKind(source) {
  if (source === null) return 'null';
  if (typeof source !== 'object') return typeof source;
  return source.constructor?.name ?? 'object';
}

/**
 * Resolves to {bytes, label}: bytes a Uint8Array (what the caller gave), a
 * ChunkBytes (a download or a Blob, as it streamed in) or a FileBytes (a
 * local file, open); label names the program in error messages
 * (options.label, or the file name or URL). Hand the bytes to the core,
 * which closes them when done, or close them.
 * @param {{label?: string, progress?: object, cache?: boolean}} [options]
 *   progress: a progressReporter (default: none)
 */
export async function readSource(source, { label, progress = progressReporter(undefined), cache = false } = {}) {
  let bytes;
  let name;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    bytes = viewBytes(source);
    name = 'program.pt2';
  } else if (typeof Response === 'function' && source instanceof Response) {
    name = source.url || 'the response';
    bytes = await readResponse(source, name, progress);
  } else if (typeof ReadableStream === 'function' && source instanceof ReadableStream) {
    name = 'the stream';
    try {
      bytes = await readStream(source, null, progress);
    } catch (cause) {
      throw cause instanceof BadInputError ? cause : fileError(name, cause);
    }
  } else if (typeof Blob === 'function' && source instanceof Blob) {
    name = source.name || 'the blob';
    try {
      bytes = await readStream(source.stream(), source.size, progress);
    } catch (cause) {
      throw fileError(name, cause);
    }
  } else if (typeof source === 'string' || source instanceof URL) {
    const url = source instanceof URL ? source : await resolveLocation(source);
    name = typeof source === 'string' ? source : displayName(url);
    bytes = await readUrl(url, progress, cache);
  } else {
    throw new BadInputError(
      `load() needs a URL, a file path (Node), a Response, a Blob, a ReadableStream, an ArrayBuffer or a Uint8Array, got ${describeKind(source)}`,
    );
  }
  progress.downloaded(bytes.byteLength);
  return { bytes, label: label ?? name };
}

/**
 * What open(bytes) resolves to; if it fails, the bytes readSource() gave are
 * closed (a source the core took is closed by the core already, and closing
 * twice does nothing).
 * @template T
 * @param {any} bytes
 * @param {() => T | Promise<T>} open
 * @returns {Promise<T>}
 */
export async function closingOnFailure(bytes, open) {
  try {
    return await open();
  } catch (error) {
    bytes.close?.();
    throw error;
  }
}
