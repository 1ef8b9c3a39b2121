// The bytes of a program that arrived as a stream (a fetch() body, a Blob),
// kept as the chunks they came in. The core reads the ranges it needs
// through readInto (bindings/js_byte_source.h), so the chunks are never
// joined into one buffer: no single allocation as large as the file (which
// browsers and Node cap), and no second copy of it at the end of the
// download. Once loaded, the core lets go of a source it no longer needs
// (every weight read) and close() drops the chunks for the garbage collector.
//
// Ownership: holds the chunks until close(). Errors: readInto never throws
// (an exception would unwind through wasm frames); it returns '' or what
// went wrong.

export class ChunkBytes {
  #chunks;
  #starts;  // #starts[i]: the offset of chunk i's first byte

  /** @param {Uint8Array[]} chunks */
  constructor(chunks) {
    this.#chunks = chunks;
    this.#starts = [];
    let offset = 0;
    for (const chunk of chunks) {
      this.#starts.push(offset);
      offset += chunk.byteLength;
    }
    /** The bytes in all. */
    this.byteLength = offset;
  }

  /** The chunks, for a worker to rebuild them (null once closed). */
  get chunks() {
    return this.#chunks;
  }

  /**
   * Fills target with the bytes from offset on.
   * @param {number} offset
   * @param {Uint8Array} target
   * @returns {string} '' when done, else what went wrong
   */
  readInto(offset, target) {
    if (this.#chunks === null) return 'the downloaded bytes were already let go';
    if (offset < 0 || offset + target.length > this.byteLength) {
      return `a read of ${target.length} bytes at ${offset} lies outside the ${this.byteLength} bytes downloaded`;
    }
    let index = this.#chunkAt(offset);
    let done = 0;
    while (done < target.length) {
      const chunk = this.#chunks[index];
      const from = offset + done - this.#starts[index];
      const part = chunk.subarray(from, Math.min(chunk.byteLength, from + target.length - done));
      target.set(part, done);
      done += part.byteLength;
      index += 1;
    }
    return '';
  }

  close() {
    this.#chunks = null;
  }

  // The chunk holding byte `offset` (binary search; empty chunks skipped).
  #chunkAt(offset) {
    let low = 0;
    let high = this.#starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.#starts[middle] <= offset) low = middle;
      else high = middle - 1;
    }
    while (low < this.#chunks.length - 1 && this.#chunks[low].byteLength === 0) low += 1;
    return low;
  }
}
