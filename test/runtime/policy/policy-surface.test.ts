// The policy where the surface resolves names: a name that is exactly a tool outside the policy is refused, never
// resolved as the prefix of an allowed tool; a prefix only a refused tool answers to is refused too.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createServer } from '../../../src/runtime/transport/server.js';
import { BILLING_MANIFESTS } from '../../fixtures/billing-catalogue.js';
import { manifest, servedTool, testNames } from '../core-fixtures.js';

test('an exact refused name is refused, not resolved as a prefix of another tool', async () => {
  const tools = [...BILLING_MANIFESTS, manifest({ slug: 'get-invoice-pdf', annotations: { readOnlyHint: true } })]
    .map((m) => servedTool(m))
    .sort((a, b) => (a.slug < b.slug ? -1 : 1));
  const created = createServer({
    names: testNames,
    catalogue: { format: 'nexusbloom-served-catalogue/1', tools },
    env: { NEXUSBLOOM_MCP_DENY: 'get-invoice' },
    log: () => {},
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'policy-surface', version: '0' });
  await created.server.connect(serverSide);
  await client.connect(clientSide);
  try {
    const codeOf = async (name: string, args: Record<string, unknown>) => {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      return result.structuredContent as { code?: string; details?: { slug?: string } } | undefined;
    };
    for (const [name, args] of [
      ['get-invoice', {}],
      ['nexusbloom', { command: 'run', slug: 'get-invoice' }],
      ['nexusbloom', { command: 'schema', slug: 'get-invoice' }],
    ] as const) {
      const failure = await codeOf(name, args);
      assert.deepEqual([failure?.code, failure?.details?.slug], ['TOOL_NOT_ALLOWED', 'get-invoice'], `${name} ${JSON.stringify(args)}`);
    }
    const listed = (await client.listTools()).tools.map((tool) => tool.name);
    assert.ok(listed.includes('get-invoice-pdf') && !listed.includes('get-invoice'));
    const schema = (await client.callTool({
      name: 'nexusbloom',
      arguments: { command: 'schema', slug: 'get-invoice-p' },
    })) as CallToolResult;
    assert.equal((schema.structuredContent as { slug?: string }).slug, 'get-invoice-pdf', 'prefixes of allowed tools still resolve');
  } finally {
    await client.close();
    await created.close();
  }
});
