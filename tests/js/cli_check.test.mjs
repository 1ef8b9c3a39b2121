// `pt2web check` on the fixtures the core runs end to end, in both dialects.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { join } from 'node:path';

import { FIXTURES, runCli } from './helpers.mjs';

for (const fixture of ['mlp', 'mlp_dynamic']) {
  for (const core of [false, true]) {
    const label = `check ${fixture}${core ? ' --core' : ''}`;
    test(label, () => {
      const args = ['check', join(FIXTURES, fixture), ...(core ? ['--core'] : [])];
      const { status, stdout, stderr } = runCli(...args);
      const summary = stdout.trim().split('\n').at(-1);
      assert.match(summary, /^\d+ passed, 0 failed$/, `${stdout}${stderr}`);
      assert.equal(status, 0, `${stdout}${stderr}`);
    });
  }
}
