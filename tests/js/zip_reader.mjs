// Reads the entries of a stored (uncompressed) ZIP archive, such as a legacy
// .pt2 fixture, so a test can change one entry and write the archive again
// with tests/bench/kernels/zip_writer.mjs. Sizes come from the central
// directory, data offsets from the local headers; no zip64, no compression
// (it throws on either, since the fixtures use neither).

const textDecoder = new TextDecoder();

/** @returns {Array<{name: string, data: Uint8Array}>} in central-directory order */
export function readStoredZip(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = bytes.length - 22;
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end--;
  if (end < 0) throw new Error('readStoredZip: no end of central directory record');
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const entries = [];
  for (let k = 0; k < count; k++) {
    if (view.getUint32(at, true) !== 0x02014b50) throw new Error('readStoredZip: bad central header');
    if (view.getUint16(at + 10, true) !== 0) throw new Error('readStoredZip: compressed entry');
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const skip = nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    const name = textDecoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    const data = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    entries.push({ name, data: bytes.slice(data, data + size) });
    at += 46 + skip;
  }
  return entries;
}
