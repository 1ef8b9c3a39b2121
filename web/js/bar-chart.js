// Horizontal bar charts made of plain elements (crisp at any zoom, readable
// by screen readers, styled in style.css): one row per item with a label, a
// bar and the value as text. Used for the digit probabilities and the
// per-operator time profile.

import { h, replaceChildren } from './dom.js';

/**
 * Draws rows into container (a <ol> or <ul>).
 * @param {HTMLElement} container
 * @param {Array<{label: string, value: number, text: string, highlight?: boolean, title?: string}>} rows
 * @param {{max?: number, labelClass?: string}} [options] max: the value of a full bar (default: the largest value)
 */
export function drawBars(container, rows, { max, labelClass = '' } = {}) {
  const full = max ?? Math.max(...rows.map((row) => row.value), 0);
  replaceChildren(
    container,
    rows.map((row) =>
      h(
        'li',
        { class: row.highlight ? 'bar-row highlight' : 'bar-row', title: row.title ?? null, dataset: { label: row.label } },
        h('span', { class: `bar-label ${labelClass}`.trim() }, row.label),
        h(
          'span',
          { class: 'bar-track' },
          h('span', { class: 'bar-fill', style: { width: `${full > 0 ? Math.max(0, Math.min(1, row.value / full)) * 100 : 0}%` } }),
        ),
        h('span', { class: 'bar-value' }, row.text),
      ),
    ),
  );
}
