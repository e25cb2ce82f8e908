import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Manifest } from '../../../src/runtime/shared/contracts.js';
import { buildChangelog, bumpVersion, diffTool } from '../../../src/pipeline/changelog/changelog.js';
import { loadSide, type CatalogueSide, type SideTool } from '../../../src/pipeline/changelog/load-side.js';
import {
  codeSpan,
  latestChangelogVersion,
  prependChangelogEntry,
  renderMarkdown,
} from '../../../src/pipeline/changelog/render-markdown.js';
import { bundle, HOSTILE_TEXT, tool } from '../../fixtures/catalogues.js';
import { planRelease, planSide, type PreviousPackage } from '../../../src/pipeline/changelog/package-changelog.js';
import { planPackage } from '../../../src/pipeline/plan/plan-package.js';
import { checkCatalogue } from '../../../src/pipeline/check/check-in-thread.js';

function sideTool(manifest: Manifest, names: Partial<SideTool> = {}): SideTool {
  return {
    slug: manifest.slug,
    manifest,
    identifier: manifest.slug.replace(/-(\w)/g, (_, c: string) => c.toUpperCase()),
    file: manifest.slug,
    withheldReason: null,
    ...names,
  };
}

function side(tools: SideTool[]): CatalogueSide {
  return { origin: 'test', kind: 'bundle', tools, lock: null, packageVersion: null };
}

const kindsAndImpact = (tool: SideTool, other: SideTool) => diffTool(tool, other).map((c) => ({ kind: c.kind, sdk: c.sdk, mcp: c.mcp }));

