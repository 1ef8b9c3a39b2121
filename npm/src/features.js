// The WebAssembly features pt2web's builds need, probed before anything is
// instantiated, so an engine that lacks one is told so in one sentence
// (which feature, which engines have it) rather than failing deep inside
// instantiation with a validation error.
//
// Each probe is the smallest module that uses the feature, handed to
// WebAssembly.validate (which compiles nothing and is cheap). Both builds
// use SIMD128 and WebAssembly exception handling (-msimd128,
// -fwasm-exceptions); the threaded build adds shared memory and atomics; the
// Memory64 build adds 64-bit memories and tables, and the JavaScript API that
// makes them (`address: 'i64'` with BigInt sizes): Node 22 validates a 64-bit
// memory but has neither 64-bit tables nor that API, so it counts as without.

import { UnsupportedError } from './errors.js';

const FEATURES = {
  simd128: {
    name: 'WebAssembly SIMD (128-bit)',
    engines: 'Chrome and Edge 91, Firefox 89, Safari 16.4, Node 16.4',
    // (func (result v128) i32.const 0 i8x16.splat i8x16.popcnt)
    probe: [0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11],
  },
  exceptions: {
    name: 'WebAssembly exception handling',
    engines: 'Chrome and Edge 95, Firefox 100, Safari 15.2, Node 17',
    // (func try catch_all end)
    probe: [0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 10, 8, 1, 6, 0, 6, 64, 25, 11, 11],
  },
  threads: {
    name: 'WebAssembly threads (shared memory and atomics)',
    engines: 'Chrome and Edge 74, Firefox 79, Safari 14.1, Node 16; in browsers only on cross-origin isolated pages',
    // (memory 1 1 shared) (func i32.const 0 i32.atomic.load drop)
    probe: [0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 5, 4, 1, 3, 1, 1, 10, 11, 1, 9, 0, 65, 0, 254, 16, 2, 0, 26, 11],
  },
  memory64: {
    name: 'WebAssembly Memory64',
    engines: 'Chrome and Edge 133, Firefox 134, Node 24',
    // (memory i64 1)
    probe: [0, 97, 115, 109, 1, 0, 0, 0, 5, 3, 1, 4, 1],
  },
};

// The engine's own answers, probed once (every load asks).
const engineValidate = globalThis.WebAssembly?.validate;
let engineFeatures = null;

/** What each build needs. */
export const BUILD_FEATURES = {
  single: ['simd128', 'exceptions'],
  threads: ['simd128', 'exceptions', 'threads'],
  memory64: ['simd128', 'exceptions', 'memory64'],
};

// Whether this engine's JavaScript API makes 64-bit memories and tables.
function hasMemory64Api() {
  try {
    new WebAssembly.Memory({ initial: 1n, maximum: 1n, address: 'i64' });
    new WebAssembly.Table({ element: 'anyfunc', initial: 1n, address: 'i64' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Which of the features this engine has.
 * @param {(bytes: Uint8Array) => boolean} [validate] WebAssembly.validate (another for tests)
 * @returns {{simd128: boolean, exceptions: boolean, threads: boolean, memory64: boolean}}
 */
export function wasmFeatures(validate = globalThis.WebAssembly?.validate) {
  const has = (name) => {
    if (typeof validate !== 'function') return false;
    try {
      return validate.call(globalThis.WebAssembly, new Uint8Array(FEATURES[name].probe)) === true;
    } catch {
      return false;
    }
  };
  // The API is the engine's own, so it is asked only of the engine's own validate.
  const memory64 = has('memory64') && (validate !== engineValidate || hasMemory64Api());
  return { simd128: has('simd128'), exceptions: has('exceptions'), threads: has('threads'), memory64 };
}

/**
 * The sentence that says which of `needed` this engine lacks, or null when it has them all.
 * @param {string[]} needed names from BUILD_FEATURES
 * @param {((bytes: Uint8Array) => boolean) | null} [validate] null: an engine without WebAssembly
 */
export function missingFeatureReason(needed, validate = globalThis.WebAssembly?.validate) {
  if (typeof validate !== 'function') {
    return 'this JavaScript engine has no WebAssembly at all (every current browser and Node has it)';
  }
  const found = validate === engineValidate ? (engineFeatures ??= wasmFeatures(validate)) : wasmFeatures(validate);
  const missing = needed.filter((name) => !found[name]);
  if (missing.length === 0) return null;
  const feature = FEATURES[missing[0]];
  return `this JavaScript engine lacks ${feature.name}, which pt2web needs; it is in ${feature.engines} and later` +
    (missing.length > 1 ? ` (also missing: ${missing.slice(1).map((name) => FEATURES[name].name).join(', ')})` : '');
}

/**
 * Throws an UnsupportedError naming the first missing feature of a build.
 * @param {keyof typeof BUILD_FEATURES} build
 */
export function requireFeatures(build) {
  const reason = missingFeatureReason(BUILD_FEATURES[build]);
  if (reason) throw new UnsupportedError(reason);
}
