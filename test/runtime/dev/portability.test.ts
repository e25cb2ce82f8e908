// The generated package's developer scripts started the ways people and tools start them: through a symlinked
// folder (a package linked into node_modules, macOS's /tmp), without the `.js` extension, from another folder, with
// their output piped into a reader that stops early (`| head`); and
// the bin bundle written through a symlinked folder or with its dependencies under a non-ASCII folder.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bundleBin } from '../../../src/runtime/dev/bundle-bin.js';
import { REPO_ROOT, runProcess } from '../../helpers/cli.js';
import { dependencyClosure } from '../../helpers/registry.js';
import { builtExample, serverEnv } from '../../helpers/mcp.js';

const SCRIPTS = ['catalogue-check', 'agent-demo', 'shell', 'mock-api-cli'];

describe('developer scripts started by another path', () => {
  let packageDir: string;
  let scratch: string;

  before(async () => {
    packageDir = await builtExample();
    scratch = mkdtempSync(join(tmpdir(), 'nexusbloom-dev-paths-'));
    symlinkSync(packageDir, join(scratch, 'linked-package'), 'dir');
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  // An unknown flag is the cheapest proof a script ran: each answers it with its usage and exit 2, where a script
  // that did not recognise itself as the entry point did nothing and exited 0 (a CI gate that always passes).
  for (const script of SCRIPTS) {
    it(`${script} runs when started through a symlinked folder`, async () => {
      const entry = join(scratch, 'linked-package', 'dist', 'runtime', 'dev', `${script}.js`);
      const result = await runProcess(process.execPath, [entry, '--no-such-flag'], { cwd: scratch, env: serverEnv(), input: '' });
      assert.equal(result.code, 2, result.stdout + result.stderr);
      assert.match(result.stderr, /usage: /);
    });

    it(`${script} runs when started without its .js extension`, async () => {
      const entry = join(packageDir, 'dist', 'runtime', 'dev', script);
      const result = await runProcess(process.execPath, [entry, '--no-such-flag'], { cwd: scratch, env: serverEnv(), input: '' });
      assert.equal(result.code, 2, result.stdout + result.stderr);
      assert.match(result.stderr, /usage: /);
    });
  }
});

/**
 * Runs a dev script whose stdout reader goes away after the first chunk, as `| head -1` does, and returns its exit
 * code and its stderr.
 */
async function runWithEarlyReader(
  packageDir: string,
  script: string,
  args: string[],
  input: string,
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [join(packageDir, 'dist', 'runtime', 'dev', `${script}.js`), ...args], {
    cwd: packageDir,
    env: serverEnv(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.once('data', () => child.stdout.destroy());
  child.stdin.end(input);
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stderr };
}

describe('developer scripts whose output reader stops early', () => {
  let packageDir: string;

  before(async () => {
    packageDir = await builtExample();
  });

  // The scripts run on to their real exit code (a CI gate must not pass or fail because its output was cut short),
  // with no EPIPE stack trace.
  const runs: Array<{ script: string; args: string[]; input: string }> = [
    { script: 'shell', args: ['--mock'], input: 'help\nlist\nlist\nlist\n' },
    { script: 'agent-demo', args: ['--mock'], input: '' },
    { script: 'catalogue-check', args: ['--mock'], input: '' },
  ];
  for (const { script, args, input } of runs) {
    it(`${script} finishes with its own exit code`, async () => {
      const { code, stderr } = await runWithEarlyReader(packageDir, script, args, input);
      assert.doesNotMatch(stderr, /EPIPE|Unhandled 'error' event/);
      assert.equal(code, 0, stderr);
    });
  }
});

describe('the bin bundle written through a symlinked folder', () => {
  it('is the same file as one written to a real folder, naming no folder outside the package', async () => {
    const packageDir = await builtExample();
    const scratch = mkdtempSync(join(tmpdir(), 'nexusbloom-bundle-link-'));
    try {
      // The link is shallower than the folder it points to, so paths relative to one are not relative to the other.
      const real = join(scratch, 'a', 'b', 'c', 'package');
      mkdirSync(real, { recursive: true });
      for (const part of ['package.json', 'tsconfig.json', 'src', 'data'])
        cpSync(join(packageDir, part), join(real, part), { recursive: true });
      symlinkSync(real, join(scratch, 'linked'), 'dir');
      await bundleBin(join(scratch, 'linked'), [join(REPO_ROOT, 'node_modules')]);
      const text = readFileSync(join(real, 'dist', 'bin.js'), 'utf8');
      assert.doesNotMatch(text, /"(?:\.\.\/)+[^"]*node_modules\//, 'module names are relative to the package');
      assert.ok(text === readFileSync(join(packageDir, 'dist', 'bin.js'), 'utf8'), 'the same bytes as the bundle of the built package');
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

describe('the bin bundle with its dependencies under a non-ASCII folder', () => {
  it('is the same file as one bundled from the repository, naming no folder outside the package', async () => {
    const packageDir = await builtExample();
    const scratch = mkdtempSync(join(tmpdir(), 'nexusbloom-bundle-'));
    try {
      // A generator installed under a home folder such as /home/José/, building a package elsewhere: the bundle reads
      // the dependencies from the generator's node_modules.
      const modules = join(scratch, 'José', 'node_modules');
      const repoModules = join(REPO_ROOT, 'node_modules');
      for (const dependency of dependencyClosure([
        '@modelcontextprotocol/sdk',
        'ajv',
        'ajv-formats',
        'fastest-levenshtein',
        're2js',
        'stemmer',
        'zod',
      ])) {
        cpSync(dependency.dir, join(modules, dependency.dir.slice(repoModules.length + 1)), { recursive: true });
      }
      const copy = join(scratch, 'package');
      for (const part of ['package.json', 'tsconfig.json', 'src', 'data'])
        cpSync(join(packageDir, part), join(copy, part), { recursive: true });
      await bundleBin(copy, [modules]);
      const text = readFileSync(join(copy, 'dist', 'bin.js'), 'utf8');
      assert.doesNotMatch(text, /"(?:\.\.\/)+[^"]*node_modules\//, 'module names are relative to the package');
      assert.ok(text === readFileSync(join(packageDir, 'dist', 'bin.js'), 'utf8'), 'the same bytes as the bundle of the built package');
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

describe("the package's bundle-bin started from another folder", () => {
  it('bundles the package it belongs to, as from the package folder', async () => {
    const packageDir = await builtExample();
    // Inside the repository, so the copy finds esbuild and the dependencies in its node_modules as the package would.
    const copy = join(REPO_ROOT, '.tmp', `bundle-cwd-${process.pid}`, 'package');
    try {
      for (const part of ['package.json', 'tsconfig.json', 'src', 'data', 'dist'])
        cpSync(join(packageDir, part), join(copy, part), { recursive: true });
      const script = join(copy, 'dist', 'runtime', 'dev', 'bundle-bin.js');
      const inPackage = await runProcess(process.execPath, [script], { cwd: copy, env: serverEnv() });
      assert.equal(inPackage.code, 0, inPackage.stderr);
      const expected = readFileSync(join(copy, 'dist', 'bin.js'), 'utf8');
      rmSync(join(copy, 'dist', 'bin.js'));
      const elsewhere = await runProcess(process.execPath, [script], { cwd: tmpdir(), env: serverEnv() });
      assert.equal(elsewhere.code, 0, elsewhere.stderr);
      assert.ok(readFileSync(join(copy, 'dist', 'bin.js'), 'utf8') === expected, 'the same bundle');
    } finally {
      rmSync(join(copy, '..'), { recursive: true, force: true });
    }
  });
});