describe('changelog: tool-level changes', () => {
  const base = tool('env-validator');

  const cases: Array<{ name: string; before: SideTool; after: SideTool; want: Array<{ kind: string; sdk: string; mcp: string }> }> = [
    {
      name: 'a tool that became withheld breaks MCP clients, not SDK callers',
      before: sideTool(base),
      after: sideTool(base, { withheldReason: 'contains white space' }),
      want: [{ kind: 'tool-withheld', sdk: 'none', mcp: 'breaking' }],
    },
    {
      name: 'a tool that became advertised is new for MCP clients',
      before: sideTool(base, { withheldReason: 'contains "/"' }),
      after: sideTool(base),
      want: [{ kind: 'tool-advertised', sdk: 'none', mcp: 'minor' }],
    },
    {
      name: 'a renamed SDK wrapper breaks SDK imports only',
      before: sideTool(base),
      after: sideTool(base, { identifier: 'envValidatorA1b2' }),
      want: [{ kind: 'identifier-changed', sdk: 'breaking', mcp: 'none' }],
    },
    {
      name: 'a moved module file is internal',
      before: sideTool(base),
      after: sideTool(base, { file: 'env-validator-a1b2' }),
      want: [{ kind: 'file-changed', sdk: 'patch', mcp: 'none' }],
    },
    {
      name: 'description and version are patch-level',
      before: sideTool(base),
      after: sideTool({ ...base, description: 'Validates env files.', version: '1.0.1' }),
      want: [
        { kind: 'tool-metadata-changed', sdk: 'patch', mcp: 'patch' },
        { kind: 'tool-metadata-changed', sdk: 'patch', mcp: 'patch' },
      ],
    },
    {
      name: 'deprecating a tool is minor',
      before: sideTool(base),
      after: sideTool({ ...base, deprecated: 'use env-check' }),
      want: [{ kind: 'tool-deprecated', sdk: 'minor', mcp: 'minor' }],
    },
    {
      name: 'read-only to destructive can get the tool denied by a host risk ceiling: each hint breaking for MCP clients',
      before: sideTool({ ...base, annotations: { readOnlyHint: true } }),
      after: sideTool({ ...base, annotations: { readOnlyHint: false, destructiveHint: true } }),
      want: [
        { kind: 'annotation-changed', sdk: 'patch', mcp: 'breaking' },
        { kind: 'annotation-changed', sdk: 'patch', mcp: 'breaking' },
      ],
    },
    {
      name: 'destructive to read-only lowers the risk: a tool more policies let through',
      before: sideTool({ ...base, annotations: { destructiveHint: true } }),
      after: sideTool({ ...base, annotations: { readOnlyHint: true } }),
      want: [
        { kind: 'annotation-changed', sdk: 'patch', mcp: 'minor' },
        { kind: 'annotation-changed', sdk: 'patch', mcp: 'minor' },
      ],
    },
    {
      name: 'destructiveHint false → true is breaking for MCP clients',
      before: sideTool({ ...base, annotations: { readOnlyHint: false, destructiveHint: false } }),
      after: sideTool({ ...base, annotations: { readOnlyHint: false, destructiveHint: true } }),
      want: [{ kind: 'annotation-changed', sdk: 'patch', mcp: 'breaking' }],
    },
    {
      name: 'openWorldHint added is breaking for MCP clients; idempotentHint added lowers the risk (minor)',
      before: sideTool({ ...base, annotations: {} }),
      after: sideTool({ ...base, annotations: { openWorldHint: true, idempotentHint: true } }),
      want: [
        { kind: 'annotation-changed', sdk: 'patch', mcp: 'minor' },
        { kind: 'annotation-changed', sdk: 'patch', mcp: 'breaking' },
      ],
    },
    {
      name: 'readOnlyHint removed is breaking for MCP clients',
      before: sideTool({ ...base, annotations: { readOnlyHint: true } }),
      after: sideTool({ ...base }),
      want: [{ kind: 'annotation-changed', sdk: 'patch', mcp: 'breaking' }],
    },
    {
      name: 'a schema appearing where there was none: input null means no declared parameters',
      before: sideTool({ ...base, input_schema: null, output_schema: null }),
      after: sideTool({ ...base, input_schema: { type: 'object', properties: { path: { type: 'string' } } }, output_schema: null }),
      want: [{ kind: 'property-added', sdk: 'minor', mcp: 'minor' }],
    },
    {
      name: 'an output schema dropped widens the result to any value',
      before: sideTool(base),
      after: sideTool({ ...base, output_schema: null }),
      want: [
        { kind: 'type-changed', sdk: 'breaking', mcp: 'breaking' },
        { kind: 'property-removed', sdk: 'breaking', mcp: 'breaking' },
      ],
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(kindsAndImpact(c.before, c.after), c.want));

  it('tools added, removed and changed; the bump is the highest impact for either audience', () => {
    const before = side([sideTool(tool('a')), sideTool(tool('gone'))]);
    const after = side([sideTool(tool('a', { description: 'Better words.' })), sideTool(tool('b', { input_schema: { type: 'object' } }))]);
    const changelog = buildChangelog(before, after);
    assert.deepEqual(
      changelog.tools.map((t) => [t.slug, t.status, t.sdk, t.mcp]),
      [
        ['a', 'changed', 'patch', 'patch'],
        ['b', 'added', 'minor', 'minor'],
        ['gone', 'removed', 'breaking', 'breaking'],
      ],
    );
    assert.equal(changelog.bump, 'major');
    assert.deepEqual(changelog.counts, { added: 1, removed: 1, changed: 1, breakingForSdk: 1, breakingForMcp: 1 });
    assert.equal(buildChangelog(before, side([sideTool(tool('a')), sideTool(tool('gone')), sideTool(tool('c'))])).bump, 'minor');
    assert.equal(buildChangelog(before, side([sideTool(tool('a', { description: 'x' })), sideTool(tool('gone'))])).bump, 'patch');
    assert.equal(buildChangelog(before, before).bump, 'none');
  });

  it('a slug renamed under the same SDK wrapper is one tool renamed: breaking for MCP clients only', () => {
    const before = side([
      sideTool(tool('old tool', { name: 'Old tool', description: 'Old.' }), {
        identifier: 'oldTool',
        withheldReason: 'contains white space',
      }),
    ]);
    const after = side([
      sideTool(
        tool('old-tool', {
          name: 'Old tool',
          description: 'Old.',
          input_schema: { type: 'object', properties: { text: { type: 'string' }, n: { type: 'integer' } }, required: ['text'] },
        }),
        { identifier: 'oldTool', file: 'old tool' },
      ),
    ]);
    const changelog = buildChangelog(before, after);
    assert.deepEqual(
      changelog.tools.map((t) => [t.slug, t.status, t.sdk, t.mcp]),
      [['old-tool', 'changed', 'minor', 'breaking']],
    );
    assert.deepEqual(
      changelog.tools[0]!.changes.map((c) => [c.kind, c.sdk, c.mcp]),
      [
        ['tool-renamed', 'patch', 'breaking'],
        ['tool-advertised', 'none', 'minor'],
        ['property-added', 'minor', 'minor'],
      ],
    );
    assert.equal(changelog.tools[0]!.changes[0]!.message, 'slug renamed: "old tool" → "old-tool" (the SDK wrapper keeps its name)');
    assert.deepEqual(changelog.breaking, { sdk: false, mcp: true });
    assert.deepEqual(changelog.counts, { added: 0, removed: 0, changed: 1, breakingForSdk: 0, breakingForMcp: 1 });
    // A new slug with another wrapper name and other schemas is a removal and an addition.
    const other = buildChangelog(
      before,
      side([sideTool(tool('new-tool', { input_schema: { type: 'object', properties: { other: { type: 'number' } } } }))]),
    );
    assert.deepEqual(
      other.tools.map((t) => [t.slug, t.status]),
      [
        ['new-tool', 'added'],
        ['old tool', 'removed'],
      ],
    );
  });

  it('a removed and an added tool with the same schemas are one tool renamed, whatever their SDK wrappers', () => {
    const schemas = {
      name: 'Refund',
      description: 'Refunds an invoice.',
      input_schema: { type: 'object', properties: { amount: { type: 'integer' }, invoice: { type: 'string' } }, required: ['invoice'] },
      output_schema: { type: 'object', properties: { id: { type: 'string' } } },
    };
    // The same schemas with keys in another order: JSON Schema does not read key order.
    const reordered = {
      input_schema: { required: ['invoice'], properties: { amount: { type: 'integer' }, invoice: { type: 'string' } }, type: 'object' },
      output_schema: schemas.output_schema,
      name: 'Refund',
      description: 'Refunds an invoice.',
    };
    const before = side([
      sideTool(tool('refund-invoice', schemas)),
      sideTool(tool('unrelated', { input_schema: { type: 'object', properties: { q: { type: 'string' } } } })),
    ]);
    const after = side([
      sideTool(tool('invoices-refund', reordered)),
      sideTool(tool('unrelated', { input_schema: { type: 'object', properties: { q: { type: 'string' } } } })),
    ]);
    const changelog = buildChangelog(before, after);
    assert.deepEqual(
      changelog.tools.map((t) => [t.slug, t.status, t.sdk, t.mcp]),
      [['invoices-refund', 'changed', 'breaking', 'breaking']],
    );
    assert.deepEqual(
      changelog.tools[0]!.changes.map((c) => [c.kind, c.before, c.after]),
      [
        ['tool-renamed', 'refund-invoice', 'invoices-refund'],
        ['identifier-changed', 'refundInvoice', 'invoicesRefund'],
        ['file-changed', 'refund-invoice', 'invoices-refund'],
      ],
    );
    assert.equal(
      changelog.tools[0]!.changes[0]!.message,
      'slug renamed: "refund-invoice" → "invoices-refund" (same input and output schemas)',
    );
    // Two added tools with the schemas of one removed tool: no way to tell which continues it.
    const twice = buildChangelog(
      before,
      side([sideTool(tool('refund-a', schemas)), sideTool(tool('refund-b', schemas)), before.tools[1]!]),
    );
    assert.deepEqual(
      twice.tools.map((t) => [t.slug, t.status]),
      [
        ['refund-a', 'added'],
        ['refund-b', 'added'],
        ['refund-invoice', 'removed'],
      ],
    );
  });

  it('an annotation change is reported whole, one hint per line, at its pointer', () => {
    const annotated = (annotations: Manifest['annotations']) => sideTool(tool('send-reminder', { annotations }));
    const changes = diffTool(
      annotated({ readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false }),
      annotated({ readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true }),
    );
    assert.deepEqual(
      changes.map((c) => [c.pointer, c.message, c.mcp]),
      [
        ['/annotations/destructiveHint', 'annotation destructiveHint: false → true (trust-gating hosts may now deny the tool)', 'breaking'],
        ['/annotations/openWorldHint', 'annotation openWorldHint: false → true (trust-gating hosts may now deny the tool)', 'breaking'],
      ],
    );
    const text = renderMarkdown(
      buildChangelog(side([annotated({ destructiveHint: false })]), side([annotated({ destructiveHint: true })])),
      '0.2.0',
    );
    assert.match(
      text,
      /^- SDK patch, MCP \*\*breaking\*\*: annotation destructiveHint: `false` → `true` \(trust-gating hosts may now deny the tool\)$/m,
    );
    assert.doesNotMatch(text, /…/);
  });

  it('a widened output enum is breaking for SDK callers only', () => {
    const level = (values: string[]) => tool('log', { output_schema: { type: 'object', properties: { level: { enum: values } } } });
    const changelog = buildChangelog(side([sideTool(level(['info']))]), side([sideTool(level(['info', 'fatal']))]));
    assert.deepEqual(changelog.breaking, { sdk: true, mcp: false });
    assert.equal(changelog.tools[0]!.changes[0]!.message, 'output /properties/level: enum values added: "fatal"');
  });
});

describe('changelog: semver', () => {
  const cases: Array<[string, 'major' | 'minor' | 'patch' | 'none', string]> = [
    ['1.4.2', 'major', '2.0.0'],
    ['1.4.2', 'minor', '1.5.0'],
    ['1.4.2', 'patch', '1.4.3'],
    ['1.4.2', 'none', '1.4.2'],
    // 0.x: a breaking change raises the minor number, as npm's caret ranges read 0.x.
    ['0.1.0', 'major', '0.2.0'],
    ['0.3.1', 'major', '0.4.0'],
    ['0.3.1', 'minor', '0.4.0'],
    ['0.3.1', 'patch', '0.3.2'],
    ['2.0.0-beta.1', 'patch', '2.0.1'],
    ['not a version', 'minor', '0.1.0'],
  ];
  for (const [version, bump, want] of cases) it(`${version} + ${bump} = ${want}`, () => assert.equal(bumpVersion(version, bump), want));
});

describe('changelog: markdown', () => {
  it('puts hostile catalogue text only inside code spans that hold it', () => {
    assert.equal(codeSpan('plain'), '`plain`');
    assert.equal(codeSpan('a`b'), '``a`b``');
    assert.equal(codeSpan('`x`'), '`` `x` ``');
    assert.equal(codeSpan('line\nbreak\u2028'), '`line\\u000abreak\\u2028`');
    const before = side([sideTool(tool(HOSTILE_TEXT.slice(0, 20)))]);
    const after = side([sideTool(tool(HOSTILE_TEXT.slice(0, 20), { description: HOSTILE_TEXT }))]);
    const text = renderMarkdown(buildChangelog(before, after), '1.0.1');
    // One change, one line: no raw line breaks from the catalogue reach the document.
    assert.equal(text.split('\n').filter((line) => line.startsWith('- ')).length, 1);
    assert.ok(!text.includes('\u2028') && !text.includes('\r'));
  });

  it('renders the same bytes for the same changelog, and "No changes." when empty', () => {
    const before = side([sideTool(tool('a')), sideTool(tool('b'))]);
    const after = side([
      sideTool(
        tool('a', {
          input_schema: { type: 'object', properties: { text: { type: 'string' }, n: { type: 'integer' } }, required: ['text', 'n'] },
        }),
      ),
    ]);
    const first = renderMarkdown(buildChangelog(before, after), '2.0.0');
    assert.equal(renderMarkdown(buildChangelog(before, after), '2.0.0'), first);
    assert.equal(
      first,
      [
        '## 2.0.0',
        '',
        'Suggested bump: **major**. 0 tools added, 1 removed, 1 changed. Breaking for SDK callers: 2 changes; for MCP clients: 2 changes.',
        '',
        '### Removed tools',
        '',
        '- `b`: **breaking**: tool removed',
        '',
        '### Changed tools',
        '',
        '#### `a` (**breaking**)',
        '',
        '- **breaking**: input `/properties/n`: required field added',
        '',
      ].join('\n'),
    );
    assert.equal(renderMarkdown(buildChangelog(before, before), 'x'), '## x\n\nNo changes.\n');
  });

  it('prepends entries under one header and finds the newest version', () => {
    const first = prependChangelogEntry(null, '## 0.2.0\n\nA.\n');
    assert.equal(first, '# Changelog\n\n## 0.2.0\n\nA.\n');
    const second = prependChangelogEntry(first, '## 1.0.0\n\nB.\n');
    assert.equal(second, '# Changelog\n\n## 1.0.0\n\nB.\n\n## 0.2.0\n\nA.\n');
    assert.equal(latestChangelogVersion(second), '1.0.0');
    assert.equal(latestChangelogVersion('# Changelog\n'), null);
    assert.equal(latestChangelogVersion(null), null);
  });
});

describe('changelog: loading a catalogue side', () => {
  it('plans names as a build over the old side would, so clashing slugs keep their names', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nb-side-'));
    try {
      // `env_validator` alone gets the plain name; once `env-validator` (the canonical spelling) arrives, a build
      // without the old names would hand the plain name over. With them, neither wrapper is renamed.
      await writeFile(join(dir, 'old.json'), JSON.stringify(bundle([tool('env_validator')])));
      await writeFile(join(dir, 'new.json'), JSON.stringify(bundle([tool('env_validator'), tool('env-validator')])));
      const before = await loadSide(join(dir, 'old.json'));
      const after = await loadSide(join(dir, 'new.json'), { lock: before.lock });
      const changelog = buildChangelog(before, after);
      assert.deepEqual(
        changelog.tools.map((t) => [t.slug, t.status]),
        [['env-validator', 'added']],
      );
      assert.equal(after.tools.find((t) => t.slug === 'env_validator')!.identifier, before.tools[0]!.identifier);
      const unlocked = await loadSide(join(dir, 'new.json'));
      assert.notEqual(unlocked.tools.find((t) => t.slug === 'env_validator')!.identifier, before.tools[0]!.identifier);
      assert.deepEqual(
        buildChangelog(before, unlocked)
          .tools.find((t) => t.slug === 'env_validator')!
          .changes.map((c) => c.kind),
        ['identifier-changed', 'file-changed'],
      );
      // `env_validator` respelled `env-validator`: a build over the old side keeps the wrapper, so it is a rename.
      await writeFile(join(dir, 'respelled.json'), JSON.stringify(bundle([tool('env-validator')])));
      const respelled = await loadSide(join(dir, 'respelled.json'), { lock: before.lock });
      assert.deepEqual(
        buildChangelog(before, respelled).tools.map((t) => [t.slug, t.status, t.changes[0]!.kind]),
        [['env-validator', 'changed', 'tool-renamed']],
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('changelog: the version a build writes (planRelease)', () => {
  const planOf = (manifests: Manifest[]) => planPackage(checkCatalogue(bundle(manifests)).tools);
  const previousOf = (manifests: Manifest[], version: string | null, changelogText: string | null = null): PreviousPackage => ({
    version,
    side: { ...side(planSide(planOf(manifests)).tools), kind: 'package' },
    changelogText,
  });
  const before = [tool('a'), tool('gone', { input_schema: { type: 'object' } })];
  const after = [tool('a')];

  it("keep: the configured version, or the folder's when higher; nothing compared", () => {
    assert.deepEqual(planRelease({ version: '0.4.0', side: null, changelogText: null }, planOf(after), '0.1.0', 'keep'), {
      version: '0.4.0',
      bump: 'none',
      changelog: null,
      changelogText: null,
      entry: null,
    });
    assert.equal(planRelease({ version: '0.4.0', side: null, changelogText: null }, planOf(after), '2.0.0', 'keep').version, '2.0.0');
    assert.equal(planRelease({ version: null, side: null, changelogText: null }, planOf(after), '0.1.0', 'changelog').version, '0.1.0');
  });

  it('bump: 0.x breaking raises the minor; 1.x the major; no CHANGELOG.md text', () => {
    const release = planRelease(previousOf(before, '0.4.0'), planOf(after), '0.1.0', 'bump');
    assert.deepEqual([release.version, release.bump, release.changelogText, release.entry], ['0.5.0', 'major', null, null]);
    assert.equal(planRelease(previousOf(before, '1.2.3'), planOf(after), '0.1.0', 'bump').version, '2.0.0');
  });

  it('changelog: the entry is titled with the version written; counted from the newest entry; no change keeps file and version', () => {
    const existing = '# Changelog\n\n## 0.7.0\n\nSuggested bump: **minor**.\n';
    const release = planRelease(previousOf(before, '0.4.0', existing), planOf(after), '0.1.0', 'changelog');
    assert.equal(release.version, '0.8.0');
    assert.equal(release.entry, '0.8.0');
    assert.ok(release.changelogText!.startsWith('# Changelog\n\n## 0.8.0\n\nSuggested bump: **major**.'), release.changelogText!);
    assert.ok(release.changelogText!.endsWith('## 0.7.0\n\nSuggested bump: **minor**.\n'));
    const same = planRelease(previousOf(after, '0.8.0', release.changelogText), planOf(after), '0.1.0', 'changelog');
    assert.deepEqual([same.version, same.bump, same.entry, same.changelogText], ['0.8.0', 'none', null, release.changelogText]);
  });
});
