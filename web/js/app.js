// The demo page's entry point: shows what this browser offers (SIMD,
// cross-origin isolation for threads) and sets up the three cards.

import { setupDrawCard } from './draw-card.js';
import { h, replaceChildren, byId } from './dom.js';
import { setupGenerateCard } from './generate-card.js';
import { setupOpenCard } from './open-card.js';

// A minimal module using SIMD instructions (i8x16.splat, i8x16.popcnt): it validates only where wasm SIMD exists.
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);

function environmentBadges() {
  const simd = typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE);
  const isolated = globalThis.crossOriginIsolated === true;
  const badge = (ok, text, title) => h('li', { class: ok ? 'badge ok' : 'badge off', title }, text);
  replaceChildren(
    byId('environment'),
    badge(simd, simd ? 'WebAssembly SIMD ✓' : 'no WebAssembly SIMD', 'pt2web needs wasm SIMD128'),
    badge(
      isolated,
      isolated ? 'cross-origin isolated: threads possible ✓' : 'not cross-origin isolated: no threads',
      'SharedArrayBuffer (and so wasm threads) needs the COOP/COEP headers that web/serve.mjs sends',
    ),
    badge(true, `${navigator.hardwareConcurrency ?? '?'} CPU threads`, 'navigator.hardwareConcurrency'),
  );
}

environmentBadges();
setupOpenCard();
setupDrawCard();
setupGenerateCard();
