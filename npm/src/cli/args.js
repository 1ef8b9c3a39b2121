// Command-line arguments of one command: positional arguments, boolean flags
// (--json) and options with a value (--runs 20 or --runs=20).
//
// Errors: an unknown flag, a missing value or a wrong number of positional
// arguments throws a UsageError (the CLI prints it with the usage, exit 2).

export class UsageError extends Error {
  constructor(message) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * Parses argv for a command.
 * @param {string[]} argv the arguments after the command name
 * @param {{positional: number, flags?: string[], values?: string[]}} spec
 *   flags and values are names without the leading '--'
 * @returns {{positional: string[], flags: Set<string>, values: Map<string, string>}}
 */
export function parseArgs(argv, { positional: count, flags = [], values = [] }) {
  const result = { positional: [], flags: new Set(), values: new Map() };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      result.positional.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2);
    if (flags.includes(name) && inline === undefined) {
      result.flags.add(name);
    } else if (values.includes(name)) {
      const value = inline ?? argv[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      result.values.set(name, value);
    } else {
      throw new UsageError(`unknown option ${arg}`);
    }
  }
  if (result.positional.length !== count) {
    throw new UsageError(`expected ${count} argument${count === 1 ? '' : 's'}, got ${result.positional.length}`);
  }
  return result;
}

/** A whole number option (--runs 20), checked against a minimum. */
export function integerOption(values, name, fallback, minimum = 0) {
  if (!values.has(name)) return fallback;
  const text = values.get(name);
  const value = Number(text);
  if (!Number.isInteger(value) || value < minimum) {
    throw new UsageError(`--${name} must be a whole number >= ${minimum}, got '${text}'`);
  }
  return value;
}
