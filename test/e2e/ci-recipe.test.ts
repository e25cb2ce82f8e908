// The CI recipe for a committed server (examples/ci/regenerate.sh) run for real in a temp git repo, with the generator
// installed from a registry as users install it (packed from this checkout, published to a loopback Verdaccio): the
// daily update builds on a branch and pushes it for review, never main; verify runs every tool against the mock and
// only the read-only ones against the API; the merged branch publishes; a catalogue change fails the drift check, and
// its update commits exactly the files that change should touch, with the version that follows.

import assert from 'node:assert/strict';
import { lstatSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Manifest } from '../../src/runtime/shared/contracts.js';
import { manifestsFromBundle, startMockApi, type MockApi } from '../../src/runtime/dev/mock-api.js';
import { REPO_ROOT, runProcess, type CliResult } from '../helpers/cli.js';
import { GENERATOR_REGISTRY_ROOTS, publishGenerator } from '../helpers/generator-package.js';
import { EXAMPLE_CATALOGUE } from '../helpers/mcp.js';
import { isolatedNpmEnv, startSeededRegistry, type Registry } from '../helpers/registry.js';

const SCRIPT = join(REPO_ROOT, 'examples', 'ci', 'regenerate.sh');
const BRANCH = 'nexusbloom/regenerate';
const CHANGED_SLUG = 'slugify';
const ADDED_SLUG = 'line-counter';
/** Tools that change things: never run against the real API from CI. */
const DESTRUCTIVE_SLUGS = ['refund-invoice', 'send-reminder'];

