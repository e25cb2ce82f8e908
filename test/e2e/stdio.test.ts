// The generated server at the byte level: every line on stdout is a JSON-RPC message (raw JSON lines over a
// child process), and an unreachable API degrades to API_UNREACHABLE answers, then recovers when the API is back.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { manifestsFromBundle, startMockApi, type MockApi } from '../../src/runtime/dev/mock-api.js';
import type { ToolFailure } from '../../src/runtime/shared/contracts.js';
import { builtExample, call, connectServer, dataOf, EXAMPLE_CATALOGUE, initializeRaw, startRawServer, textOf } from '../helpers/mcp.js';

const manifests = manifestsFromBundle(JSON.parse(readFileSync(EXAMPLE_CATALOGUE, 'utf8')));

/** A port nothing listens on (taken from the OS, then released). */
async function refusedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('generated server, raw stdio', () => {
  let packageDir: string;
  let api: MockApi;

  before(async () => {
    packageDir = await builtExample();
    api = await startMockApi({ manifests });
  });
  after(async () => api?.close());

  it('writes only JSON-RPC messages on stdout, progress only for the call that asked for it', async () => {
    // Debug logging on, so the server has plenty to say: all of it must go to stderr.
    const server = startRawServer(packageDir, { NEXUSBLOOM_API_URL: api.url, NEXUSBLOOM_MCP_DEBUG: '1' });
    try {
      const initialized = (await initializeRaw(server)) as { serverInfo: { name: string } };
      assert.equal(initialized.serverInfo.name, 'nexusbloom');
      server.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      server.send({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'env-validator', arguments: { env_content: 'DEBUG=true' } },
      });
      server.send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'env-validator', arguments: {} } });
      server.send({
        jsonrpc: '2.0',
        id: 5,
        method: 'tools/call',
        params: {
          name: 'nexusbloom',
          arguments: {
            command: 'batch',
            runs: [
              { slug: 'slugify', params: { text: 'a' } },
              { slug: 'slugify', params: { text: 'b' } },
            ],
          },
        },
      });
      server.send({
        jsonrpc: '2.0',
        id: 6,
        method: 'tools/call',
        params: {
          name: 'nexusbloom',
          arguments: { command: 'batch', runs: [{ slug: 'slugify', params: { text: 'c' } }] },
          _meta: { progressToken: 'tok-6' },
        },
      });
      server.send({ jsonrpc: '2.0', id: 7, method: 'resources/read', params: { uri: 'nexusbloom://tools/no-such-tool' } });

      assert.equal(((await server.response(2)).result as { tools: unknown[] }).tools.length, 29);
      assert.equal(((await server.response(3)).result as { isError?: boolean }).isError, undefined);
      assert.equal(((await server.response(4)).result as { isError?: boolean }).isError, true);
      assert.equal(((await server.response(5)).result as { structuredContent: { succeeded: number } }).structuredContent.succeeded, 2);
      assert.equal(((await server.response(6)).result as { structuredContent: { succeeded: number } }).structuredContent.succeeded, 1);
      assert.equal(((await server.response(7)).error as { code: number }).code, -32602);
    } finally {
      await server.close();
    }

    assert.match(server.stderr(), /ready on stdio/);
    const lines = server
      .stdout()
      .split('\n')
      .filter((line) => line !== '');
    assert.ok(lines.length >= 7);
    for (const line of lines) {
      const message = JSON.parse(line) as Record<string, unknown>;
      assert.equal(message.jsonrpc, '2.0', line);
      assert.ok('method' in message || 'result' in message || 'error' in message, line);
    }
    const progress = server.messages().filter((message) => message.method === 'notifications/progress');
    assert.deepEqual(
      progress
        .map((message) => message.params as { progressToken: unknown; progress: number })
        .map((params) => [params.progressToken, params.progress]),
      [
        ['tok-6', 0],
        ['tok-6', 1],
      ],
    );
  });

  it('answers API_UNREACHABLE while the API is down, keeps serving, and works once it is back', async () => {
    const port = await refusedPort();
    const session = await connectServer(packageDir, {
      NEXUSBLOOM_API_URL: `http://127.0.0.1:${port}/api`,
      NEXUSBLOOM_MCP_TIMEOUT_MS: '3000',
    });
    let backUp: MockApi | undefined;
    try {
      const down = await call(session, 'env-validator', { env_content: 'DEBUG=true' });
      assert.equal(down.isError, true);
      const failure = dataOf<ToolFailure>(down);
      assert.equal(failure.code, 'API_UNREACHABLE');
      assert.equal(failure.retryable, true);
      assert.match(failure.error, new RegExp(`127\\.0\\.0\\.1:${port}`));

      assert.equal((await session.client.listTools()).tools.length, 29);
      const search = await call(session, 'nexusbloom', { command: 'search', query: 'env' });
      assert.equal(search.isError, undefined, textOf(search));

      backUp = await startMockApi({ manifests, port });
      const up = await call(session, 'env-validator', { env_content: 'DEBUG=true' });
      assert.equal(up.isError, undefined, textOf(up));
      assert.equal(dataOf(up).valid, true);
    } finally {
      await session.close();
      await backUp?.close();
    }
  });
});
