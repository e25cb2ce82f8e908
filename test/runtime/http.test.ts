import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { readFile } from 'node:fs/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ServedCatalogueFile } from '../../src/runtime/shared/contracts.js';
import { parsePort, readHttpSettings } from '../../src/runtime/settings/config.js';
import { manifestsFromBundle, startMockApi, type MockApi } from '../../src/runtime/dev/mock-api.js';
import { rejectedOrigin, serveHttp, type HttpMcpServer } from '../../src/runtime/transport/http.js';
import { serveMode } from '../../src/runtime/transport/main.js';
import { connectHttpClient, notificationParams } from '../helpers/mcp.js';
import { captureLog, sendJson, servedTool, startHttp, testNames } from './core-fixtures.js';

const SERVED_SLUGS = ['data-generator', 'env-validator', 'word-counter'];

async function exampleManifests() {
  const bundle: unknown = JSON.parse(await readFile(new URL('../../examples/catalogue.json', import.meta.url), 'utf8'));
  return manifestsFromBundle(bundle).filter((m) => SERVED_SLUGS.includes(m.slug));
}

async function start(
  env: Record<string, string> = {},
): Promise<{ api: MockApi; http: HttpMcpServer; lines: string[]; close(): Promise<void> }> {
  const manifests = await exampleManifests();
  const api = await startMockApi({ manifests });
  const catalogue: ServedCatalogueFile = { format: 'nexusbloom-served-catalogue/1', tools: manifests.map((m) => servedTool(m)) };
  const { log, lines } = captureLog();
  const http = await serveHttp({ names: testNames, catalogue, env: { NEXUSBLOOM_API_URL: api.url, ...env }, log, port: 0 });
  return {
    api,
    http,
    lines,
    close: async () => {
      await http.close();
      await api.close();
    },
  };
}

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw request, so tests can send the Host and Origin headers a browser under DNS rebinding would. */
function raw(
  url: string,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: string },
): Promise<RawResponse> {
  const target = new URL(options.path ?? '', url);
  const method = options.method ?? 'POST';
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      target,
      {
        method,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...options.headers },
      },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => {
          body += chunk.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    // A GET carries no body: Node would send it unframed and the server would read it as the next request.
    req.end(method === 'GET' ? undefined : (options.body ?? JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })));
  });
}

test('initialize, tools/list and tools/call over Streamable HTTP reach the API', async () => {
  const served = await start();
  const { client } = await connectHttpClient(served.http.url);
  try {
    assert.match(served.http.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    assert.deepEqual(client.getServerVersion(), { name: 'nexusbloom', title: 'NexusBloom', version: '1.2.3' });
    assert.match(client.getInstructions() ?? '', /"command":"search"/);
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      [...SERVED_SLUGS, 'nexusbloom'],
    );
    for (const tool of tools) assert.ok((tool.description ?? '').length > 0, `${tool.name} has a description`);
    const { prompts } = await client.listPrompts();
    assert.ok(prompts.length > 0);
    for (const prompt of prompts) assert.ok((prompt.description ?? '').length > 0, `${prompt.name} has a description`);

    const result = (await client.callTool({ name: 'env-validator', arguments: { env_content: 'DEBUG=true' } })) as CallToolResult;
    assert.notEqual(result.isError, true, JSON.stringify(result));
    assert.equal((result.structuredContent as { valid?: unknown }).valid, true);
    assert.ok(served.api.requests.some((r) => r.endpoint === 'run' && r.slug === 'env-validator'));

    const invalid = (await client.callTool({ name: 'env-validator', arguments: {} })) as CallToolResult;
    assert.equal(invalid.isError, true);
    assert.equal((invalid.structuredContent as { code?: unknown }).code, 'VALIDATION_ERROR');
  } finally {
    await client.close();
    await served.close();
  }
});

interface HistoryData {
  scope: string;
  caller?: string;
  runs: { slug: string; id: string }[];
  note: string;
}
const historyOf = async (client: Client, args: Record<string, unknown> = {}): Promise<CallToolResult> =>
  client.callTool({ name: 'nexusbloom', arguments: { command: 'history', ...args } }) as Promise<CallToolResult>;

