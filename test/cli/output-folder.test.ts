import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bundle, tool } from '../fixtures/catalogues.js';
import { runCli } from '../helpers/cli.js';

const USER_FILES = ['package.json', 'README.md', 'src/app/server.ts', 'src/tools/mine.ts', 'data/users.csv', 'docs/guide.md'];

async function userProject(dir: string): Promise<void> {
  for (const file of USER_FILES) {
    await mkdir(join(dir, file, '..'), { recursive: true });
    await writeFile(join(dir, file), `user content of ${file}\n`);
  }
}

const userFilesKept = async (dir: string): Promise<boolean> =>
  (await Promise.all(USER_FILES.map(async (file) => (await readFile(join(dir, file), 'utf8')) === `user content of ${file}\n`))).every(
    Boolean,
  );

describe("the output folder: never someone else's files, never a half-clear error", () => {
  let work: string;
  let source: string;
  before(async () => {
    work = await mkdtemp(join(tmpdir(), 'nb-out-'));
    source = join(work, 'catalogue.json');
    await writeFile(source, JSON.stringify(bundle([tool('alpha'), tool('beta')])));
  });
  after(async () => rm(work, { recursive: true, force: true }));

  it('refuses to overwrite or delete files in a folder no build wrote, naming them; --force replaces them', async () => {
    const out = join(work, 'project');
    await userProject(out);
    const refused = await runCli(['build', '--source', source, '--out', out, '--no-compile', '--json']);
    assert.equal(refused.code, 1, refused.stderr);
    const { error } = JSON.parse(refused.stdout);
    assert.match(error.message, /no nexusbloom-gen build wrote \(it has no names\.lock\.json\)/);
    assert.match(error.message, /overwrite package\.json/);
    assert.match(error.message, /delete data\/users\.csv/);
    assert.match(error.message, /--force/);
    assert.ok(await userFilesKept(out), 'every user file is as it was');
    assert.deepEqual((await readdir(out)).sort(), ['README.md', 'data', 'docs', 'package.json', 'src']);

    const forced = await runCli(['build', '--source', source, '--out', out, '--no-compile', '--force', '--json']);
    assert.equal(forced.code, 0, forced.stderr);
    assert.deepEqual(JSON.parse(forced.stdout).removed, ['data/users.csv', 'src/app/server.ts', 'src/tools/mine.ts']);
    assert.equal(await readFile(join(out, 'docs/guide.md'), 'utf8'), 'user content of docs/guide.md\n', 'files outside the package stay');
    // From now on the folder is a build's: rebuilding needs no --force.
    assert.equal((await runCli(['build', '--source', source, '--out', out, '--no-compile'])).code, 0);
  });

  it('builds into a folder that holds only files the package does not have, such as a fresh repository', async () => {
    const out = join(work, 'fresh-repo');
    await mkdir(join(out, '.git'), { recursive: true });
    await writeFile(join(out, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    await writeFile(join(out, 'LICENSE'), 'MIT\n');
    const built = await runCli(['build', '--source', source, '--out', out, '--no-compile']);
    assert.equal(built.code, 0, built.stderr);
    assert.equal(await readFile(join(out, 'LICENSE'), 'utf8'), 'MIT\n');
  });

  it('--out that is a file, or (with --check) a folder that does not exist, says so in one line', async () => {
    const file = join(work, 'a-file');
    await writeFile(file, 'x');
    for (const args of [['--no-compile'], ['--check']]) {
      const run = await runCli(['build', '--source', source, '--out', file, ...args]);
      assert.equal(run.code, 1);
      assert.match(run.stderr, /a-file is a file, not a folder/);
    }
    const missing = await runCli(['build', '--source', source, '--out', join(work, 'nowhere'), '--check']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /nowhere does not exist, so there is nothing to compare/);
    assert.doesNotMatch(missing.stderr, /missing: /);
  });

  it('build --check --json names the drifting files as data', async () => {
    const out = join(work, 'drift');
    assert.equal((await runCli(['build', '--source', source, '--out', out, '--no-compile'])).code, 0);
    await writeFile(join(out, 'src', 'tools', 'stray.ts'), 'export {};\n');
    await rm(join(out, 'data', 'catalogue.json'));
    const run = await runCli(['build', '--source', source, '--out', out, '--check', '--json']);
    assert.equal(run.code, 1);
    const { error } = JSON.parse(run.stdout);
    assert.deepEqual(error.drift, { changed: [], missing: ['data/catalogue.json'], extra: ['src/tools/stray.ts'] });
    assert.equal(error.exit, 1);
  });

  it('pull --out an existing folder fails before fetching, and leaves nothing behind', async () => {
    const folder = join(work, 'bundles');
    await mkdir(folder);
    // Port 9 (discard) is closed here: a fetch would fail with "connection refused" instead.
    const run = await runCli(['pull', '--source', 'http://127.0.0.1:9/api', '--out', folder]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /bundles is a folder: pass the bundle file to write, e\.g\. --out .*bundles\/catalogue\.json/);
    assert.deepEqual(await readdir(folder), []);
    assert.deepEqual(
      (await readdir(work)).filter((name) => name.endsWith('.tmp')),
      [],
    );
  });

  it('builds and compiles a package whose node_modules cannot hold the build cache, with a warning', async () => {
    const out = join(work, 'no-cache');
    const first = await runCli(['build', '--source', source, '--out', out, '--no-compile']);
    assert.equal(first.code, 0, first.stderr);
    await rm(join(out, 'node_modules'), { recursive: true, force: true });
    await writeFile(join(out, 'node_modules'), 'not a folder\n');
    const built = await runCli(['build', '--source', source, '--out', out]);
    assert.equal(built.code, 0, built.stderr);
    assert.match(built.stderr, /warning: the build cache was not saved \(ENOTDIR.*the package is written/);
    assert.match(built.stdout, /compiled\./);
    assert.ok((await readdir(join(out, 'dist'))).includes('bin.js'));
  });
});

describe('--json failures: one short JSON error on stdout, the same exit code as without --json', () => {
  it("a flag error exits 2 either way, without the CLI's configuration in the JSON", async () => {
    const plain = await runCli(['check', '--timeout', '0']);
    const json = await runCli(['check', '--timeout', '0', '--json']);
    assert.equal(plain.code, 2);
    assert.equal(json.code, 2);
    const unknown = await runCli(['check', '--bogus', '--json']);
    assert.equal(unknown.code, 2);
    assert.deepEqual(Object.keys(JSON.parse(unknown.stdout).error).sort(), ['exit', 'message']);
    assert.match(JSON.parse(unknown.stdout).error.message, /Nonexistent flag: --bogus/);
    assert.ok(unknown.stdout.length < 500, `${unknown.stdout.length} bytes`);
  });

  it('an unknown command, or a word after a command, is named, as JSON with --json', async () => {
    for (const [args, pattern] of [
      [['check', 'extra-arg'], /check takes no arguments, only flags: unexpected "extra-arg"/],
      [['nosuch'], /unknown command "nosuch": the commands are build, check, diff, init, pull, verify/],
    ] as const) {
      const plain = await runCli([...args]);
      assert.equal(plain.code, 2);
      assert.match(plain.stderr.replace(/\s*›\s*/g, ' '), pattern);
      const json = await runCli([...args, '--json']);
      assert.equal(json.code, 2);
      const { error } = JSON.parse(json.stdout);
      assert.match(error.message, pattern);
      assert.equal(error.exit, 2);
    }
  });

  it('a build of a catalogue with problems carries them as data: slug, pointer, message', async () => {
    const work = await mkdtemp(join(tmpdir(), 'nb-json-'));
    try {
      const source = join(work, 'bad.json');
      await writeFile(
        source,
        JSON.stringify(bundle([tool('bad', { input_schema: { type: 'object', properties: { n: { type: 'nope' } } } })])),
      );
      const run = await runCli(['build', '--source', source, '--out', join(work, 'out'), '--json']);
      assert.equal(run.code, 1);
      const { error } = JSON.parse(run.stdout);
      // The node to blame, inside the tool and in the bundle.
      assert.ok(
        error.problems.some(
          (p: { slug: string; pointer: string; bundlePointer: string }) =>
            p.slug === 'bad' &&
            p.pointer === '/input_schema/properties/n/type' &&
            p.bundlePointer === '/tools/0/input_schema/properties/n/type',
        ),
        JSON.stringify(error.problems),
      );
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});
