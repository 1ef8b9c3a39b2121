// Renders a run of a program: the outputs (path, dtype, shape, first
// values, min/max/mean; the top classes of a classifier's scores as a bar
// chart), the inputs it was given, how long the first run
// and (when the program ran again) the median of the later runs took, the
// activation memory, and the per-operator time profile as a bar chart.

import { drawBars } from './bar-chart.js';
import { h } from './dom.js';
import { formatBytes, formatMs, formatShape, shortTarget } from './format.js';

const PROFILE_ROWS = 15;

// One pytree leaf: a head line (path, dtype, shape) over its first values
// and a min/max/mean line. Blocks rather than table rows, so that long
// values wrap nicely on a phone too.
function leafView(leaf) {
  if (leaf.kind !== 'tensor') {
    return h(
      'li',
      { class: 'leaf', dataset: { path: leaf.path, kind: leaf.kind } },
      h('div', { class: 'leaf-head' }, h('code', { class: 'leaf-path' }, leaf.path), h('span', { class: 'leaf-type' }, leaf.kind)),
      h('code', { class: 'leaf-values' }, leaf.value),
    );
  }
  const more = leaf.size > leaf.first.length ? ', …' : '';
  return h(
    'li',
    { class: 'leaf', dataset: { path: leaf.path, kind: 'tensor', dtype: leaf.dtype, shape: formatShape(leaf.shape) } },
    h(
      'div',
      { class: 'leaf-head' },
      h('code', { class: 'leaf-path' }, leaf.path),
      h('span', { class: 'leaf-type' }, `${leaf.dtype} ${formatShape(leaf.shape)}`),
      leaf.stats ? h('span', { class: 'leaf-stats' }, `min ${leaf.stats.min} · max ${leaf.stats.max} · mean ${leaf.stats.mean}`) : null,
    ),
    h('code', { class: 'leaf-values' }, `[${leaf.first.join(', ')}${more}]`),
  );
}

// The top classes of the first output that looks like a classifier's
// scores, as a bar chart of softmax probabilities.
function topClassesChart(leaves) {
  const leaf = leaves.find((l) => l.classes);
  if (!leaf) return null;
  const list = h('ol', { class: 'bars topk-bars', id: 'top-classes' });
  drawBars(
    list,
    leaf.classes.map(({ index, probability }, rank) => ({
      label: String(index),
      value: probability,
      text: `${(probability * 100).toFixed(1)}%`,
      highlight: rank === 0,
      title: `class ${index}: probability ${probability.toFixed(4)} (softmax of ${leaf.path})`,
    })),
    { max: 1 },
  );
  return [h('h3', {}, `Top ${leaf.classes.length} classes of `, h('code', {}, leaf.path), ' (softmax)'), list];
}

function leavesList(leaves, id) {
  return h('ul', { class: 'leaves', id }, leaves.map(leafView));
}

function profileChart(profile, ofMedianRun) {
  const total = profile.reduce((sum, entry) => sum + entry.ms, 0);
  const list = h('ol', { class: 'bars profile-bars', id: 'profile' });
  drawBars(
    list,
    profile.slice(0, PROFILE_ROWS).map((entry) => ({
      label: shortTarget(entry.target),
      value: entry.ms,
      text: `${formatMs(entry.ms)} · ${total > 0 ? ((entry.ms / total) * 100).toFixed(0) : 0}%`,
      title: `${entry.target}: ${entry.calls} call${entry.calls === 1 ? '' : 's'}, ${formatMs(entry.ms)}`,
    })),
    { labelClass: 'mono' },
  );
  const rest = profile.length - PROFILE_ROWS;
  return [
    h(
      'h3',
      {},
      `Time per operator${ofMedianRun ? ' (median run)' : ''} · ${formatMs(total)} in ${profile.length} operator${profile.length === 1 ? '' : 's'}`,
    ),
    list,
    rest > 0 ? h('p', { class: 'muted small' }, `and ${rest} faster operator${rest === 1 ? '' : 's'}`) : null,
  ];
}

/** @param {object} result runProgram()'s result (program-runs.js) */
export function resultsView(result) {
  const { plannedBytes, unplannedBytes } = result.memory ?? {};
  const source = { example: 'the example inputs', image: 'your image' }[result.source] ?? 'random inputs';
  return h(
    'div',
    { class: 'results-view' },
    h(
      'p',
      { class: 'run-summary' },
      `Ran on ${source}: `,
      result.medianRunMs === null
        ? h('strong', {}, formatMs(result.firstRunMs))
        : [
            `first run ${formatMs(result.firstRunMs)} (with one-time set-up), then `,
            h('strong', {}, formatMs(result.medianRunMs)),
            ` (median of ${result.repeats} run${result.repeats === 1 ? '' : 's'})`,
          ],
      plannedBytes !== undefined ? ` · activations ${formatBytes(plannedBytes)} (${formatBytes(unplannedBytes)} without reuse)` : '',
    ),
    h('h3', {}, 'Outputs'),
    leavesList(result.outputs, 'output-leaves'),
    topClassesChart(result.outputs),
    profileChart(result.profile, result.medianRunMs !== null),
    h('details', {}, h('summary', {}, `Inputs used (${result.inputs.length})`), leavesList(result.inputs, 'input-leaves')),
  );
}
