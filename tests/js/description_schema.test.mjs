// One schema for a program's description (src/runtime/description.schema.json):
// every program of the test corpus (fixtures, torch 2.14 exports,
// decompositions, int8, transformers), described by the core, fits it
// exactly (no member it does not declare, none it requires missing), and the
// package's types (npm/description.d.ts) are what the schema generates, so
// neither the core nor the types can drift from it. Tensor.DTYPES is the
// schema's DType.

import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { DTYPES, inspect, load } from '../../npm/src/index.js';
import { SCHEMA_FILE, TYPES_FILE, descriptionTypes } from '../../npm/tools/description_types.mjs';
import { REPO } from './helpers.mjs';

const schema = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8'));

// The problems of `value` against `node` (JSON Schema's keywords the schema
// uses), each naming where: [] when it fits.
function problems(value, node, where = '$') {
  if (node.$ref) return problems(value, schema.$defs[node.$ref.slice('#/$defs/'.length)], where);
  if (node.anyOf) {
    const each = node.anyOf.map((option) => problems(value, option, where));
    return each.some((list) => list.length === 0) ? [] : [`${where}: fits none of its forms (${each.map((list) => list[0]).join('; ')})`];
  }
  if ('const' in node && value !== node.const) return [`${where}: ${JSON.stringify(value)} is not ${JSON.stringify(node.const)}`];
  if (node.enum && !node.enum.includes(value)) return [`${where}: ${JSON.stringify(value)} is not one of ${node.enum.join(', ')}`];
  if (node.type) {
    const kind = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
    const fits = node.type === 'integer' ? Number.isInteger(value) : kind === node.type;
    if (!fits) return [`${where}: a ${kind}, not a ${node.type}`];
  }
  const found = [];
  if (Array.isArray(value)) {
    if (node.minItems !== undefined && value.length < node.minItems) found.push(`${where}: ${value.length} items, fewer than ${node.minItems}`);
    value.forEach((item, i) => {
      const itemSchema = node.prefixItems?.[i] ?? node.items;
      if (itemSchema === false) found.push(`${where}[${i}]: no item allowed here`);
      else if (itemSchema) found.push(...problems(item, itemSchema, `${where}[${i}]`));
    });
  } else if (value !== null && typeof value === 'object') {
    for (const key of node.required ?? []) if (!(key in value)) found.push(`${where}: no '${key}'`);
    for (const [key, item] of Object.entries(value)) {
      const memberSchema = node.properties?.[key] ?? node.additionalProperties;
      if (memberSchema === false || memberSchema === undefined) found.push(`${where}: '${key}' is not in the schema`);
      else found.push(...problems(item, memberSchema, `${where}.${key}`));
    }
  }
  return found;
}

// Every .pt2 of the corpus folders, as [name, path].
function corpus() {
  const programs = [];
  for (const folder of ['fixtures', 'fixtures-2.14', 'fixtures-export', 'fixtures-decomp', 'fixtures-int8', 'fixtures-transformers']) {
    const root = join(REPO, 'tests', folder);
    if (!existsSync(root)) continue;
    for (const entry of readdirSync(root, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      for (const file of readdirSync(join(root, entry.name))) {
        if (file.endsWith('.pt2')) programs.push([`${folder}/${entry.name}/${file}`, join(root, entry.name, file)]);
      }
    }
  }
  return programs;
}

test('the validator finds what does not fit', () => {
  assert.deepEqual(problems({ major: 8 }, schema.properties.schema_version), ["$: no 'minor'"]);
  assert.deepEqual(problems({ major: 8, minor: 2, patch: 0 }, schema.properties.schema_version), ["$: 'patch' is not in the schema"]);
  assert.equal(problems([1, null, 3], { $ref: '#/$defs/Range' }).length, 1);
  assert.equal(problems({ kind: 'tensor', path: '', name: 'x', dtype: 'float33', shape: [], ranges: {} }, { $ref: '#/$defs/InputDescription' }).length, 1);
});

test('every program of the corpus is described as the schema says', async () => {
  const programs = corpus();
  assert.ok(programs.length >= 100, `only ${programs.length} programs found`);
  const failures = [];
  let described = 0;
  for (const [name, file] of programs) {
    let description;
    try {
      description = await inspect(file);
    } catch (error) {
      // A few corpus archives are refused on purpose (their folder's README says which); only descriptions are checked here.
      continue;
    }
    described++;
    failures.push(...problems(description, schema).map((problem) => `${name}: ${problem}`));
  }
  assert.ok(described >= 100, `only ${described} of ${programs.length} programs could be described`);
  assert.deepEqual(failures.slice(0, 20), []);
});

test('a loaded program\'s description (printed included) fits too', async () => {
  const program = await load(join(REPO, 'tests', 'fixtures', 'pytree_io', 'model.pt2'));
  try {
    assert.deepEqual(problems(program.description, schema), []);
    assert.equal(typeof program.description.printed, 'string');
  } finally {
    program.dispose();
  }
});

test('npm/description.d.ts is what the schema generates, and DTYPES is its DType', () => {
  assert.equal(readFileSync(TYPES_FILE, 'utf8'), descriptionTypes(schema), 'run node npm/tools/description_types.mjs');
  assert.deepEqual([...DTYPES], schema.$defs.DType.enum);
});
