// The feature probe (npm/src/features.js): before anything is instantiated,
// an engine without SIMD128 or exception handling gets one sentence saying
// which feature it lacks and which engines have it; an engine without
// threads runs on one thread and says why. The probes themselves are real
// modules: this engine validates every one it has.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';

import { wasmFeatures } from '../../npm/src/index.js';
import { missingFeatureReason } from '../../npm/src/features.js';
import { FIXTURES, REPO } from './helpers.mjs';

test('this Node has what both builds need, and the probes are valid modules', () => {
  const found = wasmFeatures();
  assert.equal(found.simd128, true);
  assert.equal(found.exceptions, true);
  assert.equal(found.threads, true);
  // Memory64 is on by default in Node 24 (V8 13.6) and in late Node 22
  // releases (22.23 has it); Node 20's V8 lacks it.
  const major = Number(process.versions.node.split('.')[0]);
  assert.equal(typeof found.memory64, 'boolean');
  if (major <= 20) assert.equal(found.memory64, false);
  if (major >= 24) assert.equal(found.memory64, true);
});

test('a missing feature is named, with the engines that have it', () => {
  const lacking = (name) => (bytes) => {
    // Each probe's code section holds the one instruction family it tests.
    const probes = { simd128: 253, exceptions: 6, threads: 254 };
    return !bytes.includes(probes[name]);
  };
  assert.match(missingFeatureReason(['simd128', 'exceptions'], lacking('simd128')), /lacks WebAssembly SIMD \(128-bit\), which pt2web needs; it is in Chrome .*Safari 16\.4/);
  assert.match(missingFeatureReason(['simd128', 'exceptions'], lacking('exceptions')), /lacks WebAssembly exception handling/);
  assert.equal(missingFeatureReason(['simd128', 'exceptions'], lacking('threads')), null);
  assert.match(missingFeatureReason(['simd128', 'exceptions', 'threads'], () => false), /lacks WebAssembly SIMD .*also missing: WebAssembly exception handling, WebAssembly threads/);
  assert.match(missingFeatureReason(['simd128'], null), /no WebAssembly at all/);  // an engine without WebAssembly
});

// A Node whose WebAssembly.validate refuses what `refuse` matches, running `script`.
function nodeWithout(refuse, script) {
  const stub = `const validate = WebAssembly.validate; WebAssembly.validate = (bytes) => (${refuse})(bytes) ? false : validate(bytes);`;
  return spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(stub)}`, '--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 60_000,
  });
}

const model = JSON.stringify(join(FIXTURES, 'mlp', 'model.pt2'));
const entry = JSON.stringify(join(REPO, 'npm', 'src', 'index.js'));

test('load() on an engine without SIMD128 rejects with the sentence, before instantiating', () => {
  const result = nodeWithout('(bytes) => bytes.includes(253)', `
    import { load } from ${entry};
    try { await load(${model}); console.log('loaded'); }
    catch (error) { console.log(error.code + ': ' + error.message); }
  `);
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /^UNSUPPORTED: this JavaScript engine lacks WebAssembly SIMD \(128-bit\), which pt2web needs/m);
});

test('threads asked for on an engine without them: one thread, and the reason', () => {
  const result = nodeWithout('(bytes) => bytes.includes(254)', `
    import { load } from ${entry};
    const program = await load(${model}, { threads: 2 });
    console.log(program.threads + ' ' + program.threadsReason);
    program.dispose();
  `);
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /^1 2 threads were asked for, but this JavaScript engine lacks WebAssembly threads/m);
});
