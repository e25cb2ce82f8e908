// The CI recipe for a committed server (examples/ci/regenerate.sh) run for real in a temp git repo: the first run
// builds, commits, verifies and publishes; a catalogue change fails the drift check and its rebuild commits exactly
// the files that change should touch; with no change, nothing is committed.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Manifest } from '../../src/runtime/contracts.js';
import { manifestsFromBundle, startMockApi, type MockApi } from '../../src/runtime/dev/mock-api.js';
import { REPO_ROOT, runProcess, type CliResult } from '../helpers/cli.js';
import { EXAMPLE_CATALOGUE } from '../helpers/mcp.js';
import { isolatedNpmEnv, startSeededRegistry, type Registry } from '../helpers/registry.js';

const SCRIPT = join(REPO_ROOT, 'examples', 'ci', 'regenerate.sh');
const CHANGED_SLUG = 'slugify';
const ADDED_SLUG = 'line-counter';

const originalManifests = manifestsFromBundle(JSON.parse(readFileSync(EXAMPLE_CATALOGUE, 'utf8')));

/** The example catalogue with one new optional input field on CHANGED_SLUG and one tool added (ADDED_SLUG). */
function changedManifests(): Manifest[] {
  const manifests = structuredClone(originalManifests);
  const changed = manifests.find((manifest) => manifest.slug === CHANGED_SLUG)!;
  const properties = (changed.input_schema as { properties: Record<string, unknown> }).properties;
  properties.max_length = { type: 'integer', minimum: 1, description: 'Cut the slug to at most this many characters.' };
  const template = manifests.find((manifest) => manifest.slug === 'word-counter')!;
  manifests.push({ ...structuredClone(template), slug: ADDED_SLUG, name: 'Line Counter', description: 'Counts the lines of a text.' });
  return manifests;
}

