// Renders a program's description (what `pt2web info` shows): a summary of
// the archive, the user inputs with shapes and symbol ranges, the outputs,
// the weights, the graph signature, every operator (unsupported ones
// marked), the program as torch prints it and, for a program that loaded,
// code to use it in an app. Returns a DOM tree; all text from the file goes
// in as text.

import { h } from './dom.js';
import { formatBytes, formatMs, formatRange, formatShape, shortTarget } from './format.js';
import { usageSnippet } from './snippet.js';

function typeOf(entry) {
  if (entry.kind === 'tensor') return `${entry.dtype ?? '?'}${formatShape(entry.shape)}`;
  if (entry.kind === 'constant') return `${entry.type} = ${JSON.stringify(entry.value)}`;
  return entry.symbol ? `${entry.kind} (${entry.symbol})` : entry.kind;
}

function rangesOf(entry) {
  return Object.entries(entry.ranges ?? {})
    .map(([symbol, range]) => `${symbol} ∈ ${formatRange(range)}`)
    .join(', ');
}

function table(headers, rows, className = '') {
  return h(
    'div',
    { class: 'table-scroll' },
    h(
      'table',
      { class: className || null },
      h('thead', {}, h('tr', {}, headers.map((title) => h('th', {}, title)))),
      h('tbody', {}, rows.map((cells) => h('tr', {}, cells.map((cell) => h('td', {}, cell))))),
    ),
  );
}

function fact(label, value, extra = {}) {
  return h('div', { class: 'fact', ...extra }, h('span', { class: 'fact-label' }, label), h('span', { class: 'fact-value' }, value));
}

function weightsText(state) {
  const parts = [
    ['parameter', state.parameters],
    ['buffer', state.buffers],
    ['constant', state.constants],
  ]
    .filter(([, totals]) => totals && Number(totals.count) > 0)
    .map(([name, totals]) => `${totals.count} ${name}${Number(totals.count) === 1 ? '' : 's'}`);
  const bytes = ['parameters', 'buffers', 'constants'].reduce((sum, key) => sum + Number(state[key]?.bytes ?? 0), 0);
  return parts.length ? `${formatBytes(bytes)} in ${parts.join(', ')}` : 'none';
}

function operatorChips(operators) {
  return h(
    'ul',
    { class: 'chips', id: 'operator-list' },
    operators.map((op) =>
      h(
        'li',
        { class: op.supported ? 'chip' : 'chip unsupported', title: op.qualified ?? op.target, dataset: { target: op.target } },
        shortTarget(op.target),
        h('span', { class: 'chip-count' }, `×${op.count}`),
        op.supported ? null : h('span', { class: 'chip-flag' }, 'unsupported'),
      ),
    ),
  );
}

function signatureTables(signature) {
  return [
    h('h4', {}, 'Input specs'),
    table(
      ['kind', 'argument', 'target'],
      signature.input_specs.map((s) => [s.kind, s.arg, [s.target ?? '', s.persistent === false ? ' (non-persistent)' : ''].join('')]),
      'compact',
    ),
    h('h4', {}, 'Output specs'),
    table(['kind', 'argument', 'target'], signature.output_specs.map((s) => [s.kind, s.arg || '(constant)', s.target ?? '']), 'compact'),
  ];
}

/**
 * @param {object} d the description
 * @param {{name: string, bytes?: number, loadMs?: number, threads?: number, runnable?: boolean}} file
 *   runnable: the program loaded (then a usage snippet is shown)
 */
export function programView(d, file) {
  const unsupported = d.operators.filter((op) => !op.supported).length;
  const operatorsText = `${d.operators.length} (${unsupported ? `${unsupported} unsupported` : 'all supported'})`;
  const archive = d.archive;
  return h(
    'div',
    { class: 'program-view' },
    h(
      'div',
      { class: 'facts' },
      fact('file', file.name),
      file.bytes !== undefined ? fact('size', formatBytes(file.bytes)) : null,
      fact('dialect', d.dialect),
      fact('torch', d.torch_version || '?'),
      fact('schema', `${d.schema_version.major}.${d.schema_version.minor}`),
      fact('operators', operatorsText, { class: unsupported ? 'fact warn' : 'fact' }),
      fact('weights', weightsText(d.state)),
      file.loadMs !== undefined ? fact('prepared in', formatMs(file.loadMs)) : null,
      file.threads !== undefined ? fact('threads', String(file.threads)) : null,
    ),
    h('h3', {}, 'Inputs'),
    d.inputs.length
      ? table(['path', 'name', 'type', 'ranges'], d.inputs.map((i) => [h('code', {}, i.path), i.name, h('code', {}, typeOf(i)), rangesOf(i)]), 'inputs-table')
      : h('p', { class: 'muted' }, 'none'),
    h('h3', {}, 'Outputs'),
    d.outputs.length
      ? table(['path', 'name', 'type'], d.outputs.map((o) => [h('code', {}, `output${o.path ?? ''}`), o.name || '(constant)', h('code', {}, typeOf(o))]), 'outputs-table')
      : h('p', { class: 'muted' }, 'none'),
    h('h3', {}, `Operators · ${operatorsText}`),
    operatorChips(d.operators),
    h(
      'details',
      {},
      h('summary', {}, 'Graph signature'),
      signatureTables(d.signature),
      h('p', { class: 'spec' }, h('strong', {}, 'in_spec '), h('code', {}, d.in_spec)),
      h('p', { class: 'spec' }, h('strong', {}, 'out_spec '), h('code', {}, d.out_spec)),
    ),
    archive
      ? h(
          'details',
          {},
          h('summary', {}, `Archive · ${archive.kind}, ${archive.entries.length} entries`),
          table(['entry', 'size'], archive.entries.map((e) => [h('code', {}, e.name), formatBytes(e.size)]), 'compact'),
        )
      : null,
    d.printed ? h('details', {}, h('summary', {}, 'Program (as torch prints it)'), h('pre', { class: 'printed' }, d.printed)) : null,
    file.runnable ? snippetView(usageSnippet(d, file.name)) : null,
  );
}

// The snippet with a Copy button (the clipboard needs a secure context;
// where it is missing the text can still be selected by hand).
function snippetView(code) {
  const button = h('button', { type: 'button', class: 'secondary copy', id: 'copy-snippet' }, 'Copy');
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(code);
      button.textContent = 'Copied';
    } catch {
      button.textContent = 'Select the text to copy it';
    }
  });
  return h('details', { class: 'snippet' }, h('summary', {}, 'Use it in your app'), h('pre', { id: 'snippet' }, code), button);
}
