// How a program's bytes cross to the worker of load(source, {worker: true}),
// both directions of it in one place: an open local file goes as its path
// (the worker opens the file again and reads it itself), downloaded chunks
// are moved rather than copied, and a Uint8Array goes as it is.
//
// Errors: the worker side fails as openFileBytes() does for a file that is
// gone by then.

import { ChunkBytes } from './chunk_bytes.js';
import { FileBytes, openFileBytes } from './file_bytes.js';

/**
 * The calling side: what to post, and the buffers to move with it.
 * Closes a FileBytes (the worker opens its own).
 * @returns {{bytes: any, transfer: ArrayBuffer[]}}
 */
export function bytesForWorker(bytes) {
  if (bytes instanceof FileBytes) {
    bytes.close();
    return { bytes: { path: bytes.path }, transfer: [] };
  }
  if (bytes instanceof ChunkBytes) return { bytes: { chunks: bytes.chunks }, transfer: [...new Set(bytes.chunks.map((chunk) => chunk.buffer))] };
  return { bytes, transfer: [] };
}

/** The worker side: the bytes bytesForWorker() posted, ready for the core. */
export async function bytesInWorker(posted) {
  if (posted instanceof Uint8Array) return posted;
  if (typeof posted?.path === 'string') return openFileBytes(posted.path);
  if (Array.isArray(posted?.chunks)) return new ChunkBytes(posted.chunks);
  return posted;
}
