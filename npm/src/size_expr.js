// Evaluates the symbolic sizes the description prints in shapes ("s0",
// "2*s0", "s0 + 1", "s0//2", "Max(s0, s1)") for given symbol values, and
// lists the symbols they use. The grammar is the infix form the core's
// SymExpr::to_string() writes: integers, symbol names, + - * // % and
// parentheses, and the functions Max and Min.
//
// Errors: text outside that grammar, or a symbol without a value, throws a
// BadInputError naming the expression.

import { BadInputError } from './errors.js';

const TOKEN = /\s*(\d+|[A-Za-z_][A-Za-z0-9_]*|\/\/|[-+*%(),])/y;

function tokenize(text) {
  const tokens = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    if (/^\s*$/.test(text.slice(TOKEN.lastIndex))) break;
    const start = TOKEN.lastIndex;
    const match = TOKEN.exec(text);
    if (!match) throw new BadInputError(`cannot read the size expression '${text}' at position ${start}`);
    tokens.push(match[1]);
  }
  return tokens;
}

const FUNCTIONS = { Max: Math.max, Min: Math.min };

// Recursive descent over tokens; `symbol(name)` gives a symbol's value.
function evaluateTokens(text, tokens, symbol) {
  let at = 0;
  const peek = () => tokens[at];
  const expect = (token) => {
    if (tokens[at] !== token) throw new BadInputError(`size expression '${text}': expected '${token}'`);
    at++;
  };
  function primary() {
    const token = tokens[at++];
    if (token === undefined) throw new BadInputError(`size expression '${text}' ends too early`);
    if (token === '(') {
      const value = sum();
      expect(')');
      return value;
    }
    if (token === '-') return -primary();
    if (/^\d+$/.test(token)) return Number(token);
    if (token in FUNCTIONS && peek() === '(') {
      at++;
      const args = [sum()];
      while (peek() === ',') {
        at++;
        args.push(sum());
      }
      expect(')');
      return FUNCTIONS[token](...args);
    }
    if (/^[A-Za-z_]/.test(token)) return symbol(token);
    throw new BadInputError(`size expression '${text}': unexpected '${token}'`);
  }
  function product() {
    let value = primary();
    for (;;) {
      const op = peek();
      if (op === '*') value *= (at++, primary());
      else if (op === '//') value = Math.floor(value / (at++, primary()));
      else if (op === '%') {
        const divisor = (at++, primary());
        value = ((value % divisor) + divisor) % divisor;
      } else return value;
    }
  }
  function sum() {
    let value = product();
    for (;;) {
      const op = peek();
      if (op === '+') value += (at++, product());
      else if (op === '-') value -= (at++, product());
      else return value;
    }
  }
  const value = sum();
  if (at !== tokens.length) throw new BadInputError(`size expression '${text}': unexpected '${tokens[at]}'`);
  return value;
}

/** The symbol names a size (number or expression text) uses. */
export function sizeSymbols(size) {
  if (typeof size === 'number') return [];
  return [...new Set(tokenize(String(size)).filter((t) => /^[A-Za-z_]/.test(t) && !(t in FUNCTIONS)))];
}

/**
 * The value of a size for symbol values {name: number}.
 * @param {number|string} size a static size or an expression
 */
export function evaluateSize(size, values) {
  if (typeof size === 'number') return size;
  const text = String(size);
  return evaluateTokens(text, tokenize(text), (name) => {
    if (!(name in values)) throw new BadInputError(`size expression '${text}': no value for symbol ${name}`);
    return values[name];
  });
}
