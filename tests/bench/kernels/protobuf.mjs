// A minimal protocol-buffers wire-format writer, just enough to hand-encode
// ONNX ModelProto messages (see onnx_writer.mjs). A message is built as a
// list of fields and encoded to bytes with encodeMessage(); nested messages
// are encoded first and passed in as bytes.
//
// Supported field kinds: varint (int32/int64/enum/bool, non-negative or
// negative as 10-byte two's complement), length-delimited (bytes, strings,
// nested messages) and 32-bit floats. Repeated fields are written unpacked
// (one tag per element), which every protobuf parser accepts.

const WIRE_VARINT = 0;
const WIRE_LENGTH_DELIMITED = 2;
const WIRE_FIXED32 = 5;

const textEncoder = new TextEncoder();

function varintBytes(value) {
  let v = BigInt.asUintN(64, BigInt(value));
  const out = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v !== 0n) byte |= 0x80;
    out.push(byte);
  } while (v !== 0n);
  return out;
}

function tagBytes(fieldNumber, wireType) {
  return varintBytes((fieldNumber << 3) | wireType);
}

/** Collects encoded fields in order; bytes() concatenates them. */
export class MessageWriter {
  #chunks = [];

  /** An integer field (int32, int64, enum, bool). */
  varint(fieldNumber, value) {
    this.#chunks.push(Uint8Array.from([...tagBytes(fieldNumber, WIRE_VARINT), ...varintBytes(value)]));
    return this;
  }

  /** A repeated integer field, unpacked. */
  varints(fieldNumber, values) {
    for (const v of values) this.varint(fieldNumber, v);
    return this;
  }

  /** A 32-bit float field. */
  float(fieldNumber, value) {
    const body = new Uint8Array(4);
    new DataView(body.buffer).setFloat32(0, value, true);
    this.#chunks.push(Uint8Array.from(tagBytes(fieldNumber, WIRE_FIXED32)), body);
    return this;
  }

  /** A length-delimited field: raw bytes or an already encoded nested message. */
  bytes(fieldNumber, body) {
    this.#chunks.push(Uint8Array.from([...tagBytes(fieldNumber, WIRE_LENGTH_DELIMITED), ...varintBytes(body.length)]));
    this.#chunks.push(body);
    return this;
  }

  /** A UTF-8 string field. */
  string(fieldNumber, text) {
    return this.bytes(fieldNumber, textEncoder.encode(text));
  }

  /** The encoded message. */
  finish() {
    const total = this.#chunks.reduce((n, c) => n + c.length, 0);
    const out = new Uint8Array(total);
    let at = 0;
    for (const c of this.#chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }
}
