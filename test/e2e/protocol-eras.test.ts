// One generated server, two protocol eras: the MCP SDK's v2 client negotiates 2026-07-28 (no initialize, `_meta` on
// every request) and its 1.x client 2025-11-25, each over real stdio and Streamable HTTP, against the same handlers.
// Raw 2026-07-28 requests are checked against what the revision's schema and transport pages require.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client as ClientV2, isSpecType, StreamableHTTPClientTransport as HttpTransportV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioTransportV2 } from '@modelcontextprotocol/client/stdio';
import { manifestsFromBundle, startMockApi, type MockApi } from '../../src/runtime/dev/mock-api.js';
import {
  builtExample,
  connectOver,
  EXAMPLE_CATALOGUE,
  serverEnv,
  startHttpBin,
  startRawServer,
  waitFor,
  type TransportName,
} from '../helpers/mcp.js';

const MODERN = '2026-07-28';
const catalogue = JSON.parse(readFileSync(EXAMPLE_CATALOGUE, 'utf8')) as { tools: Array<{ slug: string }> };
const manifests = manifestsFromBundle(catalogue);
const LISTED = catalogue.tools.filter((tool) => /^[A-Za-z0-9_-]{1,64}$/.test(tool.slug)).length + 1;
const meta = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
  ...extra,
});

interface V2Session {
  client: ClientV2;
  close(): Promise<void>;
}

/** The v2 client over stdio or HTTP, in its `auto` negotiation (probe with server/discover, else initialize). */
async function connectV2(
  transport: TransportName,
  packageDir: string,
  env: Record<string, string>,
  mode: 'auto' | 'legacy',
): Promise<V2Session> {
  const client = new ClientV2({ name: 'v2-e2e', version: '1.0.0' }, { versionNegotiation: { mode } });
  if (transport === 'stdio') {
    await client.connect(
      new StdioTransportV2({
        command: process.execPath,
        args: [join(packageDir, 'dist', 'bin.js')],
        env: serverEnv(env),
        stderr: 'ignore',
        cwd: packageDir,
      }),
    );
    return { client, close: () => client.close() };
  }
  const http = await startHttpBin(packageDir, env);
  await client.connect(new HttpTransportV2(new URL(http.url)));
  return {
    client,
    close: async () => {
      await client.close();
      await http.stop();
    },
  };
}

