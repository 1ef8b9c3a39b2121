// "Use it in your app": JavaScript that loads the opened program with the
// npm package and runs it on zero-filled inputs of the right dtypes and
// shapes, built from the description's input paths ("*args[0]['a']").
// Symbolic sizes take the smallest value their range allows; a size that is
// an expression of symbols is left for the reader, marked in a comment.
// Pure functions: text in, text out.

const ARRAY_OF = {
  float32: 'Float32Array', float64: 'Float64Array', float16: 'Uint16Array', bfloat16: 'Uint16Array',
  int64: 'BigInt64Array', int32: 'Int32Array', int16: 'Int16Array', int8: 'Int8Array', uint8: 'Uint8Array',
  bool: 'Uint8Array', uint16: 'Uint16Array', uint32: 'Uint32Array', uint64: 'BigUint64Array',
  complex64: 'Float32Array', complex128: 'Float64Array',
};

const STEP = /^(?:\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\])/;

// "*args[1]['a']" -> {root: 'args', steps: [1, 'a']}; null when unreadable.
function parsePath(path) {
  const root = /^(\*args|\*\*kwargs)/.exec(path);
  if (!root) return null;
  const steps = [];
  let rest = path.slice(root[0].length);
  while (rest) {
    const step = STEP.exec(rest);
    if (!step) return null;
    steps.push(step[1] !== undefined ? Number(step[1]) : step[2].replace(/\\(.)/g, '$1'));
    rest = rest.slice(step[0].length);
  }
  return { root: root[1] === '*args' ? 'args' : 'kwargs', steps };
}

function sizeOf(entry, ranges) {
  if (typeof entry === 'number') return { value: entry };
  const range = ranges?.[entry];
  if (range) return { value: Math.max(range[0] ?? 1, 1), note: `${entry} in [${range[0] ?? '-inf'}, ${range[1] ?? 'inf'}]` };
  return { value: null, note: entry };
}

function tensorCode(input) {
  const sizes = input.shape.map((entry) => sizeOf(entry, input.ranges));
  const shape = sizes.map((s) => (s.value === null ? `/* ${s.note} */ 1` : String(s.value)));
  const notes = sizes.filter((s) => s.note && s.value !== null).map((s) => s.note);
  const lanes = input.dtype.startsWith('complex') ? ['2'] : [];
  const count = [...shape, ...lanes].join(' * ') || '1';
  const code = `new Tensor('${input.dtype}', new ${ARRAY_OF[input.dtype] ?? 'Float32Array'}(${count}), [${shape.join(', ')}])`;
  return notes.length ? `${code} /* ${notes.join(', ')} */` : code;
}

function leafCode(input) {
  if (input.kind === 'tensor') return tensorCode(input);
  if (input.kind === 'constant') return input.value === null ? 'null' : JSON.stringify(input.value);
  if (input.kind === 'float') return 'float(1)';
  if (input.kind === 'bool') return 'true';
  return '1';
}

// Puts code at steps inside tree (arrays for indices, objects for keys).
function place(tree, steps, code) {
  let node = tree;
  steps.forEach((step, i) => {
    if (i === steps.length - 1) node[step] = { code };
    else node = node[step] ??= typeof steps[i + 1] === 'number' ? [] : {};
  });
}

function render(node, indent) {
  if (node === undefined) return 'null';
  if (node.code !== undefined) return node.code;
  const inner = `${indent}  `;
  if (Array.isArray(node)) {
    const items = Array.from(node, (item) => render(item, inner));
    return items.length ? `[\n${items.map((item) => `${inner}${item},`).join('\n')}\n${indent}]` : '[]';
  }
  const entries = Object.entries(node).map(([key, item]) => `${inner}${JSON.stringify(key)}: ${render(item, inner)},`);
  return entries.length ? `{\n${entries.join('\n')}\n${indent}}` : '{}';
}

/**
 * The snippet for a description and the file's name.
 * @returns {string}
 */
export function usageSnippet(description, fileName) {
  const call = { args: [], kwargs: {} };
  const unplaced = [];
  for (const input of description.inputs) {
    const path = parsePath(input.path);
    if (!path) unplaced.push(input.path);
    else place(call[path.root], path.steps, leafCode(input));
  }
  const helpers = description.inputs.some((i) => i.kind === 'float') ? ', float' : '';
  const kwargs = Object.keys(call.kwargs).length ? `, ${render(call.kwargs, '')}` : '';
  const outputs = description.outputs.map((o) => `//   output${o.path ?? ''}: ${o.kind === 'tensor' ? `${o.dtype}[${o.shape.join(', ')}]` : o.kind}`);
  return [
    `import { load, Tensor${helpers} } from 'pt2web';`,
    '',
    `const program = await load('${fileName.replaceAll("'", "\\'")}');`,
    `const output = program.run(${render(call.args, '')}${kwargs});`,
    ...(unplaced.length ? [`// inputs at ${unplaced.join(', ')} need placing by hand`] : []),
    ...(outputs.length ? ['// what it returns:', ...outputs] : []),
    'program.dispose();',
    '',
  ].join('\n');
}
