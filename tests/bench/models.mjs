// What the benchmark runs: the fixtures that have a model.onnx, at the
// input sizes of issue #4, and the kernel-level models (written by
// make_kernel_models.mjs). Each entry becomes a plain, serialisable job
// description for a worker process:
//   {name, kind: 'model'|'kernel', pt2Path, onnxPath, inputs: [{shape, indexBound?}], flops?, note?}
// note: a deviation from the setup, printed with the report.
// Input dtypes are not listed here: the worker takes them from the pt2web
// program's description and checks them against the ONNX model's. Integer
// (token id) inputs draw values below the row count of the embedding named
// in `indexBoundFrom`, read from the fixture's meta.json state_dict.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { KERNEL_SPECS } from './kernels/kernel_models.mjs';
import { writeKernelModels } from './make_kernel_models.mjs';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

export const FIXTURE_MODELS = [
  { name: 'mlp_dynamic', inputs: [{ shape: [512, 16] }] },
  { name: 'digits_cnn', inputs: [{ shape: [32, 1, 8, 8] }] },
  { name: 'tiny_transformer', inputs: [{ shape: [2, 64], indexBoundFrom: 'tok.weight' }] },
  {
    name: 'encoder_small',
    inputs: [{ shape: [1, 64], indexBoundFrom: 'tok.weight' }],
    note:
      'runs at 1x64, not 1x128 as issue #4 asks: the fixture\'s model.onnx has the sequence length 64 fixed in its ' +
      'attention Reshape nodes (requested shape {64,4,64}), so onnxruntime-web rejects any other length',
  },
  { name: 'mobilenet_v2', inputs: [{ shape: [1, 3, 224, 224] }] },
  { name: 'vision_zoo', inputs: [{ shape: [2, 3, 16, 16] }] },
  { name: 'lstm_gru', inputs: [{ shape: [2, 7], indexBoundFrom: 'emb.weight' }] },
];

function embeddingRows(fixtureDir, weightName) {
  const meta = JSON.parse(readFileSync(`${fixtureDir}/meta.json`, 'utf8'));
  const entry = meta.state_dict?.[weightName];
  if (!entry) throw new Error(`${fixtureDir}/meta.json: no state_dict entry '${weightName}' to bound the token ids`);
  const [, shape] = entry;
  return shape[0];
}

function fixtureJob({ name, inputs, note }, dialect) {
  const dir = `${FIXTURES}${name}`;
  return {
    name,
    kind: 'model',
    pt2Path: `${dir}/${dialect === 'core' ? 'model.core.pt2' : 'model.pt2'}`,
    onnxPath: `${dir}/model.onnx`,
    note: note ?? null,
    inputs: inputs.map(({ shape, indexBoundFrom }) =>
      indexBoundFrom ? { shape, indexBound: embeddingRows(dir, indexBoundFrom) } : { shape },
    ),
  };
}

function matches(name, filter) {
  if (!filter) return true;
  return filter.split(',').some((part) => part && name.includes(part));
}

/**
 * The jobs to run, fixtures first, then kernels (whose files are written to kernelDir).
 * @param {{filter?: string, dialect?: 'training'|'core', kernelDir: string}} options
 *   filter: comma-separated substrings of model names
 */
export function benchmarkJobs({ filter, dialect = 'training', kernelDir }) {
  const models = FIXTURE_MODELS.filter((m) => matches(m.name, filter)).map((m) => fixtureJob(m, dialect));
  const specs = KERNEL_SPECS.filter((s) => matches(s.name, filter));
  const kernels = specs.length
    ? writeKernelModels(kernelDir, specs).map((k) => ({
        name: k.name,
        kind: 'kernel',
        pt2Path: k.pt2Path,
        onnxPath: k.onnxPath,
        inputs: [{ shape: k.inputShape }],
        flops: k.flops,
      }))
    : [];
  return [...models, ...kernels];
}