describe('both protocol eras from one server', { timeout: 300_000 }, () => {
  let packageDir: string;
  let api: MockApi;
  let env: Record<string, string>;

  before(async () => {
    packageDir = await builtExample();
    api = await startMockApi({ manifests });
    env = { NEXUSBLOOM_API_URL: api.url };
  });
  after(async () => api?.close());

  for (const transport of ['stdio', 'http'] as const) {
    it(`v2 client negotiates ${MODERN} over ${transport} and uses every surface`, async () => {
      const session = await connectV2(transport, packageDir, env, 'auto');
      try {
        assert.equal(session.client.getNegotiatedProtocolVersion(), MODERN);
        const listed = await session.client.listTools();
        assert.equal(listed.tools.length, LISTED);
        const direct = await session.client.callTool({ name: 'env-validator', arguments: { env_content: 'DEBUG=true' } });
        assert.notEqual(direct.isError, true, JSON.stringify(direct));
        const invalid = await session.client.callTool({ name: 'env-validator', arguments: {} });
        assert.equal(invalid.isError, true);
        const searched = await session.client.callTool({
          name: 'nexusbloom',
          arguments: { command: 'search', query: 'validate env file' },
        });
        assert.match(JSON.stringify(searched.structuredContent), /env-validator/);
        const guide = await session.client.readResource({ uri: 'nexusbloom://guide' });
        assert.ok(guide.contents.length > 0);
        const prompt = await session.client.getPrompt({ name: 'use-tool', arguments: { slug: 'env-validator' } });
        assert.match(JSON.stringify(prompt.messages), /env_content/);
      } finally {
        await session.close();
      }
    });

    it(`v2 client in legacy mode and the 1.x client get 2025-11-25 over ${transport}`, async () => {
      const v2 = await connectV2(transport, packageDir, env, 'legacy');
      try {
        assert.equal(v2.client.getNegotiatedProtocolVersion(), '2025-11-25');
        assert.equal((await v2.client.listTools()).tools.length, LISTED);
      } finally {
        await v2.close();
      }
      const v1 = await connectOver(transport, packageDir, env);
      try {
        const version = (v1.client.transport as { protocolVersion?: string } | undefined)?.protocolVersion;
        if (transport === 'http') assert.equal(version, '2025-11-25');
        assert.equal((await v1.client.listTools()).tools.length, LISTED);
      } finally {
        await v1.close();
      }
    });
  }

  it('answers raw 2026-07-28 requests on stdio as the revision says, with no initialize', async () => {
    const server = startRawServer(packageDir, env);
    try {
      server.send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta() } });
      const discover = (await server.response(1)).result as Record<string, unknown>;
      assert.ok(isSpecType.DiscoverResult(discover), JSON.stringify(discover));
      assert.equal(discover.resultType, 'complete');
      assert.deepEqual((discover.supportedVersions as string[]).slice(0, 2), [MODERN, '2025-11-25']);
      assert.equal(typeof discover.ttlMs, 'number');
      assert.equal(discover.cacheScope, 'public');
      assert.equal(
        (discover._meta as Record<string, { name: string } | undefined>)['io.modelcontextprotocol/serverInfo']?.name,
        'nexusbloom',
      );

      server.send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: meta() } });
      const list = (await server.response(2)).result as {
        tools: Array<{ name: string }>;
        resultType: string;
        ttlMs: number;
        cacheScope: string;
      };
      assert.ok(isSpecType.ListToolsResult(list));
      assert.equal(list.resultType, 'complete');
      assert.equal(list.ttlMs, 60_000);
      const names = list.tools.map((tool) => tool.name);
      const catalogueNames = names.filter((name) => name !== 'nexusbloom');
      assert.deepEqual(
        catalogueNames,
        [...catalogueNames].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
        'tools in code-unit order',
      );
      assert.equal(names.at(-1), 'nexusbloom', 'the meta-tool after them');
      server.send({ jsonrpc: '2.0', id: 22, method: 'tools/list', params: { _meta: meta() } });
      assert.deepEqual(
        ((await server.response(22)).result as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name),
        names,
      );

      server.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'env-validator', arguments: {}, _meta: meta() } });
      const invalid = (await server.response(3)).result as { isError: boolean; resultType: string };
      assert.equal(invalid.isError, true, 'input validation failures are tool errors');
      assert.equal(invalid.resultType, 'complete');
      assert.equal('ttlMs' in invalid, false, 'tools/call results are not cacheable');

      server.send({
        jsonrpc: '2.0',
        id: 4,
        method: 'tools/list',
        params: { _meta: meta({ 'io.modelcontextprotocol/protocolVersion': '1900-01-01' }) },
      });
      const unsupported = (await server.response(4)).error as { code: number; data: { supported: string[]; requested: string } };
      assert.equal(unsupported.code, -32022);
      assert.equal(unsupported.data.requested, '1900-01-01');
      assert.ok(unsupported.data.supported.includes(MODERN));

      server.send({ jsonrpc: '2.0', id: 5, method: 'ping', params: { _meta: meta() } });
      assert.equal(((await server.response(5)).error as { code: number }).code, -32601);
      server.send({ jsonrpc: '2.0', id: 6, method: 'logging/setLevel', params: { level: 'debug', _meta: meta() } });
      assert.equal(((await server.response(6)).error as { code: number }).code, -32601);

      // Log notifications only for the request that asked for them in its _meta.
      const before = server.messages().length;
      server.send({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'nexusbloom', arguments: { command: 'run', slug: 'no-such-tool-at-all', params: {} }, _meta: meta() },
      });
      await server.response(7);
      server.send({ jsonrpc: '2.0', id: 8, method: 'resources/read', params: { uri: 'nexusbloom://guide', _meta: meta() } });
      const read = (await server.response(8)).result as { resultType: string; ttlMs: number; contents: unknown[] };
      assert.ok(isSpecType.ReadResourceResult(read));
      assert.equal(read.resultType, 'complete');
      const logs = server
        .messages()
        .slice(before)
        .filter((message) => message.method === 'notifications/message');
      assert.deepEqual(logs, [], 'no log notifications for requests without io.modelcontextprotocol/logLevel');
    } finally {
      await server.close();
    }
  });

  it('serves subscriptions/listen on stdio: acknowledged with its id, ended by cancellation without a response', async () => {
    const server = startRawServer(packageDir, env);
    try {
      server.send({
        jsonrpc: '2.0',
        id: 'sub-1',
        method: 'subscriptions/listen',
        params: { notifications: { toolsListChanged: true, promptsListChanged: true }, _meta: meta() },
      });
      await waitFor(
        () => server.messages().some((message) => message.method === 'notifications/subscriptions/acknowledged'),
        'the acknowledgement',
      );
      const ack = server.messages().find((message) => message.method === 'notifications/subscriptions/acknowledged') as {
        params: Record<string, unknown>;
      };
      assert.ok(isSpecType.SubscriptionsAcknowledgedNotification(ack), JSON.stringify(ack));
      assert.deepEqual(ack.params.notifications, { toolsListChanged: true }, 'prompts never change, so that type is not acknowledged');
      assert.equal((ack.params._meta as Record<string, unknown>)['io.modelcontextprotocol/subscriptionId'], 'sub-1');
      server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'sub-1' } });
      server.send({ jsonrpc: '2.0', id: 9, method: 'server/discover', params: { _meta: meta() } });
      await server.response(9);
      assert.equal(
        server.messages().some((message) => message.id === 'sub-1'),
        false,
        'a cancelled request is not answered',
      );
    } finally {
      await server.close();
    }
  });

  it("checks 2026-07-28 HTTP headers against the body, with the revision's status codes", async () => {
    const http = await startHttpBin(packageDir, env);
    const post = async (
      body: Record<string, unknown>,
      headers: Record<string, string>,
    ): Promise<{ status: number; body: Record<string, unknown> }> => {
      const response = await fetch(http.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      const json = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '{}');
      return { status: response.status, body: JSON.parse(json) as Record<string, unknown> };
    };
    const headersFor = (method: string, name?: string): Record<string, string> => ({
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...(name === undefined ? {} : { 'mcp-name': name }),
    });
    try {
      const call = {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'env-validator', arguments: { env_content: 'A=1' }, _meta: meta() },
      };
      const ok = await post(call, headersFor('tools/call', 'env-validator'));
      assert.equal(ok.status, 200);
      assert.equal((ok.body.result as { resultType: string }).resultType, 'complete');

      const encoded = await post(call, headersFor('tools/call', `=?base64?${Buffer.from('env-validator').toString('base64')}?=`));
      assert.equal(encoded.status, 200, 'a base64-sentinel Mcp-Name is decoded before comparing');

      const wrongName = await post(call, headersFor('tools/call', 'slugify'));
      assert.equal(wrongName.status, 400);
      assert.equal((wrongName.body.error as { code: number }).code, -32020);
      const noMethod = await post(call, { 'mcp-protocol-version': MODERN, 'mcp-name': 'env-validator' });
      assert.equal(noMethod.status, 400);
      assert.equal((noMethod.body.error as { code: number }).code, -32020);
      const versionMismatch = await post(call, { ...headersFor('tools/call', 'env-validator'), 'mcp-protocol-version': '2025-11-25' });
      assert.equal((versionMismatch.body.error as { code: number }).code, -32020);

      const unsupported = await post(
        { ...call, params: { ...call.params, _meta: meta({ 'io.modelcontextprotocol/protocolVersion': '2099-01-01' }) } },
        { ...headersFor('tools/call', 'env-validator'), 'mcp-protocol-version': '2099-01-01' },
      );
      assert.equal(unsupported.status, 400);
      assert.equal((unsupported.body.error as { code: number }).code, -32022);

      const unknown = await post(
        { jsonrpc: '2.0', id: 2, method: 'tools/frobnicate', params: { _meta: meta() } },
        headersFor('tools/frobnicate'),
      );
      assert.equal(unknown.status, 404);
      assert.equal((unknown.body.error as { code: number }).code, -32601);

      const badOrigin = await post(call, { ...headersFor('tools/call', 'env-validator'), origin: 'https://evil.example' });
      assert.equal(badOrigin.status, 403);

      // subscriptions/listen: an SSE response that opens with the acknowledgement and stays open until the client goes.
      const closed = new AbortController();
      const listen = await fetch(http.url, {
        method: 'POST',
        signal: closed.signal,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headersFor('subscriptions/listen'),
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 'l1',
          method: 'subscriptions/listen',
          params: { notifications: { toolsListChanged: true }, _meta: meta() },
        }),
      });
      assert.equal(listen.status, 200);
      assert.match(listen.headers.get('content-type') ?? '', /text\/event-stream/);
      const reader = listen.body!.getReader();
      let streamed = '';
      while (!streamed.includes('subscriptions/acknowledged')) streamed += new TextDecoder().decode((await reader.read()).value);
      const ack = JSON.parse(/^data: (.*)$/m.exec(streamed)![1]!) as { params: { _meta: Record<string, unknown> } };
      assert.equal(ack.params._meta['io.modelcontextprotocol/subscriptionId'], 'l1');
      closed.abort();
    } finally {
      await http.stop();
    }
  });
});
