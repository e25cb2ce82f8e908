import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createApiClient } from '../../src/runtime/execution/api-client.js';
import { createCatalogueStore, loadServedCatalogue } from '../../src/runtime/catalogue/catalogue-store.js';
import { catalogueIndexFileText } from '../../src/pipeline/emit/catalogue-index-file.js';
import { isManifestPending, lazyServedTools, readCatalogueIndexSync, traitsOf } from '../../src/runtime/catalogue/catalogue-index.js';
import { unlink } from 'node:fs/promises';
import { readSettings } from '../../src/runtime/settings/config.js';
import type { Manifest, ServedCatalogueFile } from '../../src/runtime/shared/contracts.js';
import { captureLog, manifest, sendJson, servedTool, startHttp, testNames } from './core-fixtures.js';

const pinned: ServedCatalogueFile = {
  format: 'nexusbloom-served-catalogue/1',
  tools: [servedTool(manifest({ slug: 'alpha' })), servedTool(manifest({ slug: 'beta', deprecated: 'use alpha' }))],
};

function entryOf(m: Manifest) {
  return {
    slug: m.slug,
    name: m.name,
    description: m.description,
    category: m.category,
    tags: m.tags,
    version: m.version,
    has_schema: m.input_schema !== null,
    has_source: Boolean(m.source),
  };
}

async function liveApi(manifests: Manifest[]) {
  let current = manifests;
  let down = false;
  const http = await startHttp((req, res) => {
    if (down) return sendJson(res, 503, { success: false, error: 'down', code: 'UPSTREAM_ERROR', retryable: true });
    if (req.url === '/api/tools') return sendJson(res, 200, { tools: current.map(entryOf), next_cursor: null });
    const found = current.find((m) => `/api/tools/${encodeURIComponent(m.slug)}` === req.url);
    return found
      ? sendJson(res, 200, found)
      : sendJson(res, 404, { success: false, error: 'unknown', code: 'TOOL_NOT_FOUND', retryable: false });
  });
  return {
    http,
    set: (next: Manifest[]) => {
      current = next;
    },
    setDown: (value: boolean) => {
      down = value;
    },
  };
}

function storeFor(url: string, env: Record<string, string>, log: (line: string) => void = () => {}) {
  const settings = readSettings(testNames, { NEXUSBLOOM_API_URL: url, NEXUSBLOOM_MCP_CATALOGUE: 'live', ...env }, () => {});
  return createCatalogueStore({ catalogue: pinned, settings, apiClient: createApiClient(testNames, settings, () => {}), log });
}

test('pinned mode never touches the network', async () => {
  const api = await liveApi([]);
  try {
    const settings = readSettings(testNames, { NEXUSBLOOM_API_URL: api.http.url }, () => {});
    const store = createCatalogueStore({
      catalogue: pinned,
      settings,
      apiClient: createApiClient(testNames, settings, () => {}),
      log: () => {},
    });
    await store.ensureFresh();
    assert.deepEqual(
      store.getTools().tools.map((t) => t.slug),
      ['alpha', 'beta'],
    );
    assert.equal(api.http.requests.length, 0);
  } finally {
    await api.http.close();
  }
});

test('live mode adds upstream tools, marks removed ones, notifies, and respects the TTL', async () => {
  const added = manifest({
    slug: 'gamma tool',
    version: '2.0.0',
    source: { runtime: 'node', code: 'exports.run = () => 1;' },
    input_schema: { type: 'object', required: ['x'] },
  });
  const api = await liveApi([manifest({ slug: 'alpha' }), added]);
  try {
    const store = storeFor(api.http.url, {});
    let changes = 0;
    store.onListChanged(() => {
      changes += 1;
    });
    await store.ensureFresh();
    const { tools } = store.getTools();
    assert.deepEqual(
      tools.map((t) => t.slug),
      ['alpha', 'beta', 'gamma tool'],
    );
    assert.equal(tools[0], pinned.tools[0], 'an unchanged pinned tool is kept as is');
    assert.equal(tools[1]?.manifest.removed_upstream, true);
    assert.match(tools[1]?.manifest.deprecated ?? '', /removed from the live catalogue.*use alpha/);
    assert.match(tools[2]?.withheldReason ?? '', /" "/);
    assert.equal(tools[2]?.manifest.source, null, 'remote mode keeps no tool source');
    assert.deepEqual(tools[2]?.manifest.input_schema, { type: 'object', required: ['x'] });
    assert.equal(changes, 1);
    assert.equal(pinned.tools[1]?.manifest.removed_upstream, undefined, 'pinned input not mutated');

    const before = api.http.requests.length;
    await store.ensureFresh();
    assert.equal(api.http.requests.length, before, 'within the TTL nothing is fetched');
    assert.equal(changes, 1);
  } finally {
    await api.http.close();
  }
});

