import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Manifest } from '../../src/runtime/shared/contracts.js';
import { startMockApi } from '../../src/runtime/dev/mock-api.js';
import { bundle, tool } from '../fixtures/catalogues.js';
import { runCli } from '../helpers/cli.js';

interface JsonChange {
  kind: string;
  schema: string | null;
  pointer: string;
  sdk: string;
  mcp: string;
}
interface JsonReport {
  old: string;
  new: string;
  bump: string;
  breaking: { sdk: boolean; mcp: boolean };
  tools: Array<{ slug: string; status: string; changes: JsonChange[] }>;
}

const oldTools = (): Manifest[] => [
  tool('alpha', {
    input_schema: {
      type: 'object',
      properties: { text: { type: 'string' }, mode: { type: 'string', enum: ['fast', 'slow'] } },
      required: ['text'],
    },
    output_schema: { type: 'object', properties: { length: { type: 'integer' }, level: { enum: ['info'] } }, required: ['length'] },
  }),
  tool('beta'),
  tool('gone'),
];

const newTools = (): Manifest[] => [
  tool('alpha', {
    input_schema: {
      type: 'object',
      properties: { text: { type: 'string' }, mode: { type: 'string', enum: ['fast'] }, limit: { type: 'integer' } },
      required: ['text'],
    },
    output_schema: {
      type: 'object',
      properties: { length: { type: 'integer' }, level: { enum: ['info', 'fatal'] } },
      required: ['length'],
    },
  }),
  tool('beta', { description: 'Does beta things, better.' }),
  // Other schemas than `gone`'s: a new tool, not `gone` renamed.
  tool('delta', { input_schema: { type: 'object', properties: { when: { type: 'string' } } }, examples: [{ params: { when: 'now' } }] }),
];

const changesOf = (report: JsonReport, slug: string) =>
  report.tools
    .find((t) => t.slug === slug)
    ?.changes.map((c) => ({ kind: c.kind, schema: c.schema, pointer: c.pointer, sdk: c.sdk, mcp: c.mcp }));

