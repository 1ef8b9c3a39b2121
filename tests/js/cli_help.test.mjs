// The CLI's help and usage: `--version`, `--help` for the whole CLI and for
// each command (on stdout, exit 0, nothing run), usage after a mistake on
// stderr (exit 2), `check` given a file, and a file of another format named.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { FIXTURES, REPO, runCli } from './helpers.mjs';

const COMMANDS = ['info', 'run', 'check', 'bench', 'demo'];

test('--version prints the package version', () => {
  const { version } = JSON.parse(readFileSync(join(REPO, 'npm', 'package.json'), 'utf8'));
  for (const flag of ['--version', '-V']) {
    const { status, stdout, stderr } = runCli(flag);
    assert.equal(status, 0, stderr);
    assert.equal(stdout.trim(), version);
  }
});

test('--help prints every command on stdout; no command prints it on stderr with exit 2', () => {
  const help = runCli('--help');
  assert.equal(help.status, 0);
  for (const name of COMMANDS) assert.match(help.stdout, new RegExp(`^  ${name}\\b`, 'm'));
  assert.match(help.stdout, /--version/);
  const none = runCli();
  assert.equal(none.status, 2);
  assert.equal(none.stdout, '');
  assert.equal(none.stderr.trim(), help.stdout.trim());
});

test('each command has its own --help, which runs nothing', () => {
  for (const name of COMMANDS) {
    for (const args of [[name, '--help'], [name, '-h'], ['help', name], [name, 'missing.pt2', '--help']]) {
      const { status, stdout, stderr } = runCli(...args);
      assert.equal(status, 0, `${args.join(' ')}: ${stderr}`);
      assert.equal(stderr, '', args.join(' '));
      assert.match(stdout, new RegExp(`^usage: pt2web ${name}\\b`), args.join(' '));
      for (const other of COMMANDS.filter((c) => c !== name)) assert.doesNotMatch(stdout, new RegExp(`usage: pt2web ${other}\\b`));
    }
  }
});

test('a usage mistake prints that command\'s usage on stderr', () => {
  const { status, stdout, stderr } = runCli('info', '--frobnicate');
  assert.equal(status, 2);
  assert.equal(stdout, '');
  assert.match(stderr, /^pt2web info: unknown option --frobnicate\n\nusage: pt2web info MODEL\.pt2/);
});

test('check given a file or a missing folder says what it takes', () => {
  const file = runCli('check', join(FIXTURES, 'mlp', 'model.pt2'));
  assert.equal(file.status, 2);
  assert.match(file.stderr, /model\.pt2 is a file: check takes a folder holding model\.pt2 and cases\.json; to run one program, use pt2web run /);
  assert.doesNotMatch(file.stderr, /ENOTDIR/);
  const missing = runCli('check', join(FIXTURES, 'no_such_fixture'));
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /no_such_fixture does not exist: check takes a folder/);
});

test('info on an ONNX file names the format', () => {
  const { status, stderr } = runCli('info', join(FIXTURES, 'mlp', 'model.onnx'));
  assert.equal(status, 1);
  assert.match(stderr, /BAD_FILE: .*model\.onnx is an ONNX model, not a torch\.export program/);
});