test('TTL 0 refreshes every time; a failed refresh keeps the last good list', async () => {
  const api = await liveApi([manifest({ slug: 'alpha' }), manifest({ slug: 'beta' }), manifest({ slug: 'delta' })]);
  try {
    const { log, lines } = captureLog();
    const store = storeFor(api.http.url, { NEXUSBLOOM_MCP_CACHE_TTL_MS: '0', NEXUSBLOOM_MCP_EXECUTION: 'auto' }, log);
    let changes = 0;
    store.onListChanged(() => {
      changes += 1;
    });
    await store.ensureFresh();
    assert.deepEqual(
      store.getTools().tools.map((t) => t.slug),
      ['alpha', 'beta', 'delta'],
    );
    api.setDown(true);
    await store.ensureFresh();
    await store.ensureFresh();
    assert.deepEqual(
      store.getTools().tools.map((t) => t.slug),
      ['alpha', 'beta', 'delta'],
    );
    assert.equal(lines.filter((l) => l.includes('refresh failed')).length, 1, lines.join('\n'));
    api.setDown(false);
    api.set([
      manifest({ slug: 'alpha', version: '1.1.0', description: 'new alpha' }),
      manifest({ slug: 'beta' }),
      manifest({ slug: 'delta' }),
    ]);
    await store.ensureFresh();
    assert.equal(store.getTools().tools[0]?.manifest.description, 'new alpha');
    assert.equal(changes, 2);
  } finally {
    await api.http.close();
  }
});

test('loadServedCatalogue reads a file and rejects a wrong one', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'nb-cat-'));
  const good = join(dir, 'catalogue.json');
  await writeFile(good, JSON.stringify(pinned));
  assert.deepEqual(await loadServedCatalogue(pathToFileURL(good)), {
    ...pinned,
    searchIndexUrl: pathToFileURL(join(dir, 'search-index.json')).href,
    advertisedListUrl: pathToFileURL(join(dir, 'tools-list.json')).href,
    tokenCostsUrl: pathToFileURL(join(dir, 'token-costs.json')).href,
    // No data/policy.json beside it (a package built before the file existed): no policy.
    policy: {},
  });
  // A policy file that is there is applied, and one that cannot be read stops the start instead of serving every tool.
  await writeFile(join(dir, 'policy.json'), JSON.stringify({ format: 'nexusbloom-policy/1', deny: ['refund-*'], maxRisk: 'medium' }));
  assert.deepEqual((await loadServedCatalogue(pathToFileURL(good))).policy, { deny: ['refund-*'], maxRisk: 'medium' });
  await writeFile(join(dir, 'policy.json'), JSON.stringify({ format: 'nexusbloom-policy/1', deny: 'refund-*' }));
  await assert.rejects(loadServedCatalogue(pathToFileURL(good)), /tool policy at .*policy\.json is invalid: policy\.deny must be an array/);
  await writeFile(join(dir, 'policy.json'), '{');
  await assert.rejects(loadServedCatalogue(pathToFileURL(good)), /tool policy at .*policy\.json is not JSON/);
  await unlink(join(dir, 'policy.json'));
  const bad = join(dir, 'bad.json');
  await writeFile(bad, JSON.stringify({ format: 'nexusbloom-catalogue/1', tools: [] }));
  await assert.rejects(loadServedCatalogue(pathToFileURL(bad)), /not a nexusbloom-served-catalogue\/1 file/);
  await assert.rejects(loadServedCatalogue(pathToFileURL(join(dir, 'missing.json'))), /Cannot read the tool catalogue/);
});

