// `pt2web info MODEL.pt2 [--json]`: a readable summary of a program's
// description (src/runtime/describe.h). Works for programs pt2web cannot run
// (unsupported operators are listed, not rejected). For programs it can run,
// it also runs them once (on the archive's example inputs, or random inputs
// of valid shapes) to report the planned activation memory.

import { inspect, load } from '../index.js';
import { sampleInputs } from '../sample_inputs.js';

function formatBytes(n) {
  const value = Number(n);
  if (value < 1024) return `${value} B`;
  if (value < 1024 * 1024) return `${(value / 1024).toFixed(1)} KB`;
  return `${(value / (1024 * 1024)).toFixed(1)} MB`;
}

function formatRange([min, max]) {
  return `[${min ?? '-inf'}, ${max ?? 'inf'}]`;
}

function formatRanges(ranges) {
  const entries = Object.entries(ranges ?? {});
  return entries.map(([symbol, range]) => `${symbol} in ${formatRange(range)}`).join(', ');
}

function formatValue(entry) {
  if (entry.kind === 'tensor') return `${entry.dtype}[${entry.shape.join(', ')}]`;
  if (entry.kind === 'constant') return `${entry.type} constant = ${JSON.stringify(entry.value)}`;
  return entry.symbol ? `${entry.kind} (symbolic: ${entry.symbol})` : entry.kind;
}

function table(rows, indent = '  ') {
  const widths = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, String(cell).length)));
  return rows
    .map((row) => (indent + row.map((cell, i) => String(cell).padEnd(widths[i])).join('  ')).trimEnd())
    .join('\n');
}

function section(title, body) {
  return body ? `${title}\n${body}` : `${title}\n  (none)`;
}

function mapping(object) {
  return table(Object.entries(object).map(([k, v]) => [k, '->', v]), '    ');
}

/** The human-readable summary of a description. */
export function formatDescription(path, d) {
  const out = [];
  const archive = d.archive;
  out.push(path);
  if (archive) {
    out.push(`  archive   ${archive.kind}, program in ${archive.program_entry}, ${archive.entries.length} entries`);
    out.push(table(archive.entries.map((e) => [e.name, formatBytes(e.size)]), '    '));
  }
  out.push(`  schema    ${d.schema_version.major}.${d.schema_version.minor}` + (d.torch_version ? `  (torch ${d.torch_version})` : ''));
  out.push(`  dialect   ${d.dialect}`);
  out.push('');
  out.push(section('inputs', table(d.inputs.map((i) => [i.path, i.name, formatValue(i), formatRanges(i.ranges)]))));
  out.push(section('outputs', table(d.outputs.map((o) => [`output${o.path}`, o.name || '(constant)', formatValue(o), o.loss ? 'loss' : '']))));
  out.push(section('range constraints', table(Object.entries(d.range_constraints).map(([s, r]) => [s, formatRange(r)]))));
  if (d.guards.length) out.push(section('guards (every call must meet them)', table(d.guards.map((g) => [g]))));
  const s = d.state;
  out.push('state');
  out.push(table([
    ['parameters', s.parameters.count, formatBytes(s.parameters.bytes)],
    ['buffers', s.buffers.count, formatBytes(s.buffers.bytes)],
    ['constants', s.constants.count, formatBytes(s.constants.bytes)],
  ]));
  const sig = d.signature;
  out.push('graph signature');
  out.push('  input specs');
  out.push(table(sig.input_specs.map((x) => [x.kind, x.arg, x.target ? `-> ${x.target}` : '', x.persistent === false ? '(non-persistent)' : '']), '    '));
  out.push('  output specs');
  out.push(table(sig.output_specs.map((x) => [x.kind, x.arg || '(constant)', x.target ? `-> ${x.target}` : '']), '    '));
  for (const view of ['buffers_to_mutate', 'user_inputs_to_mutate']) {
    if (Object.keys(sig[view]).length) out.push(`  ${view}\n${mapping(sig[view])}`);
  }
  if (sig.non_persistent_buffers.length) out.push(`  non_persistent_buffers: ${sig.non_persistent_buffers.join(', ')}`);
  out.push(`  in_spec   ${d.in_spec.replace(/\n\s*/g, ' ')}`);
  out.push(`  out_spec  ${d.out_spec.replace(/\n\s*/g, ' ')}`);
  const unsupported = d.operators.filter((o) => !o.supported).length;
  out.push(`operators (${d.operators.length}, ${unsupported ? `${unsupported} unsupported` : 'all supported'})`);
  out.push(table(d.operators.map((o) => [o.target, `x${o.count}`, o.supported ? 'yes' : 'NO'])));
  return out.join('\n');
}

/**
 * Activation memory of one run: {plannedBytes, unplannedBytes, inputs} with
 * inputs 'example' or 'random', or {error} when the program cannot run.
 */
async function measureMemory(path, description) {
  if (description.operators.some((o) => !o.supported)) return { error: 'the program has unsupported operators' };
  const program = await load(path);
  try {
    const { args, kwargs, source } = sampleInputs(program);
    program.run(args, kwargs);
    return { ...program.memory, inputs: source };
  } catch (error) {
    return { error: error.message };
  } finally {
    program.dispose();
  }
}

function formatMemory(memory) {
  if (memory.error) return `activation memory\n  not measured: ${memory.error}`;
  const inputs = memory.inputs === 'example' ? "the archive's example inputs" : 'random inputs of valid shapes';
  return [
    `activation memory (one run on ${inputs})`,
    table([
      ['planned arena', formatBytes(memory.plannedBytes)],
      ['without reuse', formatBytes(memory.unplannedBytes)],
    ]),
  ].join('\n');
}

/** Runs the command; resolves to the process exit code. */
export async function info(path, { json = false } = {}) {
  const description = await inspect(path);
  const memory = await measureMemory(path, description);
  if (json) console.log(JSON.stringify({ ...description, memory }, null, 2));
  else console.log(`${formatDescription(path, description)}\n${formatMemory(memory)}`);
  return 0;
}
