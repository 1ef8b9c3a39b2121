// Writes the kernel benchmark models (see kernels/kernel_models.mjs) into a
// directory: <name>.pt2, <name>.onnx and <name>.json (input shape, FLOPs),
// so they can be inspected (`node npm/bin/pt2web.mjs info DIR/NAME.pt2`).
// run.mjs calls writeKernelModels() into a temporary folder on every run;
// the files are cheap to rebuild and never committed.
//
//   node tests/bench/make_kernel_models.mjs [OUTDIR]   (default: $TMPDIR/pt2web-bench-kernels)

import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { KERNEL_SPECS, buildKernelModel } from './kernels/kernel_models.mjs';

export const DEFAULT_KERNEL_DIR = join(tmpdir(), 'pt2web-bench-kernels');

/**
 * @param {string} dir created if missing
 * @param {Array} [specs] defaults to every kernel spec
 * @returns {Array<{name, pt2Path, onnxPath, inputShape, flops}>}
 */
export function writeKernelModels(dir, specs = KERNEL_SPECS) {
  mkdirSync(dir, { recursive: true });
  return specs.map((spec) => {
    const { pt2, onnx, inputShape, flops } = buildKernelModel(spec);
    const pt2Path = join(dir, `${spec.name}.pt2`);
    const onnxPath = join(dir, `${spec.name}.onnx`);
    writeFileSync(pt2Path, pt2);
    writeFileSync(onnxPath, onnx);
    const entry = { name: spec.name, pt2Path, onnxPath, inputShape, flops };
    writeFileSync(join(dir, `${spec.name}.json`), JSON.stringify({ spec, inputShape, flops }, null, 1));
    return entry;
  });
}

// Run as a script (not when imported, nor from node -e, where argv[1] is unset).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = resolve(process.argv[2] ?? DEFAULT_KERNEL_DIR);
  for (const m of writeKernelModels(dir)) console.log(`${m.name}: ${m.pt2Path}, ${m.onnxPath}`);
}