test('history over HTTP is per caller: each bearer token sees its own runs, and every answer says so', async () => {
  const served = await start({ NEXUSBLOOM_MCP_HTTP_TOKEN: 'tok-alice, tok-bob' });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const { client: alice } = await connectHttpClient(served.http.url, bearer('tok-alice'));
  const { client: aliceAgain } = await connectHttpClient(served.http.url, bearer('tok-alice'));
  const { client: bob } = await connectHttpClient(served.http.url, bearer('tok-bob'));
  try {
    await alice.callTool({ name: 'word-counter', arguments: { text: 'alice private words' } });
    const own = (await historyOf(aliceAgain)).structuredContent as unknown as HistoryData;
    assert.deepEqual(
      own.runs.map((run) => run.slug),
      ['word-counter'],
    );
    assert.equal(own.scope, 'caller');
    assert.match(own.note, /scoped to your caller identity/);
    assert.match(own.note, /another replica/);
    const shown = await historyOf(aliceAgain, { show: 'r1' });
    assert.match(JSON.stringify(shown.structuredContent), /alice private words/);

    const others = (await historyOf(bob)).structuredContent as unknown as HistoryData;
    assert.deepEqual(others.runs, []);
    assert.equal(others.scope, 'caller');
    assert.notEqual(others.caller, own.caller);
    const peek = await historyOf(bob, { show: 'r1' });
    assert.equal(peek.isError, true);
    assert.doesNotMatch(JSON.stringify(peek), /alice private words/);
    const diff = (await bob.callTool({ name: 'nexusbloom', arguments: { command: 'diff', from: 'r1', to: 'r1' } })) as CallToolResult;
    assert.equal(diff.isError, true);
    const resource = await bob.readResource({ uri: 'nexusbloom://history' });
    assert.doesNotMatch(JSON.stringify(resource), /word-counter/);
  } finally {
    for (const client of [alice, aliceAgain, bob]) await client.close();
    await served.close();
  }
});

test("history over HTTP without a token is off: no caller reads another's runs, and every answer says why", async () => {
  const served = await start();
  const { client: first } = await connectHttpClient(served.http.url);
  const { client: second } = await connectHttpClient(served.http.url);
  try {
    await first.callTool({ name: 'word-counter', arguments: { text: 'one two' } });
    for (const client of [first, second]) {
      const history = await historyOf(client);
      const data = history.structuredContent as unknown as HistoryData;
      assert.deepEqual(data.runs, []);
      assert.equal(data.scope, 'off');
      assert.match(data.note, /History is off/);
      assert.match(data.note, /NEXUSBLOOM_MCP_HTTP_TOKEN/);
      const text = history.content[0];
      assert.ok(text?.type === 'text' && /History is off/.test(text.text));
    }
    const shown = await historyOf(second, { show: '-1' });
    assert.equal(shown.isError, true);
    assert.match(JSON.stringify(shown.content), /History is off/);
  } finally {
    await first.close();
    await second.close();
    await served.close();
  }
});

test('a batch with a progressToken streams monotonic progress within the request', async () => {
  const served = await start();
  const { client, received } = await connectHttpClient(served.http.url);
  try {
    const result = (await client.callTool(
      {
        name: 'nexusbloom',
        arguments: {
          command: 'batch',
          runs: [
            { slug: 'word-counter', params: { text: 'a b c' } },
            { slug: 'data-generator', params: { count: 2 } },
            { slug: 'env-validator', params: { env_content: 'A=1' } },
          ],
        },
      },
      undefined,
      { onprogress: () => undefined },
    )) as CallToolResult;
    assert.notEqual(result.isError, true, JSON.stringify(result));
    const ticks = notificationParams(received, 'notifications/progress');
    assert.deepEqual(
      ticks.map((t) => t.progress),
      [0, 1, 2, 3],
    );
    assert.ok(ticks.every((t) => t.total === 3));
  } finally {
    await client.close();
    await served.close();
  }
});

test('logging/setLevel, then log lines arrive as notifications/message within a later request', async () => {
  const served = await start({ NEXUSBLOOM_MCP_DEBUG: '1' });
  const { client, received } = await connectHttpClient(served.http.url);
  const messages = (): unknown[] => notificationParams(received, 'notifications/message').map((params) => params.data);
  try {
    await client.callTool({ name: 'word-counter', arguments: { text: 'before' } });
    assert.equal(messages().length, 0, 'no log notifications before logging/setLevel');
    await client.setLoggingLevel('info');
    await client.callTool({ name: 'word-counter', arguments: { text: 'after' } });
    assert.ok(
      messages().some((m) => typeof m === 'string' && m.includes('/tools/word-counter/run')),
      JSON.stringify(messages()),
    );
    assert.ok(
      served.lines.some((line) => line.includes('/tools/word-counter/run')),
      'the same lines still go to the stderr log',
    );
  } finally {
    await client.close();
    await served.close();
  }
});

