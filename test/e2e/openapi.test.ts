// An OpenAPI description built into a server that calls the API itself: real stdio server, real SDK client, a
// loopback API answering from the description; every request checked as the API receives it.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Manifest, ToolFailure } from '../../src/runtime/shared/contracts.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { call, connectServer, dataOf, type ServerSession } from '../helpers/mcp.js';
import { builtApiPackage } from '../helpers/openapi-build.js';
import { startSpecMock, type SpecMock } from '../helpers/openapi-mock.js';

const SHOP = readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'openapi', 'shop.yaml'), 'utf8');
const META = 'shop';

describe('OpenAPI source: the generated server calls the operations', () => {
  let dir: string;
  let tools: Manifest[];
  let mock: SpecMock;
  let session: ServerSession;
  const env = (extra: Record<string, string> = {}) => ({ SHOP_API_URL: mock.url, SHOP_MCP_TOOLS: 'all', ...extra });

  before(async () => {
    const built = await builtApiPackage('shop', SHOP, {
      toolNames: 'sanitize',
      envPrefix: 'SHOP_',
      metaToolName: META,
      serverName: 'shop',
      productName: 'Shop',
      packageName: 'shop-mcp',
    });
    dir = built.dir;
    tools = (JSON.parse(readFileSync(join(dir, 'data', 'catalogue.json'), 'utf8')) as { tools: Array<{ manifest: Manifest }> }).tools.map(
      (t) => t.manifest,
    );
    mock = await startSpecMock(tools, { items_delete: { status: 204 } });
    session = await connectServer(
      dir,
      env({ SHOP_API_KEY_HEADER_KEY: 'k-123', SHOP_BASIC_USERNAME: 'ann', SHOP_BASIC_PASSWORD: 'pw', SHOP_QUERY_KEY_KEY: 'q&1' }),
    );
  });
  after(async () => {
    await session?.close();
    await mock?.close();
  });

  it('lists every operation under a valid name, with method annotations and the x-mcp override', async () => {
    const listed = (await session.client.listTools()).tools;
    const byName = new Map(listed.map((t) => [t.name, t]));
    assert.deepEqual([...byName.keys()].sort(), ['items_create', 'items_delete', 'items_get', 'items_replace', META].sort());
    assert.deepEqual(byName.get('items_get')?.annotations, { readOnlyHint: true, openWorldHint: true });
    assert.equal(byName.get('items_replace')?.annotations?.idempotentHint, true);
    // DELETE is destructive by default; the operation's x-mcp.annotations says it is not.
    assert.equal(byName.get('items_delete')?.annotations?.destructiveHint, false);
    const lock = JSON.parse(readFileSync(join(dir, 'names.lock.json'), 'utf8')) as { tools: Record<string, { tool: string }> };
    assert.equal(lock.tools['items/get']?.tool, 'items_get');
  });

  it('GET: path value encoded, query in form/explode, form/no-explode and deepObject, header and cookie, API key header', async () => {
    mock.requests.length = 0;
    const result = await call(session, 'items_get', {
      itemId: 'a/b c',
      fields: ['name', 'price'],
      sort: ['-price', 'name'],
      filter: { color: 'red', size: 2 },
      'X-Trace-Id': 't-1',
      session: 's1',
    });
    assert.equal(result.isError, undefined, JSON.stringify(result.content));
    assert.deepEqual(dataOf(result), mock.answerOf('items/get'));
    const [request] = mock.requests;
    assert.equal(request?.method, 'GET');
    assert.equal(request?.target, '/items/a%2Fb%20c?fields=name&fields=price&sort=-price,name&filter%5Bcolor%5D=red&filter%5Bsize%5D=2');
    assert.equal(request?.headers['x-trace-id'], 't-1');
    assert.equal(request?.headers.cookie, 'session=s1');
    // The first alternative that is configured: the API key in its header.
    assert.equal(request?.headers['x-api-key'], 'k-123');
    assert.equal(request?.headers.authorization, undefined);
  });

  it('PUT and POST send the body as JSON; a query API key and basic auth come from their variables', async () => {
    mock.requests.length = 0;
    const put = await call(session, 'items_replace', { itemId: '7', body: { name: 'lamp', price: 3 } });
    assert.equal(put.isError, undefined, JSON.stringify(put.content));
    const post = await call(session, 'items_create', { body: { name: 'desk', note: null } });
    assert.equal(post.isError, undefined, JSON.stringify(post.content));
    const del = await call(session, 'items_delete', { itemId: '7' });
    assert.equal(del.isError, undefined, JSON.stringify(del.content));
    const [putRequest, postRequest, deleteRequest] = mock.requests;
    assert.equal(putRequest?.method, 'PUT');
    assert.deepEqual(JSON.parse(putRequest!.body), { name: 'lamp', price: 3 });
    assert.equal(putRequest?.headers['content-type'], 'application/json');
    assert.equal(postRequest?.target, '/items?key=q%261');
    assert.deepEqual(JSON.parse(postRequest!.body), { name: 'desk', note: null });
    assert.equal(deleteRequest?.method, 'DELETE');
    assert.equal(deleteRequest?.headers.authorization, `Basic ${Buffer.from('ann:pw').toString('base64')}`);
  });

  it('validates before sending: a price of 0 breaks exclusiveMinimum (converted from 3.0 booleans), nothing reaches the API', async () => {
    mock.requests.length = 0;
    const result = await call(session, 'items_replace', { itemId: '7', body: { name: 'lamp', price: 0 } });
    assert.equal(result.isError, true);
    assert.equal(dataOf<ToolFailure>(result).code, 'VALIDATION_ERROR');
    assert.equal(mock.requests.length, 0);
  });

  it('batch and history work for operations as for catalogue tools', async () => {
    const batch = await call(session, META, {
      command: 'batch',
      runs: [
        { slug: 'items/get', params: { itemId: '1' } },
        { slug: 'items_delete', params: { itemId: '2' } },
      ],
    });
    assert.equal(batch.isError, undefined, JSON.stringify(batch.content));
    const history = dataOf<{ runs: Array<{ slug?: string }> }>(await call(session, META, { command: 'history' }));
    assert.ok(
      history.runs.some((run) => run.slug === 'items/get'),
      JSON.stringify(history.runs),
    );
  });
});

