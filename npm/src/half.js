// 16-bit floats (float16, bfloat16) stored as raw bits in Uint16Array
// elements: bits -> JS numbers and back.

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

/** A number to IEEE 754 half precision bits, rounding to nearest even. */
export function numberToFloat16(value) {
  scratch.setFloat32(0, value);
  const bits = scratch.getUint32(0);
  const sign = (bits >>> 16) & 0x8000;
  const exponent = (bits >>> 23) & 0xff;
  let mantissa = bits & 0x7fffff;
  if (exponent === 0xff) return sign | 0x7c00 | (mantissa ? 0x200 : 0);  // inf or nan
  let halfExponent = exponent - 127 + 15;
  if (halfExponent >= 0x1f) return sign | 0x7c00;  // overflow to infinity
  if (halfExponent <= 0) {
    if (halfExponent < -10) return sign;  // underflow to zero
    mantissa |= 0x800000;  // subnormal: make the leading one explicit and shift it in
    const shift = 14 - halfExponent;
    const rounded = mantissa >>> shift;
    const remainder = mantissa & ((1 << shift) - 1);
    const halfway = 1 << (shift - 1);
    const up = remainder > halfway || (remainder === halfway && (rounded & 1));
    return sign | (rounded + (up ? 1 : 0));
  }
  const rounded = mantissa >>> 13;
  const remainder = mantissa & 0x1fff;
  const up = remainder > 0x1000 || (remainder === 0x1000 && (rounded & 1));
  // A carry out of the mantissa correctly bumps the exponent (and may reach infinity).
  return sign | ((halfExponent << 10) + rounded + (up ? 1 : 0));
}

/** A number to bfloat16 bits (the top half of its float32), rounding to nearest even. */
export function numberToBfloat16(value) {
  scratch.setFloat32(0, value);
  const bits = scratch.getUint32(0);
  if (Number.isNaN(value)) return (bits >>> 16) | 0x40;
  const rounding = 0x7fff + ((bits >>> 16) & 1);
  return ((bits + rounding) >>> 16) & 0xffff;
}