test('a foreign Host or Origin is refused with 403 (DNS rebinding); localhost names and configured hosts pass', async () => {
  const served = await start({ NEXUSBLOOM_MCP_HTTP_ALLOWED_HOSTS: 'mcp.example.test, Other.Example.Test:8443' });
  const port = served.http.port;
  try {
    const foreignHost = await raw(served.http.url, { headers: { host: 'evil.example' } });
    assert.equal(foreignHost.status, 403);
    assert.match(JSON.parse(foreignHost.body).error.message, /Host "evil\.example"/);
    assert.equal((await raw(served.http.url, { headers: { host: `127.0.0.1:${port + 1}` } })).status, 403, 'another port');
    const foreignOrigin = await raw(served.http.url, { headers: { origin: 'http://evil.example' } });
    assert.equal(foreignOrigin.status, 403);
    assert.match(JSON.parse(foreignOrigin.body).error.message, /Origin/);

    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, 'mcp.example.test', 'mcp.example.test:443', 'other.example.test:8443']) {
      const ok = await raw(served.http.url, { headers: { host } });
      assert.equal(ok.status, 200, `${host}: ${ok.body}`);
    }
    assert.equal(
      (await raw(served.http.url, { headers: { host: 'other.example.test:9000' } })).status,
      403,
      'a host listed with a port needs that port',
    );
    assert.equal((await raw(served.http.url, { headers: { origin: `http://localhost:${port}` } })).status, 200);
  } finally {
    await served.close();
  }
});

test('rejectedOrigin: host and origin rules', () => {
  const allowed = ['localhost:3000', '127.0.0.1:3000', '[::1]:3000', 'mcp.example.test'];
  const cases: { headers: Record<string, string>; refused: boolean }[] = [
    { headers: { host: 'localhost:3000' }, refused: false },
    { headers: { host: '[::1]:3000' }, refused: false },
    { headers: { host: 'LOCALHOST:3000' }, refused: false },
    { headers: { host: 'localhost' }, refused: true },
    { headers: { host: 'localhost:3001' }, refused: true },
    { headers: {}, refused: true },
    { headers: { host: 'mcp.example.test:80' }, refused: false },
    { headers: { host: 'localhost:3000', origin: 'null' }, refused: true },
    { headers: { host: 'localhost:3000', origin: 'https://mcp.example.test' }, refused: false },
    { headers: { host: 'localhost:3000', origin: 'http://localhost:3000.evil.example' }, refused: true },
  ];
  for (const { headers, refused } of cases) {
    assert.equal(rejectedOrigin({ headers }, allowed) !== null, refused, JSON.stringify(headers));
  }
});

test('with a token set, /mcp needs the bearer token (401 otherwise); /healthz does not', async () => {
  const served = await start({ NEXUSBLOOM_MCP_HTTP_TOKEN: 's3cret-token' });
  try {
    const missing = await raw(served.http.url, {});
    assert.equal(missing.status, 401);
    assert.equal(missing.headers['www-authenticate'], 'Bearer');
    assert.equal((await raw(served.http.url, { headers: { authorization: 'Bearer wrong' } })).status, 401);
    assert.equal((await raw(served.http.url, { headers: { authorization: 's3cret-token' } })).status, 401);
    await assert.rejects(connectHttpClient(served.http.url), /bearer token/);

    const { client } = await connectHttpClient(served.http.url, { authorization: 'Bearer s3cret-token' });
    const { tools } = await client.listTools();
    assert.equal(tools.length, SERVED_SLUGS.length + 1);
    await client.close();
    assert.equal((await raw(served.http.url, { method: 'GET', path: '/healthz' })).status, 200);
    assert.ok(
      served.lines.every((line) => !line.includes('s3cret-token')),
      'the token never reaches the log',
    );
  } finally {
    await served.close();
  }
});

