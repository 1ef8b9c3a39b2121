// Builds run()'s (args, kwargs) from leaves addressed by the input paths the
// description gives (torch's keystr form): "*args[1][0]" is the first item
// of the second positional argument, "*args[0]['a']" the key 'a' of the first
// one, "**kwargs['mask']" the keyword argument mask. Indexed containers
// become arrays (run() takes arrays for tuples and lists), keyed ones plain
// objects in first-seen order; positions no leaf reaches (None arguments)
// are null.
//
// Errors: a path in another form throws a BadInputError naming it.

import { BadInputError } from './errors.js';

const ROOT = /^(\*args|\*\*kwargs)/;
const STEP = /^(?:\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]|\["((?:[^"\\]|\\.)*)"\])/;

/** A path as {root: 'args' | 'kwargs', steps: (number | string)[]}. */
export function parseInputPath(path) {
  const root = ROOT.exec(path);
  if (!root) throw new BadInputError(`input path '${path}' does not start with *args or **kwargs`);
  const steps = [];
  let rest = path.slice(root[0].length);
  while (rest.length) {
    const step = STEP.exec(rest);
    if (!step) throw new BadInputError(`input path '${path}': cannot read '${rest}'`);
    if (step[1] !== undefined) steps.push(Number(step[1]));
    else steps.push((step[2] ?? step[3]).replace(/\\(.)/g, '$1'));
    rest = rest.slice(step[0].length);
  }
  return { root: root[1] === '*args' ? 'args' : 'kwargs', steps };
}

function fillHoles(value) {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = value[i] === undefined ? null : fillHoles(value[i]);
  } else if (value !== null && typeof value === 'object' && value.constructor === Object) {
    for (const key of Object.keys(value)) value[key] = fillHoles(value[key]);
  }
  return value;
}

/**
 * Places leaves by path: [[path, value], ...] -> {args: [...], kwargs: {...}}.
 */
export function assembleInputs(entries) {
  const roots = { args: [], kwargs: {} };
  for (const [path, value] of entries) {
    const { root, steps } = parseInputPath(path);
    let container = roots[root];
    let key = null;
    if (root === 'kwargs') {
      if (typeof steps[0] !== 'string') throw new BadInputError(`input path '${path}' has no keyword name`);
    } else if (typeof steps[0] !== 'number') {
      throw new BadInputError(`input path '${path}' has no argument position`);
    }
    steps.forEach((step, i) => {
      if (i === steps.length - 1) {
        key = step;
        return;
      }
      if (container[step] === undefined) container[step] = typeof steps[i + 1] === 'number' ? [] : {};
      container = container[step];
    });
    container[key] = value;
  }
  return { args: fillHoles(roots.args), kwargs: fillHoles(roots.kwargs) };
}
