// A small helper for building DOM nodes. Text always goes in as text nodes
// (never as HTML), because much of what the page shows comes from untrusted
// .pt2 files: operator names, input paths, error messages.

/**
 * h('div', {class: 'x', dataset: {a: 1}, onclick: fn}, 'text', child, [more])
 * Attributes: class, dataset (object), on* (listeners), hidden/disabled
 * (booleans), style (object), anything else via setAttribute.
 * Children: nodes, strings, numbers, arrays of them; null/false are skipped.
 */
export function h(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === 'dataset') Object.assign(node.dataset, value);
    else if (name === 'style') Object.assign(node.style, value);
    else if (name.startsWith('on') && typeof value === 'function') node.addEventListener(name.slice(2), value);
    else if (value === true) node.setAttribute(name, '');
    else node.setAttribute(name, String(value));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else node.append(child instanceof Node ? child : String(child));
  }
}

/** Replaces every child of node. */
export function replaceChildren(node, ...children) {
  node.replaceChildren();
  append(node, children);
}

/** document.getElementById that fails loudly when the page and the code disagree. */
export function byId(id) {
  const node = document.getElementById(id);
  if (!node) throw new Error(`the page has no element #${id}`);
  return node;
}