test('GET /healthz answers 200 JSON for any Host; other paths and methods are refused', async () => {
  const served = await start();
  try {
    const health = await raw(served.http.url, { method: 'GET', path: '/healthz', headers: { host: '10.0.0.7:8080' } });
    assert.equal(health.status, 200);
    assert.match(String(health.headers['content-type']), /application\/json/);
    assert.deepEqual(JSON.parse(health.body), { status: 'ok', name: 'nexusbloom', version: '1.2.3' });
    const get = await raw(served.http.url, { method: 'GET' });
    assert.equal(get.status, 405);
    assert.equal(get.headers.allow, 'POST');
    assert.equal((await raw(served.http.url, { path: '/other' })).status, 404);
    const notJson = await raw(served.http.url, { body: '{not json' });
    assert.equal(notJson.status, 400);
    assert.equal(JSON.parse(notJson.body).error.code, -32700);
  } finally {
    await served.close();
  }
});

test('close() lets an in-flight call finish, then stops listening', async () => {
  const slowApi = await startHttp((_req, res) => {
    setTimeout(() => sendJson(res, 200, { success: true, result: { words: 1, characters: 4 }, duration_ms: 300 }), 300);
  });
  const manifests = await exampleManifests();
  const catalogue: ServedCatalogueFile = { format: 'nexusbloom-served-catalogue/1', tools: manifests.map((m) => servedTool(m)) };
  const { log } = captureLog();
  const http = await serveHttp({ names: testNames, catalogue, env: { NEXUSBLOOM_API_URL: slowApi.url }, log, port: 0 });
  const { client } = await connectHttpClient(http.url);
  try {
    const call = client.callTool({ name: 'word-counter', arguments: { text: 'slow' } }) as Promise<CallToolResult>;
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closed = http.close();
    const result = await call;
    assert.deepEqual(result.structuredContent, { words: 1, characters: 4 });
    await closed;
    await assert.rejects(raw(http.url, {}), /ECONNREFUSED/);
  } finally {
    await client.close().catch(() => undefined);
    await slowApi.close();
  }
});

test('HTTP settings and the --http flag', () => {
  const { log, lines } = captureLog();
  const defaults = readHttpSettings(testNames, {}, log);
  assert.deepEqual(
    { ...defaults, vars: undefined },
    {
      port: null,
      host: '127.0.0.1',
      allowedHosts: [],
      token: null,
      tokens: [],
      allowNoToken: false,
      vars: undefined,
    },
  );
  assert.equal(defaults.vars.port, 'NEXUSBLOOM_MCP_HTTP_PORT');
  const set = readHttpSettings(
    testNames,
    {
      NEXUSBLOOM_MCP_HTTP_PORT: '8080',
      NEXUSBLOOM_MCP_HTTP_HOST: '0.0.0.0',
      NEXUSBLOOM_MCP_HTTP_ALLOWED_HOSTS: ' A.test ,,b.test:9 ',
      NEXUSBLOOM_MCP_HTTP_TOKEN: 't',
    },
    log,
  );
  assert.deepEqual([set.port, set.host, set.allowedHosts, set.token, set.tokens], [8080, '0.0.0.0', ['a.test', 'b.test:9'], 't', ['t']]);
  assert.deepEqual(lines, []);
  assert.equal(readHttpSettings(testNames, { NEXUSBLOOM_MCP_HTTP_PORT: '70000' }, log).port, null);
  assert.match(lines[0] ?? '', /NEXUSBLOOM_MCP_HTTP_PORT="70000" is not a port/);
  assert.deepEqual(['0', '65535', '65536', '-1', '8o', ''].map(parsePort), [0, 65535, null, null, null, null]);

  const P = 'NEXUSBLOOM_MCP_HTTP_PORT';
  assert.deepEqual(serveMode([], null, P), { transport: 'stdio' });
  assert.deepEqual(serveMode([], 9000, P), { transport: 'http', port: 9000 });
  assert.deepEqual(serveMode(['--http'], null, P), { transport: 'http', port: 3000 });
  assert.deepEqual(serveMode(['--http'], 9000, P), { transport: 'http', port: 9000 });
  assert.deepEqual(serveMode(['--http', '0'], 9000, P), { transport: 'http', port: 0 });
  assert.deepEqual(serveMode(['--http=8081'], null, P), { transport: 'http', port: 8081 });
  assert.deepEqual(serveMode(['--http', '--verbose'], null, P), { transport: 'http', port: 3000 });
  const invalid = serveMode(['--http', 'eighty'], null, P);
  assert.equal(invalid.transport, 'invalid');
});
