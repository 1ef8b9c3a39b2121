#!/usr/bin/env node
// Writes npm/description.d.ts, the TypeScript types of a program's
// description, from the one schema the core's describe_program follows
// (src/runtime/description.schema.json). tests/js/description_schema.test.mjs
// fails when the file is not what this writes, and checks the corpus's
// descriptions against the schema, so neither side can drift.
//
//   node npm/tools/description_types.mjs           rewrite npm/description.d.ts
//   node npm/tools/description_types.mjs --check   exit 1 if it is out of date
//
// It reads the part of JSON Schema the file uses: type, const, enum, anyOf,
// properties / required / additionalProperties, items / prefixItems, $ref
// to $defs, description (as doc comments); $comment is for maintainers only.

import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const SCHEMA_FILE = fileURLToPath(new URL('../../src/runtime/description.schema.json', import.meta.url));
export const TYPES_FILE = fileURLToPath(new URL('../description.d.ts', import.meta.url));

const SCALARS = { string: 'string', number: 'number', integer: 'number', boolean: 'boolean', null: 'null' };

function refName(ref) {
  const match = /^#\/\$defs\/(\w+)$/.exec(ref);
  if (!match) throw new Error(`description schema: unsupported $ref ${ref}`);
  return match[1];
}

function docComment(text, indent) {
  if (!text) return '';
  const words = text.split(/\s+/);
  const lines = [];
  let line = '';
  for (const word of words) {
    if (line && line.length + word.length + 1 > 100 - indent.length) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} * ${l}`).join('\n')}\n${indent} */\n`;
}

// An anyOf of string literals and `string`: the literals stay visible to
// editors while any string is allowed.
function openStringUnion(options) {
  const literals = options.filter((o) => o.enum && o.enum.every((v) => typeof v === 'string'));
  const plain = options.filter((o) => o.type === 'string' && Object.keys(o).length === 1);
  if (literals.length !== 1 || plain.length !== 1 || options.length !== 2) return null;
  return [...literals[0].enum.map((v) => JSON.stringify(v).replace(/"/g, "'")), '(string & {})'].join(' | ');
}

function objectType(schema, indent) {
  const required = new Set(schema.required ?? []);
  const inner = `${indent}  `;
  const members = Object.entries(schema.properties).map(([key, value]) => {
    const name = /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
    return `${docComment(value.description, inner)}${inner}${name}${required.has(key) ? '' : '?'}: ${tsOf(value, inner)};`;
  });
  if (schema.additionalProperties && schema.additionalProperties !== false) {
    members.push(`${inner}[key: string]: ${tsOf(schema.additionalProperties, inner)};`);
  }
  return `{\n${members.join('\n')}\n${indent}}`;
}

function tsOf(schema, indent = '') {
  if (schema.$ref) return refName(schema.$ref);
  if ('const' in schema) return JSON.stringify(schema.const).replace(/"/g, "'");
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v).replace(/"/g, "'")).join(' | ');
  if (schema.anyOf) {
    const open = openStringUnion(schema.anyOf);
    if (open) return open;
    const parts = schema.anyOf.map((option) => tsOf(option, indent));
    return parts.map((part) => (part.includes(' | ') && !part.startsWith('{') ? `(${part})` : part)).join(' | ');
  }
  if (schema.type === 'array') {
    if (schema.prefixItems) return `[${schema.prefixItems.map((item) => tsOf(item, indent)).join(', ')}]`;
    const item = tsOf(schema.items, indent);
    return /^[\w']+$/.test(item) ? `${item}[]` : `Array<${item}>`;
  }
  if (schema.type === 'object') {
    if (schema.properties) return objectType(schema, indent);
    return `Record<string, ${tsOf(schema.additionalProperties, indent)}>`;
  }
  if (SCALARS[schema.type]) return SCALARS[schema.type];
  throw new Error(`description schema: cannot type ${JSON.stringify(schema)}`);
}

function declaration(name, schema) {
  const doc = docComment(schema.description, '');
  if (schema.type === 'object' && schema.properties) return `${doc}export interface ${name} ${objectType(schema, '')}\n`;
  return `${doc}export type ${name} = ${tsOf(schema)};\n`;
}

/** The text of npm/description.d.ts for a schema. */
export function descriptionTypes(schema) {
  const { $defs, title, $comment, ...root } = schema;
  const parts = [
    '// The types of a program\'s description (Program.description, inspect()).\n' +
      '// Generated from src/runtime/description.schema.json by\n' +
      '// npm/tools/description_types.mjs: edit the schema, then run the tool.\n',
    ...Object.entries($defs).map(([name, def]) => declaration(name, def)),
    declaration(title, root),
  ];
  return parts.join('\n');
}

function main() {
  const text = descriptionTypes(JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')));
  if (process.argv.includes('--check')) {
    const current = readFileSync(TYPES_FILE, 'utf8');
    if (current !== text) {
      console.error('npm/description.d.ts is out of date: run node npm/tools/description_types.mjs');
      process.exit(1);
    }
    return;
  }
  writeFileSync(TYPES_FILE, text);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