test('with an index beside it, loading reads the index only; every manifest comes on the first use of any', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'nb-cat-index-'));
  const path = join(dir, 'catalogue.json');
  await writeFile(path, JSON.stringify(pinned));
  await writeFile(join(dir, 'catalogue-index.json'), catalogueIndexFileText(pinned.tools));
  const catalogue = await loadServedCatalogue(pathToFileURL(path));
  assert.deepEqual(
    catalogue.tools.map(({ slug, identifier, withheldReason }) => ({ slug, identifier, withheldReason })),
    pinned.tools.map(({ slug, identifier, withheldReason }) => ({ slug, identifier, withheldReason })),
  );
  assert.ok(catalogue.tools.every(isManifestPending));
  // What the file holds at first use is what the tools get: it was not read at load.
  const later: ServedCatalogueFile = {
    ...pinned,
    tools: pinned.tools.map((t) => ({ ...t, manifest: { ...t.manifest, description: `${t.slug}, as read later` } })),
  };
  await writeFile(path, JSON.stringify(later));
  const [alpha, beta] = catalogue.tools;
  assert.equal(beta?.manifest.description, 'beta, as read later');
  assert.equal(isManifestPending(alpha!), false, 'one access reads them all');
  assert.deepEqual(
    catalogue.tools,
    later.tools.map((t) => ({ ...t })),
  );
  assert.equal(JSON.stringify(catalogue.tools), JSON.stringify(later.tools));

  await unlink(path);
  await assert.rejects(loadServedCatalogue(pathToFileURL(path)), /Cannot read the tool catalogue at .*catalogue\.json/);
  // An index that is not one is ignored: the catalogue is read at once, as without an index.
  await writeFile(path, JSON.stringify(pinned));
  await writeFile(join(dir, 'catalogue-index.json'), '{"format":"nexusbloom-catalogue-index/1","tools":[{"slug":1}]}');
  assert.equal(readCatalogueIndexSync(pathToFileURL(join(dir, 'catalogue-index.json'))), null);
  assert.ok((await loadServedCatalogue(pathToFileURL(path))).tools.every((t) => !isManifestPending(t)));
});

test('a tool from the index answers for its category, tags and annotations without its manifest; a copy reads its own', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'nb-cat-traits-'));
  const path = join(dir, 'catalogue.json');
  const tools = [servedTool(manifest({ slug: 'alpha', category: 'text', tags: ['a', 'b'], annotations: { readOnlyHint: true } }))];
  await writeFile(path, JSON.stringify({ ...pinned, tools }));
  await writeFile(join(dir, 'catalogue-index.json'), catalogueIndexFileText(tools));
  const [alpha] = (await loadServedCatalogue(pathToFileURL(path))).tools;
  const want = { category: 'text', tags: ['a', 'b'], annotations: { readOnlyHint: true } };
  assert.deepEqual(traitsOf(alpha!), want);
  assert.ok(isManifestPending(alpha!), 'the traits came from the index');
  assert.deepEqual(Object.keys(alpha!), ['slug', 'manifest', 'identifier', 'withheldReason'], 'and nothing of them is on the tool');
  // The catalogue now says otherwise: once read, the manifest is what answers.
  const retagged = { ...tools[0]!, manifest: { ...tools[0]!.manifest, tags: ['c'] } };
  await writeFile(path, JSON.stringify({ ...pinned, tools: [retagged] }));
  assert.deepEqual(traitsOf({ ...alpha! }).tags, ['c'], 'a copy is not the indexed tool');
  assert.deepEqual(traitsOf(alpha!).tags, ['c']);
});

test('a server over an indexed package starts and lists every tool without reading a manifest', async () => {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
  const { advertisedTool } = await import('../../src/runtime/catalogue/advertise.js');
  const { advertisedListFileText } = await import('../../src/pipeline/emit/advertised-list.js');
  const { createServer } = await import('../../src/runtime/transport/server.js');
  const dir = await mkdtemp(join(tmpdir(), 'nb-cat-lazy-server-'));
  await writeFile(join(dir, 'catalogue.json'), JSON.stringify(pinned));
  await writeFile(join(dir, 'catalogue-index.json'), catalogueIndexFileText(pinned.tools));
  await writeFile(join(dir, 'tools-list.json'), advertisedListFileText(pinned.tools));
  for (const mode of ['all', 'meta']) {
    const catalogue = await loadServedCatalogue(pathToFileURL(join(dir, 'catalogue.json')));
    const created = createServer({ names: testNames, catalogue, env: { [`${testNames.envPrefix}MCP_TOOLS`]: mode }, log: () => {} });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'lazy', version: '0' });
    await created.server.connect(serverSide);
    await client.connect(clientSide);
    try {
      const listed = (await client.listTools()).tools;
      assert.deepEqual(listed.slice(0, -1), mode === 'all' ? pinned.tools.map(advertisedTool) : []);
      assert.equal(listed.at(-1)?.name, testNames.metaToolName);
      assert.ok(catalogue.tools.every(isManifestPending), `${mode}: no manifest was read`);
    } finally {
      await client.close();
      await created.close();
    }
  }
});