describe('OpenAPI source: failures keep the stable codes', () => {
  let dir: string;
  let mock: SpecMock;
  before(async () => {
    dir = (await builtApiPackage('shop-faults', SHOP, { toolNames: 'sanitize', envPrefix: 'SHOP_', metaToolName: META })).dir;
    const tools = (
      JSON.parse(readFileSync(join(dir, 'data', 'catalogue.json'), 'utf8')) as { tools: Array<{ manifest: Manifest }> }
    ).tools.map((t) => t.manifest);
    mock = await startSpecMock(tools, {
      'items/get': { status: 401, body: { message: 'no key' } },
      items_replace: { status: 503, body: { message: 'down' } },
      items_delete: { status: 404, body: { message: 'no such item' } },
      'items/create': { status: 429, body: {}, headers: { 'retry-after': '7' } },
    });
  });
  after(async () => mock?.close());

  it('401 is AUTH_ERROR naming the variables to set; 503 UPSTREAM_ERROR (retryable); 404 EXECUTION_ERROR; 429 RATE_LIMITED', async () => {
    const session = await connectServer(dir, { SHOP_API_URL: mock.url, SHOP_MCP_TOOLS: 'all' });
    try {
      const auth = dataOf<ToolFailure>(await call(session, 'items_get', { itemId: '1' }));
      assert.equal(auth.code, 'AUTH_ERROR');
      assert.match(auth.error, /SHOP_API_KEY_HEADER_KEY or SHOP_BEARER_TOKEN/);
      assert.match(auth.error, /no key/);
      const upstream = dataOf<ToolFailure>(await call(session, 'items_replace', { itemId: '1', body: { name: 'x' } }));
      assert.deepEqual([upstream.code, upstream.retryable], ['UPSTREAM_ERROR', true]);
      const missing = dataOf<ToolFailure>(await call(session, 'items_delete', { itemId: '1' }));
      assert.deepEqual([missing.code, missing.retryable, missing.details?.status], ['EXECUTION_ERROR', false, 404]);
      const limited = dataOf<ToolFailure>(await call(session, 'items_create', { body: { name: 'x' } }));
      assert.deepEqual([limited.code, limited.retryable, limited.details?.retry_after_s], ['RATE_LIMITED', true, 7]);
    } finally {
      await session.close();
    }
  });
});
