// Type-checked (tsc --strict, allowJs, never run) by tests/js/types.test.mjs:
// the JavaScript sources, with the types TypeScript reads from them and
// their JSDoc, must fit npm/index.d.ts, so the declarations cannot promise
// what the code does not do. Every declared export must exist with a
// compatible type (functions, classes and their members, constants), and
// every runtime export must be declared.

import * as source from '../../../npm/src/index.js';
import type * as declared from 'pt2web';

// Every name the source exports is declared ...
export const exportsAreDeclared: Record<keyof typeof source, unknown> = {} as typeof declared;
// ... and the source fits every declaration.
export const sourceFitsDeclarations: typeof declared = source;
