// Run by `npm pack` / `npm publish` (the "prepack" script): copies the
// digits demo's program and cases from the repository's fixtures into
// demo/digits_cnn/, so `pt2web demo` works from an installed package.
// Fails when the fixture is missing rather than packing without it.

import { copyFileSync, mkdirSync } from 'node:fs';

const FROM = new URL('../tests/fixtures/digits_cnn/', import.meta.url);
const TO = new URL('./demo/digits_cnn/', import.meta.url);

mkdirSync(TO, { recursive: true });
for (const file of ['model.pt2', 'cases.json']) copyFileSync(new URL(file, FROM), new URL(file, TO));
