// Errors thrown by pt2web. Every error has a `code` saying whose fault it is:
//   BAD_FILE     the .pt2 archive or its contents are malformed
//   BAD_INPUT    the inputs do not match the program's signature (nothing was computed)
//   UNSUPPORTED  an operator or feature pt2web does not implement
//   BAD_PROGRAM  the program is inconsistent
//   OUT_OF_MEMORY  memory ran out, or a size is past what the platform addresses
//                (the message says how many bytes; the instance stays usable)
//   INTERNAL     a bug in pt2web
// and a message that says what is wrong and where.

/** @template {string} [Code=string] */
export class Pt2webError extends Error {
  /**
   * @param {string} message
   * @param {Code} [code] one of the codes above (default INTERNAL)
   */
  constructor(message, code = /** @type {Code} */ ('INTERNAL')) {
    super(message);
    this.name = 'Pt2webError';
    /** @type {Code} */
    this.code = code;
  }
}

/** @extends {Pt2webError<'BAD_FILE'>} */
export class BadFileError extends Pt2webError {
  /** @param {string} message */
  constructor(message) {
    super(message, 'BAD_FILE');
    this.name = 'BadFileError';
  }
}

/** @extends {Pt2webError<'BAD_INPUT'>} */
export class BadInputError extends Pt2webError {
  /** @param {string} message */
  constructor(message) {
    super(message, 'BAD_INPUT');
    this.name = 'BadInputError';
  }
}

/** @extends {Pt2webError<'UNSUPPORTED'>} */
export class UnsupportedError extends Pt2webError {
  /** @param {string} message */
  constructor(message) {
    super(message, 'UNSUPPORTED');
    this.name = 'UnsupportedError';
  }
}

/** @extends {Pt2webError<'BAD_PROGRAM'>} */
export class BadProgramError extends Pt2webError {
  /** @param {string} message */
  constructor(message) {
    super(message, 'BAD_PROGRAM');
    this.name = 'BadProgramError';
  }
}

/** @extends {Pt2webError<'OUT_OF_MEMORY'>} */
export class OutOfMemoryError extends Pt2webError {
  /** @param {string} message */
  constructor(message) {
    super(message, 'OUT_OF_MEMORY');
    this.name = 'OutOfMemoryError';
  }
}

/** @extends {Pt2webError<'INTERNAL'>} */
export class InternalError extends Pt2webError {
  /** @param {string} message */
  constructor(message) {
    super(message, 'INTERNAL');
    this.name = 'InternalError';
  }
}

const BY_CODE = {
  BAD_FILE: BadFileError,
  BAD_INPUT: BadInputError,
  UNSUPPORTED: UnsupportedError,
  BAD_PROGRAM: BadProgramError,
  OUT_OF_MEMORY: OutOfMemoryError,
  INTERNAL: InternalError,
};

/** What every use of a disposed program fails with. */
export function disposedError() {
  return new BadInputError('the program was disposed (dispose() frees it for good; load it again to use it)');
}

/** The error class for a code, instantiated with a message. */
export function errorFromCode(code, message) {
  const ErrorClass = BY_CODE[code];
  return ErrorClass ? new ErrorClass(message) : new Pt2webError(message, code);
}

// Emscripten's aborts advise rebuilding with assertions, which only helps
// pt2web's developers; a user gets what happened, and whether memory ran out.
function withoutBuildAdvice(message) {
  const text = String(message).replace(/\s*Build with -s ASSERTIONS=1 for more info\.?/, '');
  return /^Aborted\(/.test(text) ? `the WebAssembly module aborted (out of memory, or a bug): ${text.replace(/\.$/, '')}` : text;
}

/**
 * Calls into the wasm module and returns the result's value. The bindings
 * report failures as results; anything thrown instead (a JS exception from
 * inside the module) is a pt2web bug and becomes an InternalError.
 */
export function callNative(fn) {
  let result;
  try {
    result = fn();
  } catch (cause) {
    const error = new InternalError(`unexpected failure inside pt2web: ${withoutBuildAdvice(cause?.message ?? cause)}`);
    error.cause = cause;
    throw error;
  }
  return unwrap(result);
}

/** Returns a binding result's value, or throws its error ({ok, value} | {ok: false, code, message}). */
export function unwrap(result) {
  if (result.ok) return result.value;
  throw errorFromCode(result.code, result.message);
}
