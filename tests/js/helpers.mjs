// Shared helpers of the Node tests: paths of the repository and a way to run
// the CLI and capture its exit code and output.

import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const FIXTURES = join(REPO, 'tests', 'fixtures');
export const CLI = join(REPO, 'npm', 'bin', 'pt2web.mjs');

/** Runs `node npm/bin/pt2web.mjs ...args`; returns {status, stdout, stderr}. */
export function runCli(...args) {
  const result = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Names of the fixture folders (each holds model.pt2 and model.core.pt2). */
export function fixtureNames() {
  return readdirSync(FIXTURES)
    .filter((name) => statSync(join(FIXTURES, name)).isDirectory())
    .sort();
}
