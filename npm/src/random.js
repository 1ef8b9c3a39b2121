// A small seeded pseudo-random generator (mulberry32), so that random inputs
// are reproducible from a seed on every platform.

/** A generator of floats in [0, 1) from a 32-bit integer seed. */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [low, high] (inclusive) from a generator. */
export function randomInteger(random, low, high) {
  return low + Math.floor(random() * (high - low + 1));
}
