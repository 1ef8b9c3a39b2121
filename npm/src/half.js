// 16-bit floats stored as raw bits (Uint16Array elements) -> JS numbers.

/** IEEE 754 half precision bits to a number. */
export function float16ToNumber(bits) {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 0x1f) return fraction ? NaN : sign * Infinity;
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}

const scratch = new DataView(new ArrayBuffer(4));

/** bfloat16 bits (the top half of a float32) to a number. */
export function bfloat16ToNumber(bits) {
  scratch.setUint32(0, (bits & 0xffff) << 16);
  return scratch.getFloat32(0);
}
