// pt2web: run PyTorch torch.export programs (.pt2) with WebAssembly.
//
//   import { load, Tensor } from 'pt2web';
//   const program = await load('model.pt2');
//   const y = program.run([new Tensor('float32', x, [1, 16])]);

import { callNative } from './errors.js';
import { getModule } from './module.js';
import { Program } from './program.js';
import { readSource } from './source.js';

export {
  Pt2webError,
  BadFileError,
  BadInputError,
  UnsupportedError,
  BadProgramError,
  InternalError,
} from './errors.js';
export { Tensor, DTYPES } from './tensor.js';
export { float, int, tuple, list, dict } from './values.js';
export { Program };

/**
 * Loads a program and prepares it to run.
 * @param {string|URL|Uint8Array|ArrayBuffer} source a path (Node), a URL, or the file's bytes
 * @param {{label?: string}} [options] label: the name used in error messages
 * @returns {Promise<Program>} rejects with UnsupportedError listing every missing operator
 */
export async function load(source, options = {}) {
  const module = await getModule();
  const { bytes, label } = await readSource(source, options.label);
  const native = new module.Program();
  try {
    callNative(() => native.load(bytes, label));
    return new Program(native, JSON.parse(callNative(() => native.describe())));
  } catch (error) {
    native.delete();
    throw error;
  }
}

/**
 * Describes a program without preparing it to run, so programs with
 * unsupported operators can be inspected too.
 * @returns {Promise<object>} the description (see Program.description)
 */
export async function inspect(source, options = {}) {
  const module = await getModule();
  const { bytes, label } = await readSource(source, options.label);
  return JSON.parse(callNative(() => module.inspectArchive(bytes, label)));
}
