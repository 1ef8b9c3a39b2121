// Loading progress for options.onProgress. Every event is {stage, loaded,
// total}, loaded and total being the model's bytes so far (total null while
// unknown), with stage one of, in order:
//   'download'  model bytes arrived (repeated as they do; the last one has
//               loaded === total, sent once)
//   'wasm'      the WebAssembly module is ready (instantiated now, or before)
//   'prepare'   the program is being read and planned
//   'weights'   weights were read into place: here loaded and total count
//               the bytes of the weights the program reads (repeated, in
//               steps of at least 1%; the last has loaded === total; none
//               when no weight is copied, as for bytes that need none)
//   'ready'     done: load() is about to resolve
// ('download' and 'wasm' may come in either order: both start at once.)
//
// Errors: an onProgress that is not a function is a BadInputError; what it
// throws propagates to load().

import { BadInputError } from './errors.js';

export const STAGES = Object.freeze(['download', 'wasm', 'prepare', 'weights', 'ready']);

/**
 * A reporter for onProgress (undefined: reports nothing):
 * {download(loaded, total), downloaded(size), stage(name), weights}: weights
 * is undefined without onProgress, else a (done, total) => void for the core.
 */
export function progressReporter(onProgress) {
  if (onProgress !== undefined && typeof onProgress !== 'function') {
    throw new BadInputError('options.onProgress must be a function');
  }
  let loaded = 0;
  let total = null;
  let finished = false;
  const send = (stage) => onProgress?.({ stage, loaded, total });
  return {
    download(bytes, size) {
      loaded = bytes;
      total = size;
      finished = total !== null && loaded === total;
      send('download');
    },
    downloaded(size) {
      if (finished && loaded === size) return;
      loaded = size;
      total = size;
      finished = true;
      send('download');
    },
    stage: send,
    weights: onProgress && ((done, size) => onProgress({ stage: 'weights', loaded: done, total: size })),
  };
}
