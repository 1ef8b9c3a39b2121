// The TypeScript declarations (npm/index.d.ts): every name src/index.js
// exports is declared (and nothing else), and the usage file
// tests/package/app/types_usage.mts passes `tsc --strict` against them.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

import * as api from '../../npm/src/index.js';
import { REPO } from './helpers.mjs';

const DECLARATIONS = join(REPO, 'npm', 'index.d.ts');
const TSC = join(REPO, 'npm', 'node_modules', 'typescript', 'bin', 'tsc');

test('every runtime export is declared, and every declared value exists', async () => {
  // rolldown (Vite's bundler, a dev dependency) parses TypeScript declarations.
  const npmRequire = createRequire(join(REPO, 'npm', 'package.json'));
  const { parseAst } = await import(pathToFileURL(npmRequire.resolve('rolldown/parseAst')).href);
  const ast = parseAst(readFileSync(DECLARATIONS, 'utf8'), { lang: 'dts' });
  const values = new Set();
  for (const node of ast.body) {
    const declaration = node.type === 'ExportNamedDeclaration' ? node.declaration : null;
    if (!declaration) continue;
    if (declaration.type === 'FunctionDeclaration' || declaration.type === 'TSDeclareFunction' || declaration.type === 'ClassDeclaration') {
      values.add(declaration.id.name);
    } else if (declaration.type === 'VariableDeclaration') {
      for (const d of declaration.declarations) values.add(d.id.name);
    }
  }
  assert.deepEqual([...values].sort(), Object.keys(api).sort());
});

test('the usage file type-checks with tsc --strict', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pt2web-types-'));
  try {
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'es2022',
        module: 'esnext',
        moduleResolution: 'bundler',
        lib: ['es2022', 'dom', 'esnext.disposable'],
        types: [],
        paths: { pt2web: [DECLARATIONS] },
      },
      files: [join(REPO, 'tests', 'package', 'app', 'types_usage.mts')],
    }));
    const result = spawnSync(process.execPath, [TSC, '-p', dir], { encoding: 'utf8' });
    assert.equal(result.status, 0, `tsc failed:\n${result.stdout}${result.stderr}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
