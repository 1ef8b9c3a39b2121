// Program.runDecompositions() and Program.save() (issue 13's JavaScript
// side), and the CLI's `pt2web decompose`: the decomposed program is
// torch's ATen program (it passes the fixture's cases.core.json, which
// torch's own run_decompositions() gave), the saved bytes load again and
// pass too, --preserve keeps operators, and refusals leave the program usable.

import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { BadInputError, Program, load } from '../../npm/src/index.js';
import { decodeCall, readCases } from '../../npm/src/cli/cases.js';
import { compareAll } from '../../npm/src/cli/compare.js';
import { FIXTURES, runCli } from './helpers.mjs';

const MLP = join(FIXTURES, 'mlp');

// Runs every case of a cases file on the program: torch's outputs, or a BAD_INPUT refusal where torch raised.
async function assertPassesCases(program, casesFile) {
  const { cases } = await readCases(join(MLP, casesFile));
  assert.ok(cases.length > 0);
  for (const testCase of cases) {
    const { args, kwargs } = decodeCall(testCase);
    if (testCase.error !== undefined) {
      assert.throws(() => program.run(args, kwargs), { code: 'BAD_INPUT' }, testCase.name);
      continue;
    }
    const result = compareAll([['output', program.run(args, kwargs), testCase.expected]], { rtol: testCase.rtol ?? 0, atol: testCase.atol ?? 0 });
    assert.ok(result.ok, `${casesFile} ${testCase.name}: ${result.problem}`);
  }
}

const qualified = (program) => program.operators.map((op) => op.qualified).sort();

test('runDecompositions gives torch ATen program, and save() gives bytes that load again', async () => {
  const program = await load(join(MLP, 'model.pt2'));
  try {
    assert.equal(program.dialect, 'TRAINING');
    assert.ok(qualified(program).includes('aten::linear.default'));
    const decomposed = program.runDecompositions();
    try {
      assert.ok(decomposed instanceof Program && decomposed !== program);
      assert.equal(decomposed.dialect, 'ATEN');
      assert.ok(!qualified(decomposed).includes('aten::linear.default'));
      await assertPassesCases(decomposed, 'cases.core.json');
      const bytes = decomposed.save();
      assert.ok(bytes instanceof Uint8Array && bytes.length > 0);
      const reloaded = await load(bytes);
      try {
        assert.equal(reloaded.dialect, 'ATEN');
        assert.deepEqual(qualified(reloaded), qualified(decomposed));
        await assertPassesCases(reloaded, 'cases.core.json');
      } finally {
        reloaded.dispose();
      }
    } finally {
      decomposed.dispose();
    }
    assert.equal(program.dialect, 'TRAINING');  // unchanged
    await assertPassesCases(program, 'cases.json');
  } finally {
    program.dispose();
  }
});

test('preserve keeps operators; what cannot be preserved is refused and the program stays usable', async () => {
  const program = await load(join(MLP, 'model.pt2'));
  try {
    const kept = program.runDecompositions({ preserve: ['aten.linear.default'] });
    try {
      assert.ok(qualified(kept).includes('aten::linear.default'));
      await assertPassesCases(kept, 'cases.core.json');
    } finally {
      kept.dispose();
    }
    assert.throws(() => program.runDecompositions({ preserve: ['aten.add_.Tensor'] }), (error) => error instanceof BadInputError);
    assert.throws(() => program.runDecompositions({ preserve: 'aten.linear.default' }), { code: 'BAD_INPUT', message: /preserve must be an array/ });
    assert.throws(() => program.runDecompositions({ keep: [] }), { code: 'BAD_INPUT', message: /unknown option keep/ });
    await assertPassesCases(program, 'cases.json');
  } finally {
    program.dispose();
  }
});

test('pt2web decompose writes a program that pt2web check --core passes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pt2web-decompose-'));
  try {
    const out = join(dir, 'model.core.pt2');
    const result = runCli('decompose', join(MLP, 'model.pt2'), out, '--preserve', 'aten.relu.default');
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /\(TRAINING\): .*aten\.linear\.default x2/);
    assert.match(result.stdout, /model\.core\.pt2 \(ATEN\): .*aten\.addmm\.default/);
    copyFileSync(join(MLP, 'cases.core.json'), join(dir, 'cases.core.json'));
    const check = runCli('check', dir, '--core');
    assert.equal(check.status, 0, `${check.stdout}\n${check.stderr}`);
    const refused = runCli('decompose', join(MLP, 'model.pt2'), out, '--preserve', 'aten.add_.Tensor');
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /BAD_INPUT/);
    assert.equal(runCli('decompose', join(MLP, 'model.pt2')).status, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
