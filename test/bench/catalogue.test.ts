// Smoke test of the benchmark's inputs: the synthetic catalogue is deterministic, carries the schema features it
// claims, passes `nexusbloom-gen check`, and converts to an OpenAPI document whose refs all resolve.

import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { bundleText, syntheticCatalogue, withOneToolChanged, withOneToolsSchemaChanged } from './catalogue.js';
import { catalogueToOpenApi } from './openapi.js';

/** Every `$ref` string anywhere in a JSON value. */
function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) => (key === '$ref' && typeof child === 'string' ? [child] : refsIn(child)));
}

function resolvePointer(document: unknown, ref: string): unknown {
  return ref
    .slice(2)
    .split('/')
    .reduce<unknown>(
      (node, part) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined),
      document,
    );
}

describe('synthetic benchmark catalogue', () => {
  let work: string;
  before(async () => {
    work = await mkdtemp(join(tmpdir(), 'nb-bench-'));
  });
  after(async () => rm(work, { recursive: true, force: true }));

  it('is byte-identical across calls, and each size is a prefix of the next', () => {
    assert.equal(bundleText(syntheticCatalogue(300)), bundleText(syntheticCatalogue(300)));
    const small = syntheticCatalogue(31);
    assert.deepEqual(syntheticCatalogue(300).tools.slice(0, 31), small.tools);
    assert.equal(small.tools.length, 31);
  });

  it('has unique, advertisable slugs and the schema features the bench claims', () => {
    const { tools } = syntheticCatalogue(300);
    assert.equal(new Set(tools.map((t) => t.slug)).size, tools.length);
    for (const tool of tools) assert.match(tool.slug, /^[A-Za-z0-9_-]{1,64}$/);
    const text = JSON.stringify(tools.map((t) => t.input_schema));
    for (const feature of ['"oneOf"', '"enum"', '"format"', '"$defs"', '"#/$defs/money"', '"items"', '"description"']) {
      assert.ok(text.includes(feature), `no input schema uses ${feature}`);
    }
    const recursive = tools.filter((t) => JSON.stringify(t.input_schema?.$defs ?? {}).includes('"#/$defs/node"'));
    assert.ok(
      recursive.some((t) => t.slug === tools[0]!.slug),
      'tool 0 carries the recursive ref',
    );
  });

  it('changes exactly one tool for the regeneration measure, without touching the input', () => {
    const original = syntheticCatalogue(31);
    const before = bundleText(original);
    const changed = withOneToolChanged(original, 1);
    assert.equal(bundleText(original), before);
    const differing = changed.tools.filter((tool, i) => JSON.stringify(tool) !== JSON.stringify(original.tools[i]));
    assert.equal(differing.length, 1);
    const reshaped = withOneToolsSchemaChanged(original, 1);
    assert.equal(bundleText(original), before);
    const other = reshaped.tools.filter((tool, i) => JSON.stringify(tool) !== JSON.stringify(original.tools[i]));
    assert.deepEqual(
      other.map((tool) => Object.keys((tool.input_schema as { properties: object }).properties).includes('revision_1')),
      [true],
    );
  });

  it('passes `nexusbloom-gen check` without warnings (schemas compile, examples and their results validate)', async () => {
    const path = join(work, 'catalogue-31.json');
    await writeFile(path, bundleText(syntheticCatalogue(31)));
    const result = await runCli(['check', '--source', path, '--json']);
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout) as { ok: boolean; tools: number; errors: number; warnings: number; problems: unknown[] };
    assert.deepEqual(
      { ok: report.ok, tools: report.tools, errors: report.errors, warnings: report.warnings, problems: report.problems },
      { ok: true, tools: 31, errors: 0, warnings: 0, problems: [] },
    );
  });

  it('converts to OpenAPI with one POST per tool and every $ref resolving inside the document', () => {
    const bundle = syntheticCatalogue(31);
    const document = catalogueToOpenApi(bundle);
    const paths = document.paths as Record<string, Record<string, unknown>>;
    assert.equal(Object.keys(paths).length, 31);
    for (const item of Object.values(paths)) assert.deepEqual(Object.keys(item), ['post']);
    const refs = refsIn(document);
    assert.ok(refs.length > 0);
    for (const ref of refs) {
      assert.ok(ref.startsWith('#/components/schemas/'), ref);
      assert.notEqual(resolvePointer(document, ref), undefined, `${ref} does not resolve`);
    }
  });
});