describe('examples/ci/regenerate.sh in a git repo', { timeout: 600_000 }, () => {
  let registry: Registry;
  let originalApi: MockApi;
  let changedApi: MockApi;
  let scratch: string;
  let repo: string;
  let baseEnv: Record<string, string>;

  const git = async (...args: string[]): Promise<string> => {
    const result = await runProcess('git', args, { cwd: repo, env: baseEnv });
    assert.equal(result.code, 0, `git ${args.join(' ')}: ${result.stderr}`);
    return result.stdout;
  };
  const committedFiles = async (): Promise<string[]> => (await git('diff', '--name-only', 'HEAD~1', 'HEAD')).split('\n').filter((line) => line !== '').sort();
  const regenerate = (mode: 'check' | 'update', env: Record<string, string>): Promise<CliResult> =>
    runProcess('bash', [SCRIPT, mode], { cwd: repo, env: { ...baseEnv, ...env }, timeoutMs: 300_000 });
  const describeRun = (run: CliResult): string => `exit ${run.code}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`;

  before(async () => {
    // Settled one by one, so that whatever did start is closed by after() when another part fails.
    const [seeded, original, changed] = await Promise.allSettled([startSeededRegistry(), startMockApi({ manifests: originalManifests }), startMockApi({ manifests: changedManifests() })]);
    if (seeded.status === 'fulfilled') registry = seeded.value;
    if (original.status === 'fulfilled') originalApi = original.value;
    if (changed.status === 'fulfilled') changedApi = changed.value;
    for (const part of [seeded, original, changed]) if (part.status === 'rejected') throw part.reason;
    scratch = await mkdtemp(join(tmpdir(), 'nb-ci-recipe-'));
    repo = join(scratch, 'repo');
    const home = join(scratch, 'home');
    await Promise.all([mkdir(repo), mkdir(home)]);
    baseEnv = isolatedNpmEnv(registry, home, {
      NEXUSBLOOM_GEN: `${process.execPath} ${join(REPO_ROOT, 'bin', 'run.js')}`,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 'CI',
      GIT_AUTHOR_EMAIL: 'ci@example.invalid',
      GIT_COMMITTER_NAME: 'CI',
      GIT_COMMITTER_EMAIL: 'ci@example.invalid',
    });
    await git('init', '--quiet', '--initial-branch=main');
    await writeFile(join(repo, 'README.md'), 'A project that commits its generated MCP server.\n');
    await git('add', 'README.md');
    await git('commit', '--quiet', '-m', 'Start');
  });

  after(async () => {
    await Promise.all([registry?.close(), originalApi?.close(), changedApi?.close()]);
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('first run: pulls, builds and commits the server, verifies every tool against the API, publishes it', async () => {
    const run = await regenerate('update', { NEXUSBLOOM_API_URL: originalApi.url, VERIFY: 'api', PUBLISH: '1' });
    assert.equal(run.code, 0, describeRun(run));
    assert.equal((await git('log', '--format=%s')).trim().split('\n').length, 2);
    const committed = await committedFiles();
    assert.ok(committed.includes('catalogue.json'));
    assert.ok(committed.includes('server/package.json'));
    assert.ok(committed.includes(`server/src/tools/${CHANGED_SLUG}.ts`));
    assert.deepEqual(committed.filter((file) => /^server\/(dist|node_modules)\//.test(file) || file === 'server/package-lock.json'), [], 'build output and installs are not committed');
    assert.equal((await git('status', '--porcelain')).trim(), '', 'the install and verify steps leave the tree clean');
    assert.match(run.stdout, new RegExp(`${originalManifests.length} of ${originalManifests.length} tools passed`));
    assert.ok(originalApi.requests.some((request) => request.endpoint === 'run'), 'verify ran tools against the API');

    const packument = (await (await fetch(`${registry.url}/@nexusbloom%2fmcp-server`)).json()) as { versions?: Record<string, unknown> };
    assert.deepEqual(Object.keys(packument.versions ?? {}), ['0.1.0']);
  });

  it('after a catalogue change, check mode fails and names the drifted files', async () => {
    const run = await regenerate('check', { NEXUSBLOOM_API_URL: changedApi.url, VERIFY: 'none' });
    assert.equal(run.code, 1, describeRun(run));
    const named = [...run.stderr.matchAll(/^(changed|missing|extra):\s+(\S+)$/gm)].map((match) => `${match[1]} ${match[2]}`).sort();
    const lock = JSON.parse(readFileSync(join(repo, 'server', 'names.lock.json'), 'utf8')) as { tools: Record<string, { file: string }> };
    const changedModule = `src/tools/${lock.tools[CHANGED_SLUG]!.file}.ts`;
    assert.deepEqual(named, [
      'changed README.md',
      'changed data/catalogue-index.json',
      'changed data/catalogue.json',
      'changed data/search-index.json',
      'changed data/tools-list.json',
      'changed names.lock.json',
      `changed ${changedModule}`,
      'changed src/tools/index.ts',
      'changed src/types.ts',
      `missing src/tools/${ADDED_SLUG}.ts`,
    ].sort());
  });

  it('update mode commits exactly the files the change touches', async () => {
    const run = await regenerate('update', { NEXUSBLOOM_API_URL: changedApi.url, VERIFY: 'none' });
    assert.equal(run.code, 0, describeRun(run));
    const lock = JSON.parse(readFileSync(join(repo, 'server', 'names.lock.json'), 'utf8')) as { tools: Record<string, { file: string }> };
    const moduleOf = (slug: string): string => `server/src/tools/${lock.tools[slug]!.file}.ts`;
    const expected = [
      // The pulled bundle, the package's copy of it and its index, its search index and its prepared tools/list.
      'catalogue.json',
      'server/data/catalogue-index.json',
      'server/data/catalogue.json',
      'server/data/search-index.json',
      'server/data/tools-list.json',
      // One module per tool: the changed one and the new one, nothing else.
      moduleOf(CHANGED_SLUG),
      moduleOf(ADDED_SLUG),
      // What lists every tool: the names lock, the README's tool table, the wrappers' index and the types barrel.
      'server/names.lock.json',
      'server/README.md',
      'server/src/tools/index.ts',
      'server/src/types.ts',
    ].sort();
    assert.deepEqual(await committedFiles(), expected);
    assert.match(await git('show', 'HEAD:server/src/tools/' + `${lock.tools[CHANGED_SLUG]!.file}.ts`), /max_length\?: number/);
  });

  it('with no change, check mode passes and update mode commits nothing', async () => {
    const head = (await git('rev-parse', 'HEAD')).trim();
    const check = await regenerate('check', { NEXUSBLOOM_API_URL: changedApi.url, VERIFY: 'none' });
    assert.equal(check.code, 0, describeRun(check));
    assert.match(check.stdout, /is up to date with/);
    const update = await regenerate('update', { NEXUSBLOOM_API_URL: changedApi.url, VERIFY: 'none' });
    assert.equal(update.code, 0, describeRun(update));
    assert.match(update.stderr, /no change: server is up to date/);
    assert.equal((await git('rev-parse', 'HEAD')).trim(), head);
    assert.equal((await git('status', '--porcelain')).trim(), '');
  });
});
