// No manifest can make tools/list unparseable for a spec-following client: the real SDK client lists a server whose
// catalogue (as a live API could serve it, unchecked) has annotations of every wrong type and shape.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Manifest, ServedCatalogueFile } from '../../src/runtime/shared/contracts.js';
import { createServer } from '../../src/runtime/transport/server.js';
import { checkCatalogue } from '../../src/pipeline/check/check-in-thread.js';
import { bundle, tool } from '../fixtures/catalogues.js';
import { manifest, servedTool, testNames } from './core-fixtures.js';

const hostile = (slug: string, annotations: unknown, extra: Partial<Manifest> = {}): Manifest =>
  manifest({ slug, annotations: annotations as Manifest['annotations'], ...extra });

test("the SDK client lists every tool whatever the manifests' annotations hold", async () => {
  const catalogue: ServedCatalogueFile = {
    format: 'nexusbloom-served-catalogue/1',
    tools: [
      hostile('title-number', { title: 42, readOnlyHint: true }),
      hostile('hints-strings', { readOnlyHint: 'yes', destructiveHint: 0, idempotentHint: null, openWorldHint: [] }),
      hostile('unknown-keys', { 'x-vendor': { deep: [1] }, __proto__placeholder: 1, readOnlyHint: false }),
      hostile('not-an-object', 'read only'),
      hostile('array', [true]),
      hostile('name-number', { title: 'fine' }, { name: 7 as unknown as string }),
      manifest({ slug: 'plain' }),
    ].map((m) => servedTool(m)),
  };
  const created = createServer({ names: testNames, catalogue, env: {}, log: () => undefined });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await created.server.connect(serverSide);
  const client = new Client({ name: 'annotations-test', version: '1.0.0' });
  await client.connect(clientSide);
  try {
    const { tools } = await client.listTools();
    const bySlug = new Map(tools.map((t) => [t.name, t]));
    assert.equal(tools.length, 8);
    assert.deepEqual(bySlug.get('title-number')?.annotations, { readOnlyHint: true });
    assert.equal(bySlug.get('hints-strings')?.annotations, undefined);
    assert.deepEqual(bySlug.get('unknown-keys')?.annotations, { readOnlyHint: false });
    assert.equal(bySlug.get('not-an-object')?.annotations, undefined);
    assert.equal(bySlug.get('name-number')?.title, undefined);
  } finally {
    await client.close();
    await created.close();
  }
});

test('check: a known annotation of the wrong type is an error at its pointer; unknown ones are dropped with a warning', () => {
  const result = checkCatalogue(
    bundle([
      tool('titled', { annotations: { title: 42 } as unknown as Manifest['annotations'] }),
      tool('extra', { annotations: { readOnlyHint: true, 'x-cost': 'high' } as unknown as Manifest['annotations'] }),
    ]),
  );
  assert.deepEqual(
    result.problems.map((p) => [p.severity, p.slug, p.pointer]),
    [
      ['warning', 'extra', '/annotations/x-cost'],
      ['error', 'titled', '/annotations/title'],
    ],
  );
  assert.deepEqual(
    result.tools.map((t) => [t.manifest.slug, t.manifest.annotations]),
    [['extra', { readOnlyHint: true }]],
  );
});