describe('nexusbloom-gen diff (real binary)', () => {
  let work: string;
  let oldFile: string;
  let newFile: string;
  before(async () => {
    work = await mkdtemp(join(tmpdir(), 'nb-diff-'));
    oldFile = join(work, 'old.json');
    newFile = join(work, 'new.json');
    await writeFile(oldFile, JSON.stringify(bundle(oldTools())));
    await writeFile(newFile, JSON.stringify(bundle(newTools())));
  });
  after(async () => rm(work, { recursive: true, force: true }));

  it('diffs two bundle files: JSON report with every change classified for both audiences', async () => {
    const result = await runCli(['diff', oldFile, newFile, '--json']);
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout) as JsonReport;
    assert.equal(report.bump, 'major');
    assert.deepEqual(report.breaking, { sdk: true, mcp: true });
    assert.deepEqual(
      report.tools.map((t) => [t.slug, t.status]),
      [
        ['alpha', 'changed'],
        ['beta', 'changed'],
        ['delta', 'added'],
        ['gone', 'removed'],
      ],
    );
    assert.deepEqual(changesOf(report, 'alpha'), [
      { kind: 'enum-values-removed', schema: 'input', pointer: '/properties/mode', sdk: 'breaking', mcp: 'breaking' },
      { kind: 'property-added', schema: 'input', pointer: '/properties/limit', sdk: 'minor', mcp: 'minor' },
      { kind: 'enum-values-added', schema: 'output', pointer: '/properties/level', sdk: 'breaking', mcp: 'minor' },
    ]);
    assert.deepEqual(changesOf(report, 'beta'), [{ kind: 'tool-metadata-changed', schema: null, pointer: '', sdk: 'patch', mcp: 'patch' }]);
    assert.deepEqual(changesOf(report, 'gone'), [{ kind: 'tool-removed', schema: null, pointer: '', sdk: 'breaking', mcp: 'breaking' }]);
  });

  it('prints a readable report and exits 0 whatever the diff; --fail-on breaking exits 1', async () => {
    const text = await runCli(['diff', oldFile, newFile]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^Suggested bump: \*\*major\*\*\. 1 tool added, 1 removed, 2 changed\./m);
    assert.match(text.stdout, /^- \*\*breaking\*\*: input `\/properties\/mode`: enum values removed: `"slow"`$/m);
    assert.match(text.stdout, /^- SDK \*\*breaking\*\*, MCP minor: output `\/properties\/level`: enum values added: `"fatal"`$/m);
    assert.match(text.stdout, /^- `gone`: \*\*breaking\*\*: tool removed$/m);

    const gated = await runCli(['diff', oldFile, newFile, '--fail-on', 'breaking']);
    assert.equal(gated.code, 1);
    assert.match(gated.stderr, /breaking changes found/);
    const gatedJson = await runCli(['diff', oldFile, newFile, '--fail-on', 'breaking', '--json']);
    assert.equal(gatedJson.code, 1);
    assert.equal((JSON.parse(gatedJson.stdout) as JsonReport).bump, 'major');

    // Only additions and wording: not breaking, so the gate passes.
    const additive = join(work, 'additive.json');
    await writeFile(additive, JSON.stringify(bundle([...oldTools(), tool('epsilon')])));
    const minor = await runCli(['diff', oldFile, additive, '--fail-on', 'breaking', '--json']);
    assert.equal(minor.code, 0, minor.stderr);
    assert.equal((JSON.parse(minor.stdout) as JsonReport).bump, 'minor');
    assert.equal((await runCli(['diff', oldFile, additive, '--fail-on', 'any'])).code, 1);
    const same = await runCli(['diff', oldFile, oldFile, '--fail-on', 'any']);
    assert.equal(same.code, 0, same.stderr);
    assert.match(same.stdout, /^No changes\.$/m);
  });

  it('reads a generated package folder as a side', async () => {
    const out = join(work, 'pkg');
    const built = await runCli(['build', '--source', oldFile, '--out', out, '--no-compile']);
    assert.equal(built.code, 0, built.stderr);
    const fromPackage = JSON.parse((await runCli(['diff', out, newFile, '--json'])).stdout) as JsonReport;
    const fromBundle = JSON.parse((await runCli(['diff', oldFile, newFile, '--json'])).stdout) as JsonReport;
    assert.equal(fromPackage.old, out);
    assert.deepEqual(fromPackage.tools, fromBundle.tools);
    const unchanged = JSON.parse((await runCli(['diff', out, oldFile, '--json'])).stdout) as JsonReport;
    assert.deepEqual([unchanged.bump, unchanged.tools], ['none', []]);
    // The package's data/catalogue.json passed instead of the folder: one line that names the folder, not an error
    // for every field of every tool.
    const served = await runCli(['diff', join(out, 'data', 'catalogue.json'), newFile]);
    assert.equal(served.code, 1);
    assert.match(
      served.stderr,
      /^Error: OLD \(.*\): .*catalogue\.json is the data\/catalogue\.json of a generated package, not a bundle: pass the package folder \(.*pkg\)$/m,
    );
    assert.doesNotMatch(served.stderr, /missing required field/);
  });

  it('reads an API URL as a side (mock API on 127.0.0.1)', async () => {
    const api = await startMockApi({ manifests: newTools(), pageSize: 2 });
    try {
      const result = await runCli(['diff', oldFile, api.url, '--json']);
      assert.equal(result.code, 0, result.stderr);
      const fromApi = JSON.parse(result.stdout) as JsonReport;
      const fromBundle = JSON.parse((await runCli(['diff', oldFile, newFile, '--json'])).stdout) as JsonReport;
      assert.equal(fromApi.new, api.url);
      assert.deepEqual(fromApi.tools, fromBundle.tools);
    } finally {
      await api.close();
    }
  });

  it('names a side it cannot read (OLD or NEW) and what it may be, and exits 1', async () => {
    const missing = await runCli(['diff', join(work, 'nope.json'), newFile]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^Error: OLD \(.*nope\.json\): cannot read bundle .*nope\.json: no such file$/m);
    assert.match(missing.stderr, /^OLD must be an API base URL, a bundle file, an OpenAPI document or a generated package folder\.$/m);
    // diff has no --source flag to advise.
    assert.doesNotMatch(missing.stderr, /--source/);

    const notPackage = await runCli(['diff', oldFile, work, '--json']);
    assert.equal(notPackage.code, 1);
    const { error } = JSON.parse(notPackage.stdout) as { error: { message: string; exit: number } };
    assert.equal(error.exit, 1);
    assert.match(error.message, /^NEW \(.*\): .* is not a generated package/);

    const broken = join(work, 'broken.json');
    await writeFile(
      broken,
      JSON.stringify(bundle([tool('alpha', { input_schema: { type: 'object', properties: { a: { type: 'nonsense' } } } })])),
    );
    const withProblems = await runCli(['diff', oldFile, broken]);
    assert.equal(withProblems.code, 1);
    assert.match(withProblems.stderr, /^Error: NEW \(.*broken\.json\): catalogue .* has problems/m);
    assert.match(
      withProblems.stderr,
      /tool "alpha" at \/tools\/0\/input_schema\/properties\/a\/type: schema does not compile: not a JSON Schema here: must be one of .*\(got "nonsense"\)/,
    );
    assert.doesNotMatch(withProblems.stderr, /\bdata\//);
    // The side was read; its tools say what to fix.
    assert.doesNotMatch(withProblems.stderr, /NEW must be/);
  });

  it('pairs a removed and an added tool with the same schemas as a rename, whatever their SDK wrappers', async () => {
    const renamedFile = join(work, 'renamed.json');
    await writeFile(
      renamedFile,
      JSON.stringify(bundle([...oldTools().filter((t) => t.slug !== 'gone'), { ...tool('gone'), slug: 'went-away' }])),
    );
    const report = JSON.parse((await runCli(['diff', oldFile, renamedFile, '--json'])).stdout) as JsonReport;
    assert.deepEqual(
      report.tools.map((t) => [t.slug, t.status, t.changes.map((c) => c.kind)]),
      [['went-away', 'changed', ['tool-renamed', 'identifier-changed', 'file-changed']]],
    );
  });

  it('build --changelog prepends an undated entry titled with the suggested version and writes that version into package.json and server.json', async () => {
    const third = join(work, 'third.json');
    await writeFile(
      third,
      JSON.stringify(
        bundle([
          ...newTools(),
          tool('zeta', { input_schema: { type: 'object', properties: { z: { type: 'boolean' } } }, examples: [{ params: { z: true } }] }),
        ]),
      ),
    );
    const versionsIn = async (out: string): Promise<string[]> => {
      const manifest = JSON.parse(await readFile(join(out, 'package.json'), 'utf8')) as { version: string; files: string[] };
      const server = JSON.parse(await readFile(join(out, 'server.json'), 'utf8')) as {
        version: string;
        packages: Array<{ version: string }>;
      };
      assert.ok(manifest.files.includes('CHANGELOG.md'), 'CHANGELOG.md ships in the package');
      return [manifest.version, server.version, server.packages[0]!.version];
    };
    const texts: string[] = [];
    for (const name of ['a', 'b']) {
      const out = join(work, `changelog-${name}`);
      assert.equal((await runCli(['build', '--source', oldFile, '--out', out, '--no-compile', '--changelog'])).code, 0);
      // No package was there before: nothing to compare, no CHANGELOG.md, the configured version.
      await assert.rejects(stat(join(out, 'CHANGELOG.md')));
      assert.deepEqual(await versionsIn(out), ['0.1.0', '0.1.0', '0.1.0']);
      const built = await runCli(['build', '--source', newFile, '--out', out, '--no-compile', '--changelog']);
      assert.equal(built.code, 0, built.stderr);
      // Breaking below 1.0.0 raises the minor number.
      assert.match(built.stderr, /CHANGELOG\.md: added 0\.2\.0 \(major\)/);
      assert.deepEqual(await versionsIn(out), ['0.2.0', '0.2.0', '0.2.0']);
      const first = await readFile(join(out, 'CHANGELOG.md'), 'utf8');
      texts.push(first);
      // The same catalogue again: nothing changed for callers, the file and the version are left as they were.
      assert.equal((await runCli(['build', '--source', newFile, '--out', out, '--no-compile', '--changelog'])).code, 0);
      assert.equal(await readFile(join(out, 'CHANGELOG.md'), 'utf8'), first);
      assert.deepEqual(await versionsIn(out), ['0.2.0', '0.2.0', '0.2.0']);
      // A plain build and the drift check keep the folder's version: the bumped package is up to date.
      const checked = await runCli(['build', '--source', newFile, '--out', out, '--check']);
      assert.equal(checked.code, 0, checked.stderr);
      // An added tool: a minor entry on top.
      assert.equal((await runCli(['build', '--source', third, '--out', out, '--no-compile', '--changelog'])).code, 0);
      const grown = await readFile(join(out, 'CHANGELOG.md'), 'utf8');
      assert.ok(grown.startsWith('# Changelog\n\n## 0.3.0\n\n'), grown);
      assert.ok(grown.endsWith(first.slice('# Changelog\n\n'.length)), grown);
      assert.deepEqual(await versionsIn(out), ['0.3.0', '0.3.0', '0.3.0']);
      texts.push(grown);
    }
    assert.equal(texts[0], texts[2]);
    assert.equal(texts[1], texts[3]);
    const entry = texts[0]!;
    assert.ok(entry.startsWith('# Changelog\n\n## 0.2.0\n\nSuggested bump: **major**.'), entry);
    assert.match(entry, /^- `gone`: \*\*breaking\*\*: tool removed$/m);
    assert.doesNotMatch(entry, /\d{4}-\d{2}-\d{2}/);
    assert.doesNotMatch(entry, new RegExp(work.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  });

  it('build --bump writes the suggested version without a changelog; a version set higher by hand wins', async () => {
    const out = join(work, 'bumped');
    assert.equal((await runCli(['build', '--source', oldFile, '--out', out, '--no-compile'])).code, 0);
    const additive = join(work, 'additive-bump.json');
    await writeFile(
      additive,
      JSON.stringify(bundle([...oldTools(), tool('epsilon', { input_schema: { type: 'object' }, examples: [{ params: {} }] })])),
    );
    const bumped = await runCli(['build', '--source', additive, '--out', out, '--no-compile', '--bump']);
    assert.equal(bumped.code, 0, bumped.stderr);
    assert.match(bumped.stderr, /version 0\.2\.0 \(minor\)/);
    const version = (JSON.parse(await readFile(join(out, 'package.json'), 'utf8')) as { version: string }).version;
    assert.equal(version, '0.2.0');
    await assert.rejects(stat(join(out, 'CHANGELOG.md')));
    const config = join(work, 'bump-config.json');
    await writeFile(config, JSON.stringify({ packageVersion: '1.0.0' }));
    assert.equal((await runCli(['build', '--source', additive, '--out', out, '--no-compile', '--bump', '--config', config])).code, 0);
    assert.equal((JSON.parse(await readFile(join(out, 'package.json'), 'utf8')) as { version: string }).version, '1.0.0');
  });
});