/** The example catalogue and two tools that are not read-only, as a billing API would have. */
function baseManifests(): Manifest[] {
  const manifests = manifestsFromBundle(JSON.parse(readFileSync(EXAMPLE_CATALOGUE, 'utf8')));
  const template = manifests.find((manifest) => manifest.slug === 'word-counter')!;
  manifests.push(
    {
      ...structuredClone(template),
      slug: 'refund-invoice',
      name: 'Refund Invoice',
      description: 'Refunds an invoice to the card it was paid with.',
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
    {
      ...structuredClone(template),
      slug: 'send-reminder',
      name: 'Send Reminder',
      description: 'E-mails a payment reminder to the customer.',
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
  );
  return manifests;
}

const originalManifests = baseManifests();

/** The catalogue with one new optional input field on CHANGED_SLUG and one tool added (ADDED_SLUG). */
function changedManifests(): Manifest[] {
  const manifests = structuredClone(originalManifests);
  const changed = manifests.find((manifest) => manifest.slug === CHANGED_SLUG)!;
  const properties = (changed.input_schema as { properties: Record<string, unknown> }).properties;
  properties.max_length = { type: 'integer', minimum: 1, description: 'Cut the slug to at most this many characters.' };
  const template = manifests.find((manifest) => manifest.slug === 'word-counter')!;
  manifests.push({ ...structuredClone(template), slug: ADDED_SLUG, name: 'Line Counter', description: 'Counts the lines of a text.' });
  return manifests;
}

describe('examples/ci/regenerate.sh in a git repo, generator from the registry', { timeout: 900_000 }, () => {
  let registry: Registry;
  let originalApi: MockApi;
  let changedApi: MockApi;
  let scratch: string;
  let repo: string;
  let origin: string;
  let start: string;
  let baseEnv: Record<string, string>;

  const git = async (...args: string[]): Promise<string> => {
    const result = await runProcess('git', args, { cwd: repo, env: baseEnv });
    assert.equal(result.code, 0, `git ${args.join(' ')}: ${result.stderr}`);
    return result.stdout;
  };
  const originRef = async (ref: string): Promise<string> =>
    (await runProcess('git', ['--git-dir', origin, 'rev-parse', '--verify', '--quiet', ref], { cwd: scratch, env: baseEnv })).stdout.trim();
  const committedFiles = async (): Promise<string[]> =>
    (await git('diff', '--name-only', 'HEAD~1', 'HEAD'))
      .split('\n')
      .filter((line) => line !== '')
      .sort();
  const regenerate = (mode: 'check' | 'update', env: Record<string, string>): Promise<CliResult> =>
    runProcess('bash', [SCRIPT, mode], { cwd: repo, env: { ...baseEnv, ...env }, timeoutMs: 300_000 });
  const describeRun = (run: CliResult): string => `exit ${run.code}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
  const publishedVersions = async (): Promise<string[]> =>
    Object.keys(
      ((await (await fetch(`${registry.url}/@nexusbloom%2fmcp-server`)).json()) as { versions?: Record<string, unknown> }).versions ?? {},
    ).sort();
  const mergeReviewedBranch = async (): Promise<void> => {
    await git('switch', '--quiet', 'main');
    await git('merge', '--quiet', '--ff-only', BRANCH);
  };

  before(async () => {
    // Settled one by one, so that whatever did start is closed by after() when another part fails.
    const [seeded, original, changed] = await Promise.allSettled([
      startSeededRegistry(GENERATOR_REGISTRY_ROOTS),
      startMockApi({ manifests: originalManifests }),
      startMockApi({ manifests: changedManifests() }),
    ]);
    if (seeded.status === 'fulfilled') registry = seeded.value;
    if (original.status === 'fulfilled') originalApi = original.value;
    if (changed.status === 'fulfilled') changedApi = changed.value;
    for (const part of [seeded, original, changed]) if (part.status === 'rejected') throw part.reason;
    scratch = await mkdtemp(join(tmpdir(), 'nb-ci-recipe-'));
    repo = join(scratch, 'repo');
    origin = join(scratch, 'origin.git');
    const home = join(scratch, 'home');
    await Promise.all([mkdir(repo), mkdir(home)]);
    baseEnv = isolatedNpmEnv(registry, home, {
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 'CI',
      GIT_AUTHOR_EMAIL: 'ci@example.invalid',
      GIT_COMMITTER_NAME: 'CI',
      GIT_COMMITTER_EMAIL: 'ci@example.invalid',
    });
    const generator = await publishGenerator(registry, baseEnv);
    assert.equal(
      (await runProcess('git', ['init', '--quiet', '--bare', '--initial-branch=main', origin], { cwd: scratch, env: baseEnv })).code,
      0,
    );
    await git('init', '--quiet', '--initial-branch=main');
    await git('remote', 'add', 'origin', origin);
    await writeFile(join(repo, 'README.md'), 'A project that commits its generated MCP server.\n');
    await writeFile(join(repo, '.gitignore'), 'node_modules/\n');
    await writeFile(join(repo, 'package.json'), `${JSON.stringify({ name: 'billing-tools', private: true }, null, 2)}\n`);
    // The user's step: the generator as an exact devDependency, from the registry.
    const installed = await runProcess('npm', ['install', '--save-dev', '--save-exact', `${generator.name}@${generator.version}`], {
      cwd: repo,
      env: baseEnv,
      timeoutMs: 300_000,
    });
    assert.equal(installed.code, 0, `${installed.stdout}\n${installed.stderr}`);
    await git('add', '-A');
    await git('commit', '--quiet', '-m', 'Start');
    await git('push', '--quiet', 'origin', 'main');
    start = (await git('rev-parse', 'HEAD')).trim();
  });

  after(async () => {
    await Promise.all([registry?.close(), originalApi?.close(), changedApi?.close()]);
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('the generator the recipe runs is the one installed from the registry, not this checkout', () => {
    const installed = join(repo, 'node_modules', 'nexusbloom-gen');
    assert.equal(lstatSync(installed).isSymbolicLink(), false);
    const lock = JSON.parse(readFileSync(join(repo, 'package-lock.json'), 'utf8')) as { packages: Record<string, { resolved?: string }> };
    assert.match(
      lock.packages['node_modules/nexusbloom-gen']!.resolved ?? '',
      new RegExp(`^${registry.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/nexusbloom-gen/-/nexusbloom-gen-`),
    );
  });

  it('update: builds on a branch, verifies every tool against the mock and only read-only ones against the API, pushes the branch, never main', async () => {
    const run = await regenerate('update', { NEXUSBLOOM_API_URL: originalApi.url, VERIFY: 'api', PUSH: '1' });
    assert.equal(run.code, 0, describeRun(run));
    assert.equal((await git('branch', '--show-current')).trim(), BRANCH);
    const head = (await git('rev-parse', 'HEAD')).trim();
    assert.equal(await originRef(`refs/heads/${BRANCH}`), head, 'the branch is pushed for review');
    assert.equal(await originRef('refs/heads/main'), start, 'main is untouched');
    const committed = await committedFiles();
    assert.ok(committed.includes('catalogue.json'));
    assert.ok(committed.includes('server/package.json'));
    assert.ok(committed.includes(`server/src/tools/${CHANGED_SLUG}.ts`));
    assert.deepEqual(
      committed.filter((file) => /^server\/(dist|node_modules)\//.test(file) || file === 'server/package-lock.json'),
      [],
      'build output and installs are not committed',
    );
    assert.equal((await git('status', '--porcelain')).trim(), '', 'the install and verify steps leave the tree clean');
    const count = originalManifests.length;
    // Against the mock every tool ran; against the API the two that change things did not.
    assert.match(run.stdout, new RegExp(`^${count} of ${count} tools passed \\(.*, mock\\)\\.$`, 'm'));
    assert.match(
      run.stdout,
      new RegExp(
        `^${count} of ${count} tools passed \\(.*API ${originalApi.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}; 2 not run against the API \\(run: read-only tools\\)\\)\\.$`,
        'm',
      ),
    );
    const ranOnApi = new Set(originalApi.requests.filter((request) => request.endpoint === 'run').map((request) => request.slug));
    assert.ok(ranOnApi.has(CHANGED_SLUG), 'verify ran read-only tools against the API');
    for (const slug of DESTRUCTIVE_SLUGS) assert.equal(ranOnApi.has(slug), false, `${slug} never runs against the API`);
    assert.deepEqual(await publishedVersions(), [], 'update never publishes');
  });

  it('the merged branch: check mode passes, verifies against the mock and publishes the version', async () => {
    await mergeReviewedBranch();
    const run = await regenerate('check', { PULL: '0', VERIFY: 'mock', PUBLISH: '1' });
    assert.equal(run.code, 0, describeRun(run));
    assert.deepEqual(await publishedVersions(), ['0.1.0']);
    const refused = await regenerate('update', { PULL: '0', VERIFY: 'none', PUBLISH: '1' });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /PUBLISH=1 is for check mode/);
  });

  it('after a catalogue change, check mode fails and names the drifted files', async () => {
    const run = await regenerate('check', { NEXUSBLOOM_API_URL: changedApi.url, VERIFY: 'none' });
    assert.equal(run.code, 1, describeRun(run));
    const named = [...run.stderr.matchAll(/^(changed|missing|extra):\s+(\S+)$/gm)].map((match) => `${match[1]} ${match[2]}`).sort();
    const lock = JSON.parse(readFileSync(join(repo, 'server', 'names.lock.json'), 'utf8')) as { tools: Record<string, { file: string }> };
    const changedModule = `src/tools/${lock.tools[CHANGED_SLUG]!.file}.ts`;
    assert.deepEqual(
      named,
      [
        'changed README.md',
        'changed data/catalogue-index.json',
        'changed data/catalogue.json',
        'changed data/search-index.json',
        'changed data/token-costs.json',
        'changed data/tools-list.json',
        'changed names.lock.json',
        `changed ${changedModule}`,
        'changed src/tools/index.ts',
        'changed src/types.ts',
        `missing src/tools/${ADDED_SLUG}.ts`,
      ].sort(),
    );
    await git('checkout', '--quiet', '--', '.');
  });

  it('update mode commits exactly the files the change touches, with its changelog entry and the version that follows', async () => {
    const run = await regenerate('update', { NEXUSBLOOM_API_URL: changedApi.url, VERIFY: 'none', PUSH: '1' });
    assert.equal(run.code, 0, describeRun(run));
    const lock = JSON.parse(readFileSync(join(repo, 'server', 'names.lock.json'), 'utf8')) as { tools: Record<string, { file: string }> };
    const moduleOf = (slug: string): string => `server/src/tools/${lock.tools[slug]!.file}.ts`;
    const expected = [
      // The pulled bundle, the package's copy of it and its index, its search index, its prepared tools/list and what
      // each tool costs in it.
      'catalogue.json',
      'server/data/catalogue-index.json',
      'server/data/catalogue.json',
      'server/data/search-index.json',
      'server/data/token-costs.json',
      'server/data/tools-list.json',
      // One module per tool: the changed one and the new one, nothing else.
      moduleOf(CHANGED_SLUG),
      moduleOf(ADDED_SLUG),
      // What lists every tool: the names lock, the README's tool table, the wrappers' index and the types barrel.
      'server/names.lock.json',
      'server/README.md',
      'server/src/tools/index.ts',
      'server/src/types.ts',
      // What changed for callers, and the version that follows (an added tool, an optional field: minor), which the
      // server also reports as its own (src/names.ts).
      'server/CHANGELOG.md',
      'server/package.json',
      'server/server.json',
      'server/src/names.ts',
    ].sort();
    assert.deepEqual(await committedFiles(), expected);
    assert.match(await git('show', 'HEAD:server/src/tools/' + `${lock.tools[CHANGED_SLUG]!.file}.ts`), /max_length\?: number/);
    assert.equal((JSON.parse(await git('show', 'HEAD:server/package.json')) as { version: string }).version, '0.2.0');
    assert.equal((JSON.parse(await git('show', 'HEAD:server/server.json')) as { version: string }).version, '0.2.0');
    // The commit body (and so the pull request) opens with the changelog entry.
    const message = await git('log', '-1', '--format=%B');
    assert.match(message, /^Regenerate the MCP server from the catalogue\n\n## 0\.2\.0\n\nSuggested bump: \*\*minor\*\*\./);
    assert.equal(await originRef(`refs/heads/${BRANCH}`), (await git('rev-parse', 'HEAD')).trim());
    assert.notEqual(await originRef('refs/heads/main'), (await git('rev-parse', 'HEAD')).trim());
  });

  it('once merged, check passes and publishes the new version; with no change, update commits nothing', async () => {
    await mergeReviewedBranch();
    const head = (await git('rev-parse', 'HEAD')).trim();
    const check = await regenerate('check', { NEXUSBLOOM_API_URL: changedApi.url, VERIFY: 'none', PUBLISH: '1' });
    assert.equal(check.code, 0, describeRun(check));
    assert.match(check.stdout, /is up to date with/);
    assert.deepEqual(await publishedVersions(), ['0.1.0', '0.2.0']);
    const update = await regenerate('update', { NEXUSBLOOM_API_URL: changedApi.url, VERIFY: 'none', PUSH: '1' });
    assert.equal(update.code, 0, describeRun(update));
    assert.match(update.stderr, /no change: server is up to date/);
    assert.equal((await git('rev-parse', 'HEAD')).trim(), head);
    assert.equal((await git('branch', '--show-current')).trim(), 'main');
    assert.equal((await git('status', '--porcelain')).trim(), '');
  });
});
