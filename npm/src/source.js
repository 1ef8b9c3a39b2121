// Reads a program's bytes from whatever load() was given:
//   string      a URL (fetched; relative to the page in browsers), or in Node
//               a file path unless it has a scheme such as https://
//   URL         fetched, or read from disk in Node when it is a file: URL
//   Response    a fetch() response whose body has not been read yet
//   Blob/File   e.g. from an <input type="file"> or a drop
//   ArrayBuffer, Uint8Array or another typed array / DataView: used as is
// onProgress({loaded, total}) is called as bytes arrive (total: null when
// the size is unknown) and once at the end with loaded === total.
//
// Errors: an unreadable file, a failed fetch or an HTTP error status is a
// BadFileError naming the file or URL; a source of another kind, or a used
// Response body, is a BadInputError.

import { BadFileError, BadInputError } from './errors.js';
import { displayName, isLocalFile, readLocalFile, resolveLocation } from './platform.js';

function fileError(where, cause) {
  const reason = cause instanceof Error ? cause.message : String(cause);
  const error = new BadFileError(`cannot read ${where}: ${reason}`);
  error.cause = cause;
  return error;
}

function reporter(onProgress) {
  if (onProgress !== undefined && typeof onProgress !== 'function') {
    throw new BadInputError('options.onProgress must be a function');
  }
  return (loaded, total) => onProgress?.({ loaded, total });
}

// Reads a stream of Uint8Array chunks into one array, reporting progress.
async function readStream(stream, total, report) {
  const reader = stream.getReader();
  const chunks = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.byteLength;
    report(loaded, total);
  }
  const bytes = new Uint8Array(loaded);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

async function readResponse(response, where, report) {
  if (!response.ok) throw fileError(where, `HTTP ${response.status} ${response.statusText}`.trim());
  if (response.bodyUsed) throw new BadInputError(`the body of the response for ${where} was already read`);
  const length = Number(response.headers.get('content-length'));
  // Compressed responses announce the compressed size; only trust the header when it cannot mislead.
  const encoded = (response.headers.get('content-encoding') ?? 'identity') !== 'identity';
  const total = Number.isFinite(length) && length > 0 && !encoded ? length : null;
  try {
    if (response.body) return await readStream(response.body, total, report);
    return new Uint8Array(await response.arrayBuffer());
  } catch (cause) {
    throw fileError(where, cause);
  }
}

async function fetchBytes(url, report) {
  let response;
  try {
    response = await fetch(url);
  } catch (cause) {
    throw fileError(url.href, cause);
  }
  return readResponse(response, url.href, report);
}

async function readUrl(url, report) {
  if (!isLocalFile(url)) return fetchBytes(url, report);
  try {
    return await readLocalFile(url);
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
 * Resolves to {bytes: Uint8Array, label: string}; label names the program
 * in error messages (options.label, or the file name or URL).
 */
export async function readSource(source, { label, onProgress } = {}) {
  const report = reporter(onProgress);
  let bytes;
  let name;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    bytes = viewBytes(source);
    name = 'program.pt2';
  } else if (typeof Response === 'function' && source instanceof Response) {
    name = source.url || 'the response';
    bytes = await readResponse(source, name, report);
  } else if (typeof Blob === 'function' && source instanceof Blob) {
    name = source.name || 'the blob';
    try {
      bytes = await readStream(source.stream(), source.size, report);
    } catch (cause) {
      throw fileError(name, cause);
    }
  } else if (typeof source === 'string' || source instanceof URL) {
    const url = source instanceof URL ? source : await resolveLocation(source);
    name = typeof source === 'string' ? source : displayName(url);
    bytes = await readUrl(url, report);
  } else {
    throw new BadInputError(
      `load() needs a URL, a file path (Node), a Response, a Blob, an ArrayBuffer or a Uint8Array, got ${describeKind(source)}`,
    );
  }
  report(bytes.byteLength, bytes.byteLength);
  return { bytes, label: label ?? name };
}
