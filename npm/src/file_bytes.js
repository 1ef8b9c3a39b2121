// A local file (Node) as the bytes of a program, for load() and inspect()
// given a path or a file: URL. The core reads the ranges it needs through
// readInto (bindings/js_byte_source.h): the zip directory, the program's
// JSON and each weight, each read by the operating system straight into the
// wasm memory where that weight then lives. No JavaScript buffer holds the
// file, so a file's size is not bounded by Node's 2 GiB readFile limit and
// its weights are held once.
//
// Ownership: the file stays open while a program loaded from it lives
// (weights no node reads are read when stateDict() or save() asks for them);
// the core calls close() when it lets go, or the caller does if it never
// hands the reader over. Errors: opening fails with the system's error
// (ENOENT, EACCES, ...) or 'it is a directory'; readInto never throws (an
// exception would unwind through wasm frames) and returns '' or what went
// wrong, which the core reports as a BadFileError.

import { importHidden } from './platform.js';

// Node reads at most 2 GiB - 1 bytes per call.
const MOST_PER_READ = 1 << 30;

export class FileBytes {
  #fs;
  #fd;

  /** @internal use openFileBytes() */
  constructor(fs, fd, byteLength, path) {
    this.#fs = fs;
    this.#fd = fd;
    /** The file's size when it was opened. */
    this.byteLength = byteLength;
    /** The file's path, for messages and for opening it again in a worker. */
    this.path = path;
  }

  /**
   * Fills target with the file's bytes from offset on.
   * @param {number} offset
   * @param {Uint8Array} target
   * @returns {string} '' when done, else what went wrong
   */
  readInto(offset, target) {
    if (this.#fd === null) return `${this.path} was closed`;
    let done = 0;
    try {
      while (done < target.length) {
        const length = Math.min(target.length - done, MOST_PER_READ);
        const got = this.#fs.readSync(this.#fd, target, done, length, offset + done);
        if (got === 0) {
          return `${this.path} ended at ${offset + done} bytes, but was ${this.byteLength} bytes when it was opened (it changed on disk)`;
        }
        done += got;
      }
      return '';
    } catch (error) {
      return `cannot read ${this.path}: ${error?.message ?? error}`;
    }
  }

  close() {
    if (this.#fd === null) return;
    try {
      this.#fs.closeSync(this.#fd);
    } catch {
      // Closing a descriptor the system already dropped has nothing to undo.
    }
    this.#fd = null;
  }
}

/**
 * Opens a local file for reading (Node only).
 * @param {URL|string} location a file: URL or a path
 * @returns {Promise<FileBytes>}
 */
export async function openFileBytes(location) {
  const [fs, { fileURLToPath }] = await Promise.all([importHidden('node:fs'), importHidden('node:url')]);
  const path = location instanceof URL ? fileURLToPath(location) : location;
  const fd = fs.openSync(path, 'r');
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new Error(stat.isDirectory() ? 'it is a directory' : 'it is not a regular file');
    return new FileBytes(fs, fd, stat.size, path);
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}
