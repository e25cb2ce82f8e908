// The generator's CLI on odd output paths (what a build says when --out cannot be used), a checkout of the generator
// with CRLF line ends (Windows with core.autocrlf), and a committed package checked out that way; through the real binary.

import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REPO_ROOT, runCli, runProcess } from '../helpers/cli.js';
import { EXAMPLE_CATALOGUE } from '../helpers/mcp.js';

describe('build --out on odd paths', () => {
  let scratch: string;

  before(() => {
    scratch = mkdtempSync(join(tmpdir(), 'nexusbloom-out-paths-'));
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  // `--out "$OUT"` with OUT unset: the default folder, as for a blank --source, never the current folder (a home
  // folder holds none of a package's files, so nothing would stop the build from writing there).
  for (const blank of ['', '  ']) {
    it(`takes a blank --out ${JSON.stringify(blank)} for the default generated/`, async () => {
      const cwd = join(scratch, `blank-${blank.length}`);
      mkdirSync(cwd);
      const result = await runCli(['build', '--source', EXAMPLE_CATALOGUE, '--out', blank, '--no-compile'], { cwd });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /into generated: \d+ files written/);
      assert.deepEqual(readdirSync(cwd), ['generated']);
      assert.ok(existsSync(join(cwd, 'generated', 'names.lock.json')));
    });
  }

  it('names a symlink whose folder does not exist, instead of failing in mkdir', async () => {
    const link = join(scratch, 'dangling');
    symlinkSync(join(scratch, 'not-yet', 'package'), link, 'dir');
    const result = await runCli(['build', '--source', EXAMPLE_CATALOGUE, '--out', link, '--no-compile', '--json']);
    assert.equal(result.code, 1, result.stderr);
    const { error } = JSON.parse(result.stdout) as { error: { message: string; exit: number } };
    assert.equal(error.exit, 1);
    assert.equal(
      error.message,
      `--out ${link} is a symlink to ${join(scratch, 'not-yet', 'package')}, which does not exist: create that folder first, or pass another --out`,
    );
  });
});

/** Every file under `dir` but node_modules, by relative path. */
function filesOf(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const full = join(entry.parentPath, entry.name);
    const path = full.slice(dir.length + 1);
    if (entry.isFile() && !path.startsWith('node_modules')) files.set(path, readFileSync(full, 'utf8'));
  }
  return files;
}

describe('a generator checkout with CRLF line ends', () => {
  it('writes the same bytes as one with LF', async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'nexusbloom-crlf-'));
    try {
      // What git writes on Windows with core.autocrlf=true: every text file of the checkout with CRLF.
      const checkout = join(scratch, 'generator');
      for (const part of ['bin', 'dist', 'templates', 'src/runtime', 'src/schemas', 'package.json', 'oclif.manifest.json']) {
        cpSync(join(REPO_ROOT, part), join(checkout, part), { recursive: true });
      }
      for (const entry of readdirSync(join(checkout, 'templates'), { recursive: true, withFileTypes: true })) {
        const file = join(entry.parentPath, entry.name);
        if (entry.isFile()) writeFileSync(file, readFileSync(file, 'utf8').replace(/\r?\n/g, '\r\n'));
      }
      symlinkSync(join(REPO_ROOT, 'node_modules'), join(checkout, 'node_modules'), 'dir');
      const lf = await runCli(['build', '--source', EXAMPLE_CATALOGUE, '--out', join(scratch, 'lf'), '--no-compile']);
      assert.equal(lf.code, 0, lf.stderr);
      const crlf = await runProcess(
        process.execPath,
        [join(checkout, 'bin', 'run.js'), 'build', '--source', EXAMPLE_CATALOGUE, '--out', join(scratch, 'crlf'), '--no-compile'],
        {
          cwd: scratch,
          env: { ...process.env, NEXUSBLOOM_API_URL: '', NEXUSBLOOM_API_KEY: '' },
        },
      );
      assert.equal(crlf.code, 0, crlf.stderr);
      const want = filesOf(join(scratch, 'lf'));
      const got = filesOf(join(scratch, 'crlf'));
      assert.deepEqual([...got.keys()].sort(), [...want.keys()].sort());
      for (const [path, text] of want) assert.ok(got.get(path) === text, `${path} differs`);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

describe('a committed package checked out with core.autocrlf', () => {
  it('is still what a build writes: build --check passes', async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'nexusbloom-autocrlf-'));
    const git = async (cwd: string, ...args: string[]): Promise<void> => {
      const result = await runProcess('git', ['-c', 'user.name=ci', '-c', 'user.email=ci@example.invalid', ...args], {
        cwd,
        env: process.env,
      });
      assert.equal(result.code, 0, `git ${args.join(' ')}: ${result.stderr}`);
    };
    try {
      // A team commits its generated server (examples/ci); a Windows checkout, as actions/checkout makes on Windows
      // runners, converts text files to CRLF unless the repository says otherwise.
      const repo = join(scratch, 'repo');
      mkdirSync(repo);
      await git(repo, 'init', '-q');
      const built = await runCli(['build', '--source', EXAMPLE_CATALOGUE, '--out', 'server', '--no-compile'], { cwd: repo });
      assert.equal(built.code, 0, built.stderr);
      await git(repo, 'add', '-A');
      await git(repo, 'commit', '-q', '-m', 'server');
      const clone = join(scratch, 'clone');
      await git(scratch, 'clone', '-q', '-c', 'core.autocrlf=true', repo, clone);
      const check = await runCli(['build', '--check', '--source', EXAMPLE_CATALOGUE, '--out', 'server'], { cwd: clone });
      assert.equal(check.code, 0, check.stdout + check.stderr);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