test('a catalogue that does not match its index fails on first use, naming the file, and keeps failing', () => {
  const index = pinned.tools.map(({ slug, identifier, withheldReason }) => ({ slug, identifier, withheldReason }));
  let reads = 0;
  const shorter = lazyServedTools(index, () => (reads++, pinned.tools.slice(0, 1)), '/pkg/data/catalogue.json');
  assert.throws(
    () => shorter[0]?.manifest,
    /catalogue at \/pkg\/data\/catalogue\.json does not match its catalogue-index\.json: it holds 1 tools, the index 2; rebuild the package/,
  );
  assert.throws(() => shorter[1]?.manifest, /does not match/);
  assert.equal(reads, 1, 'a failed read is not retried on every access');
  const swapped = lazyServedTools(index, () => [...pinned.tools].reverse(), 'c.json');
  assert.throws(() => swapped[1]?.manifest, /its tool at \/tools\/0 is not the indexed one/);
  const unreadable = lazyServedTools(
    index,
    () => {
      throw new Error('Cannot read the tool catalogue at c.json: EACCES');
    },
    'c.json',
  );
  assert.throws(() => unreadable[0]?.manifest, /EACCES/);
});

test("the first search loads the package's prebuilt index, and only when it was built from these tools", async () => {
  const { buildSearchIndex, packageToolSearch, SEARCH_INDEX_FORMAT } = await import('../../src/runtime/search/index.js');
  const dir = await mkdtemp(join(tmpdir(), 'nb-search-index-'));
  const file: ServedCatalogueFile = {
    format: 'nexusbloom-served-catalogue/1',
    tools: [
      servedTool(manifest({ slug: 'env-validator', description: 'Validates env files.' })),
      servedTool(manifest({ slug: 'jwt-decoder', description: 'Decodes tokens.' })),
    ],
  };
  const data = buildSearchIndex(file.tools);
  assert.equal(data.format, SEARCH_INDEX_FORMAT);
  // A surface word only the prebuilt data has: seeing it in a reason proves the data served the search.
  const marked = { ...data, terms: { ...data.terms } };
  const validTerm = Object.keys(marked.terms).find((t) => t.startsWith('valid'))!;
  marked.terms[validTerm] = { ...marked.terms[validTerm]!, surface: 'PREBUILT' };
  const settings = readSettings(testNames, {}, () => {});
  const load = async (index: unknown) => {
    const folder = await mkdtemp(join(dir, 'pkg-'));
    await writeFile(join(folder, 'catalogue.json'), JSON.stringify(file));
    if (index !== undefined) await writeFile(join(folder, 'search-index.json'), JSON.stringify(index));
    const catalogue = await loadServedCatalogue(pathToFileURL(join(folder, 'catalogue.json')));
    const store = createCatalogueStore({ catalogue, settings, apiClient: createApiClient(testNames, settings, () => {}), log: () => {} });
    return packageToolSearch(() => store.getTools().tools, catalogue.searchIndexUrl);
  };
  // A prefix match reports the indexed word it expanded to: "val (as validates) in description".
  const withIndex = await load(marked);
  assert.match(withIndex.search('val')[0]!.reason, /as PREBUILT/);
  const stale = await load({ ...marked, key: 'not-these-tools' });
  assert.doesNotMatch(stale.search('val')[0]!.reason, /PREBUILT/);
  assert.equal(stale.search('val')[0]!.slug, 'env-validator');
  const missing = await load(undefined);
  assert.equal(missing.search('val')[0]!.slug, 'env-validator');
});
