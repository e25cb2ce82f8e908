import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { startMockApi, type MockApi } from '../../src/runtime/dev/mock-api.js';
import type { Manifest } from '../../src/runtime/shared/contracts.js';
import { bundle, hostileBundle, tool } from '../fixtures/catalogues.js';
import { runCli } from '../helpers/cli.js';

async function listTree(dir: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(join(dir, prefix), { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(
    entries.map((e) =>
      e.isDirectory()
        ? e.name === 'node_modules' || e.name === 'dist'
          ? []
          : listTree(dir, join(prefix, e.name))
        : [join(prefix, e.name)],
    ),
  );
  return nested.flat().sort();
}

async function readTree(dir: string): Promise<Map<string, string>> {
  const files = await listTree(dir);
  return new Map(await Promise.all(files.map(async (f) => [f, await readFile(join(dir, f), 'utf8')] as const)));
}

describe('nexusbloom-gen CLI (real binary)', () => {
  let work: string;
  before(async () => {
    work = await mkdtemp(join(tmpdir(), 'nb-cli-'));
  });
  after(async () => rm(work, { recursive: true, force: true }));

  it('builds and compiles a hostile catalogue; --check passes, then names changed, missing and extra files', async () => {
    const source = join(work, 'hostile.json');
    await writeFile(source, JSON.stringify(hostileBundle()));
    const out = join(work, 'hostile-out');
    const built = await runCli(['build', '--source', source, '--out', out, '--json']);
    assert.equal(built.code, 0, built.stderr);
    const result = JSON.parse(built.stdout);
    assert.equal(result.compiled, true);
    assert.equal(result.tools, hostileBundle().tools.length);
    assert.equal(result.withheld.length, 5);
    assert.match(built.stderr, /withheld from tools\/list/);
    assert.ok((await readdir(join(out, 'dist'))).includes('bin.js'));

    const clean = await runCli(['build', '--source', source, '--out', out, '--check']);
    assert.equal(clean.code, 0, clean.stderr);

    await writeFile(join(out, 'src', 'tools', 'index.ts'), '// edited\n');
    await rm(join(out, 'data', 'catalogue.json'));
    await writeFile(join(out, 'src', 'tools', 'stray.ts'), 'export {};\n');
    const drift = await runCli(['build', '--source', source, '--out', out, '--check']);
    assert.equal(drift.code, 1);
    assert.match(drift.stderr, /changed: src\/tools\/index\.ts/);
    assert.match(drift.stderr, /missing: data\/catalogue\.json/);
    assert.match(drift.stderr, /extra: +src\/tools\/stray\.ts/);

    // A rebuild repairs the folder and removes the stray module.
    assert.equal((await runCli(['build', '--source', source, '--out', out, '--no-compile'])).code, 0);
    assert.equal((await runCli(['build', '--source', source, '--out', out, '--check'])).code, 0);
  });

  it('check reports every problem with slug and pointer, exits non-zero, and --json carries them', async () => {
    const source = join(work, 'bad.json');
    await writeFile(
      source,
      JSON.stringify(
        bundle([
          tool('ok'),
          tool('bad-example', { examples: [{ params: { text: 1 } }] }),
          { ...tool('no-name'), name: undefined },
          tool('with space'),
        ]),
      ),
    );
    const text = await runCli(['check', '--source', source]);
    assert.equal(text.code, 1);
    // Named by the place in the bundle (its index there), not only inside the tool.
    assert.match(
      text.stderr,
      /tool "bad-example" at \/tools\/1\/examples\/0\/params\/text: example does not match input_schema: must be string \(got 1\)/,
    );
    assert.match(text.stderr, /tool "no-name" at \/tools\/2\/name: missing required field "name"/);
    assert.match(text.stderr, /warning: tool "with space" at \/tools\/3\/slug: withheld/);
    const json = await runCli(['check', '--source', source, '--json']);
    assert.equal(json.code, 1);
    const report = JSON.parse(json.stdout);
    assert.equal(report.ok, false);
    assert.equal(report.errors, 2);
    assert.deepEqual(
      report.withheld.map((w: { slug: string }) => w.slug),
      ['with space'],
    );
    const good = await runCli(['check', '--json']);
    assert.equal(good.code, 0, good.stderr);
    assert.equal(JSON.parse(good.stdout).ok, true);
  });

  it("starts without loading semver: oclif's check of its own engines field is skipped, the generator's is stricter", async () => {
    const probe = join(work, 'semver-probe.mjs');
    await writeFile(
      probe,
      "import { createRequire } from 'node:module';\n" +
        'const require = createRequire(import.meta.url);\n' +
        "process.on('exit', () => process.stderr.write(`semver loaded: ${Object.keys(require.cache).some((k) => /[\\\\/]node_modules[\\\\/]semver[\\\\/]/.test(k))}\\n`));\n",
    );
    const start = (env: NodeJS.ProcessEnv) =>
      runCli(['--version'], { env: { NODE_OPTIONS: `--import ${pathToFileURL(probe).href}`, ...env } });
    const run = await start({});
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^nexusbloom-gen\/\d/);
    assert.match(run.stderr, /semver loaded: false/);
    // The probe sees it when oclif does check (a user who set the variable keeps their setting).
    assert.match((await start({ OCLIF_DISABLE_ENGINE_WARNING: '' })).stderr, /semver loaded: true/);
  });

  it('a failing build writes nothing', async () => {
    const source = join(work, 'broken.json');
    await writeFile(
      source,
      JSON.stringify(bundle([tool('x', { input_schema: { type: 'object', properties: { a: { $ref: 'remote.json' } } } })])),
    );
    const out = join(work, 'never');
    const run = await runCli(['build', '--source', source, '--out', out]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /tool "x" at \/tools\/0\/input_schema\/properties\/a\/\$ref: external \$ref/);
    assert.deepEqual(await listTree(out), []);
  });

  describe('against the API', () => {
    let api: MockApi;
    const manifests: Manifest[] = [tool('alpha'), tool('beta/gamma'), tool('delta', { input_schema: null, examples: [] })];
    before(async () => {
      api = await startMockApi({ manifests, pageSize: 2, apiKey: 'k1' });
    });
    after(async () => api.close());

    it('pull writes a bundle; building from it gives the same bytes as building from the API', async () => {
      const env = { NEXUSBLOOM_API_KEY: 'k1' };
      const file = join(work, 'pulled.json');
      const pulled = await runCli(['pull', '--source', api.url, '--out', file, '--json'], { env });
      assert.equal(pulled.code, 0, pulled.stderr);
      assert.equal(JSON.parse(pulled.stdout).tools, 3);
      const fromApi = join(work, 'from-api');
      const fromFile = join(work, 'from-file');
      // --source omitted: NEXUSBLOOM_API_URL names the API (the bare host form).
      assert.equal(
        (await runCli(['build', '--out', fromApi, '--no-compile'], { env: { ...env, NEXUSBLOOM_API_URL: api.url.replace(/\/api$/, '') } }))
          .code,
        0,
      );
      assert.equal((await runCli(['build', '--source', file, '--out', fromFile, '--no-compile'])).code, 0);
      assert.deepEqual(await readTree(fromApi), await readTree(fromFile));
    });

    it('an API failure names the URL and slug, exits non-zero, and leaves no bundle behind', async () => {
      api.setFaults({ manifest: { 'beta/gamma': { kind: 'status', status: 500 } } });
      try {
        const file = join(work, 'failed.json');
        const run = await runCli(['pull', '--source', api.url, '--out', file], { env: { NEXUSBLOOM_API_KEY: 'k1' } });
        assert.equal(run.code, 1);
        assert.match(run.stderr, /beta%2Fgamma \(tool "beta\/gamma"\) failed with 500/);
        await assert.rejects(readFile(file));
      } finally {
        api.setFaults({});
      }
    });
  });
});
