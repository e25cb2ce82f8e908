// A hostile catalogue (quotes, injection strings, prototype keys, unsafe slugs) built, compiled, started and called
// over stdio; its compiled modules are imported here to prove no catalogue text was ever evaluated.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { manifestsFromBundle, startMockApi, type MockApi } from '../../src/runtime/dev/mock-api.js';
import { hostileBundle, HOSTILE_TEXT, tool as catalogueTool } from '../fixtures/catalogues.js';
import { builtPackage, call, connectServer, dataOf, initializeRaw, startRawServer, textOf, type ServerSession } from '../helpers/mcp.js';

/** The MCP tool-name grammar strict hosts enforce (catalogue-api.md, "Names"). */
const TOOL_NAME_GRAMMAR = /^[A-Za-z0-9_-]{1,64}$/;

describe('hostile catalogue, built and served', () => {
  const bundle = hostileBundle();
  // `then` would make the tools index a thenable; boolean property schemas once cost the SDK client every tool.
  bundle.tools.push(
    catalogueTool('then'),
    catalogueTool('boolean-properties', { input_schema: { type: 'object', properties: { t: true, f: false } }, examples: [] }),
  );
  // Annotations MCP does not define are dropped; a slug too long for a file name and Windows device names still build.
  const LONG_SLUG = `long-${'x'.repeat(250)}`;
  bundle.tools.push(
    catalogueTool('odd-annotations', { annotations: { readOnlyHint: true, 'x-vendor': { deep: [1] } } as never }),
    catalogueTool(LONG_SLUG),
    catalogueTool('com4'),
    catalogueTool('LPT0'),
    catalogueTool('com¹'),
  );
  const slugs = (bundle.tools as Array<{ slug: string }>).map((tool) => tool.slug);
  let packageDir: string;
  let api: MockApi;
  let session: ServerSession;

  before(async () => {
    packageDir = await builtPackage('hostile', JSON.stringify(bundle));
    api = await startMockApi({ manifests: manifestsFromBundle(bundle) });
    session = await connectServer(packageDir, { NEXUSBLOOM_API_URL: api.url });
  });
  after(async () => {
    await session?.close();
    await api?.close();
  });

  it('advertises exactly the grammar-valid slugs, plus the meta-tool (raw tools/list)', async () => {
    const server = startRawServer(packageDir, { NEXUSBLOOM_API_URL: api.url });
    let tools: Array<{ name: string; title?: string; description?: string }>;
    try {
      await initializeRaw(server);
      server.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      tools = ((await server.response(1)).result as { tools: typeof tools }).tools;
    } finally {
      await server.close();
    }
    const advertised = tools
      .map((tool) => tool.name)
      .filter((name) => name !== 'nexusbloom')
      .sort();
    const valid = slugs.filter((slug) => TOOL_NAME_GRAMMAR.test(slug)).sort();
    assert.equal(valid.length, 13);
    assert.deepEqual(advertised, valid);
    const index = tools.find((tool) => tool.name === 'index')!;
    assert.equal(index.description, HOSTILE_TEXT);
    assert.equal(index.title, HOSTILE_TEXT);
  });

  // Known bug (server side, src/runtime/catalogue/advertise.ts / transport/server.ts): the SDK client (1.32.2, zod v4) parses
  // `inputSchema.properties` as a record, and zod v4 refuses an object whose own `constructor` key is not a function.
  // The `index` tool has a parameter named "constructor", so the whole tools/list is rejected by every SDK-based
  // host: one tool costs the agent every tool. The server must not advertise such a schema as is.
  it('its tools/list parses in an SDK client', async () => {
    await assert.doesNotReject(
      session.client.listTools(),
      'the SDK client rejects the whole tools/list because the "index" tool has an input property named "constructor"',
    );
    const { tools } = await session.client.listTools();
    assert.ok(tools.some((tool) => tool.name === 'index'));
    assert.deepEqual(tools.find((tool) => tool.name === 'boolean-properties')?.inputSchema.properties, { t: {}, f: { not: {} } });
    assert.deepEqual(tools.find((tool) => tool.name === 'odd-annotations')?.annotations, { readOnlyHint: true });
  });

  it('writes no file under a Windows device name or a name longer than a file system takes', async () => {
    const { readdir } = await import('node:fs/promises');
    const files = (await readdir(packageDir, { recursive: true })).map(String).filter((path) => !path.startsWith('node_modules'));
    const names = files.map((path) => path.split(/[\\/]/).at(-1) as string);
    assert.deepEqual(
      names.filter((name) => /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\.|$)/i.test(name)),
      [],
    );
    assert.ok(
      names.every((name) => Buffer.byteLength(name) <= 120),
      names.find((name) => Buffer.byteLength(name) > 120),
    );
    const result = await call(session, 'nexusbloom', { command: 'run', slug: LONG_SLUG, params: { text: 'ab' } });
    assert.deepEqual(dataOf(result), { length: 2 });
  });

  it('calls the index tool, whose schema is made of hostile keys and text', async () => {
    const result = await call(session, 'index', { 'key with spaces': { toString: true } });
    assert.equal(result.isError, undefined, textOf(result));
    assert.deepEqual(dataOf(result), { length: 0 });
    assert.deepEqual(api.requests.at(-1)?.body, { params: { 'key with spaces': { toString: true } } });
    const invalid = await call(session, 'index', { 'key with spaces': { toString: 'yes' } });
    assert.equal(invalid.isError, true);
    assert.equal(dataOf(invalid).code, 'VALIDATION_ERROR');
  });

  it('reaches a withheld slug through the meta-tool', async () => {
    const result = await call(session, 'nexusbloom', { command: 'run', slug: '日本語ツール', params: { text: 'four' } });
    assert.equal(result.isError, undefined, textOf(result));
    assert.deepEqual(dataOf(result), { length: 4 });
  });

  it('never evaluates catalogue text when its modules are imported', async () => {
    const marker = globalThis as { __catalogueEvaluated?: unknown };
    assert.equal(marker.__catalogueEvaluated, undefined);
    const tools = (await import(pathToFileURL(join(packageDir, 'dist', 'tools', 'index.js')).href)) as Record<string, unknown>;
    const main = (await import(pathToFileURL(join(packageDir, 'dist', 'index.js')).href)) as Record<string, unknown>;
    assert.ok(Object.keys(tools).length >= slugs.length, 'one wrapper per tool');
    assert.equal('then' in tools, false, 'the module namespace is not a thenable');
    assert.equal(typeof tools.thenTool, 'function');
    assert.ok(Object.keys(main).length > 0);
    assert.equal(marker.__catalogueEvaluated, undefined);
  });
});
