// The TypeScript declarations (npm/index.d.ts), written by hand, cannot
// drift from the code: every name src/index.js exports is declared (and
// nothing else), every public member of Program and Tensor too, and tsc
// checks the sources (their inferred and JSDoc types) against the
// declarations (types/source_matches_declarations.mts). The usage file
// tests/package/app/types_usage.mts passes `tsc --strict` against them with
// TypeScript's default lib and no skipLibCheck.

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

// The declarations' syntax tree; rolldown (Vite's bundler, a dev dependency) parses TypeScript declarations.
async function declarations() {
  const npmRequire = createRequire(join(REPO, 'npm', 'package.json'));
  const { parseAst } = await import(pathToFileURL(npmRequire.resolve('rolldown/parseAst')).href);
  return parseAst(readFileSync(DECLARATIONS, 'utf8'), { lang: 'dts' });
}

// Names of the members a class or interface of the file declares, its
// base class's included.
function declaredMembers(ast, name) {
  for (const node of ast.body) {
    const declaration = node.type === 'ExportNamedDeclaration' ? node.declaration : node;
    if (declaration?.id?.name !== name || !['ClassDeclaration', 'TSInterfaceDeclaration'].includes(declaration.type)) continue;
    const members = declaration.body.body;
    const own = members.filter((m) => m.key && !m.computed && m.key.name !== 'constructor').map((m) => m.key.name);
    const base = declaration.superClass?.name;
    return new Set([...own, ...(base ? declaredMembers(ast, base) : [])]);
  }
  throw new Error(`${name} is not declared`);
}

// Names of the public members of a class's instances (its prototype chain up to Object).
function runtimeMembers(Class) {
  const names = new Set();
  for (let proto = Class.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const name of Object.getOwnPropertyNames(proto)) if (name !== 'constructor') names.add(name);
  }
  return names;
}

test('every member of Program and Tensor is declared, and every declared member exists', async () => {
  const ast = await declarations();
  assert.deepEqual([...declaredMembers(ast, 'Program')].sort(), [...runtimeMembers(api.Program)].sort(), 'Program');
  // Tensor's fields are set in its constructor.
  const tensor = new api.Tensor('float32', [1, 2]);
  const fields = [...runtimeMembers(api.Tensor), ...Object.keys(tensor)];
  assert.deepEqual([...declaredMembers(ast, 'Tensor')].sort(), fields.sort());
});

test('every runtime export is declared, and every declared value exists', async () => {
  const ast = await declarations();
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

// Runs tsc --strict (TypeScript's default lib, 'pt2web' resolved to the
// declarations) on one file; extra: more compiler options.
function typeCheck(file, extra = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'pt2web-types-'));
  try {
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'es2022',
        module: 'esnext',
        moduleResolution: 'bundler',
        types: [],
        paths: { pt2web: [DECLARATIONS] },
        ...extra,
      },
      files: [file],
    }));
    const result = spawnSync(process.execPath, [TSC, '-p', dir], { encoding: 'utf8' });
    assert.equal(result.status, 0, `tsc failed on ${file}:\n${result.stdout}${result.stderr}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('the usage file type-checks with tsc --strict and the default lib', () => {
  typeCheck(join(REPO, 'tests', 'package', 'app', 'types_usage.mts'));
});

test('the JavaScript sources fit the declarations (tsc --strict --allowJs)', () => {
  typeCheck(join(REPO, 'tests', 'js', 'types', 'source_matches_declarations.mts'), { allowJs: true, checkJs: false });
});
