// The tool policy set at build time: read from the config file, shipped as data/policy.json, counted in the budget
// and the report of what is listed, applied by the server unless its environment overrides it; and the report of a
// catalogue larger than hosts take, with the build's token figures on the server's start-up line.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { loadConfigFile } from '../../src/cli/config-file.js';
import { resolveConfig } from '../../src/pipeline/config.js';
import { buildPackage } from '../../src/pipeline/run-pipeline.js';
import { loadServedCatalogue } from '../../src/runtime/catalogue/catalogue-store.js';
import { createServer } from '../../src/runtime/transport/server.js';
import { BILLING_MANIFESTS } from '../fixtures/billing-catalogue.js';
import { testNames } from '../runtime/core-fixtures.js';

async function listedNames(
  dir: string,
  env: Record<string, string>,
): Promise<{ names: string[]; lines: string[]; warning: string | null }> {
  const catalogue = await loadServedCatalogue(pathToFileURL(join(dir, 'data', 'catalogue.json')));
  const lines: string[] = [];
  const created = createServer({ names: testNames, catalogue, env, log: (line) => lines.push(line) });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'policy-build', version: '0' });
  await created.server.connect(serverSide);
  await client.connect(clientSide);
  try {
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    return { names, lines, warning: created.listing().warning };
  } finally {
    await client.close();
    await created.close();
  }
}

test('a policy in the build config is shipped, counted and reported, and the environment overrides it', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'nb-policy-build-'));
  try {
    const source = join(dir, 'billing.json');
    await writeFile(source, JSON.stringify({ format: 'nexusbloom-catalogue/1', tools: BILLING_MANIFESTS }));
    const configFile = join(dir, 'config.json');
    await writeFile(configFile, JSON.stringify({ productName: 'Billing', policy: { deny: ['refund-*'], confirm: 'unless-safe' } }));
    const config = resolveConfig((await loadConfigFile(configFile)).overrides);
    const out = join(dir, 'out');
    const built = await buildPackage({ source, outDir: out, config, compile: false });
    assert.deepEqual({ ...built.listing, tokens: 0 }, { shows: 'all', listed: 7, outsidePolicy: 2, policy: 'deny refund-*', tokens: 0 });
    assert.equal(built.listing.tokens, built.budget.total);
    assert.ok(
      built.budget.perTool.every((tool) => !tool.slug.startsWith('refund')),
      'tools outside the policy cost nothing',
    );
    assert.equal(
      await readFile(join(out, 'data', 'policy.json'), 'utf8'),
      '{\n  "format": "nexusbloom-policy/1",\n  "confirm": "unless-safe",\n  "deny": [\n    "refund-*"\n  ]\n}\n',
    );

    const served = await listedNames(out, {});
    assert.deepEqual(
      served.names.filter((name) => name.startsWith('refund')),
      [],
    );
    assert.equal(served.names.length, 8);
    const overridden = await listedNames(out, { NEXUSBLOOM_MCP_DENY: '-' });
    assert.equal(overridden.names.length, 10, "a lone - clears the build's deny list");
    const stricter = await listedNames(out, { NEXUSBLOOM_MCP_DENY: 'delete-*' });
    assert.ok(stricter.names.includes('refund-payment') && !stricter.names.includes('delete-customer'), 'the variable replaces the list');

    await writeFile(configFile, JSON.stringify({ policy: { deny: 'refund-*' } }));
    await assert.rejects(loadConfigFile(configFile), /config .*config\.json: policy\.deny must be an array of non-empty strings/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('past 128 tools the build says the meta-tool is listed alone, and the server says so once with the token figures', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'nb-policy-large-'));
  try {
    const manifests = Array.from({ length: 130 }, (_unused, index) => ({
      ...BILLING_MANIFESTS[index % BILLING_MANIFESTS.length]!,
      slug: `tool-${String(index).padStart(3, '0')}`,
      name: `Tool ${index}`,
    }));
    const source = join(dir, 'large.json');
    await writeFile(source, JSON.stringify({ format: 'nexusbloom-catalogue/1', tools: manifests }));
    const out = join(dir, 'out');
    const built = await buildPackage({ source, outDir: out, config: resolveConfig(), compile: false });
    assert.deepEqual([built.listing.shows, built.listing.listed, built.listing.tokens], ['meta', 0, built.budget.metaOnly]);
    const costs = JSON.parse(await readFile(join(out, 'data', 'token-costs.json'), 'utf8')) as {
      total: number;
      metaOnly: number;
      perTool: Record<string, number>;
    };
    assert.deepEqual([costs.total, costs.metaOnly, Object.keys(costs.perTool).length], [built.budget.total, built.budget.metaOnly, 130]);

    const served = await listedNames(out, {});
    assert.deepEqual(served.names, ['nexusbloom']);
    assert.match(
      served.warning ?? '',
      new RegExp(
        `130 tools are more than the 127 a host takes .* It costs about ${built.budget.metaOnly} tokens \\(o200k_base\\) instead of about ${built.budget.total} for every tool`,
      ),
    );
    const pinned = await listedNames(out, { NEXUSBLOOM_MCP_PINNED_TOOLS: 'tool-007' });
    assert.deepEqual(pinned.names, ['tool-007', 'nexusbloom']);
    assert.match(
      pinned.warning ?? '',
      new RegExp(`and 1 pinned tool\\(s\\).* about ${built.budget.metaOnly + costs.perTool['tool-007']!} tokens`),
    );
    assert.equal((await listedNames(out, { NEXUSBLOOM_MCP_TOOLS: 'all' })).warning, null);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
