// Protocol details of the stateless Streamable HTTP endpoint, driven with raw JSON-RPC over fetch.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServedCatalogueFile } from '../../src/runtime/shared/contracts.js';
import { serveHttp, type HttpMcpServer } from '../../src/runtime/transport/http.js';
import { captureLog, manifest, servedTool, testNames } from './core-fixtures.js';

const catalogue: ServedCatalogueFile = {
  format: 'nexusbloom-served-catalogue/1',
  tools: [servedTool(manifest({ slug: 'env-validator' }))],
};

let server: HttpMcpServer;

before(async () => {
  server = await serveHttp({ names: testNames, catalogue, env: {}, log: captureLog().log, port: 0 });
});

after(() => server.close());

/** POSTs one body and returns the JSON-RPC messages of the SSE answer. */
async function post(body: unknown): Promise<Array<Record<string, unknown>>> {
  const response = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  assert.equal(response.status, 200, text);
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice('data: '.length)) as Record<string, unknown>);
}

test('a tools/call with task metadata is answered normally: this server declares no task capability (MCP 2025-11-25)', async () => {
  const [answer] = await post({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'nexusbloom', arguments: { command: 'list' }, task: { ttl: 60_000 } },
  });
  assert.equal(answer?.error, undefined, JSON.stringify(answer));
  const result = answer?.result as { structuredContent?: { count?: number }; isError?: boolean };
  assert.equal(result.isError, undefined);
  assert.equal(result.structuredContent?.count, 1);
});

test('the same inside a batch, next to a plain request', async () => {
  const answers = await post([
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'nexusbloom', arguments: { command: 'list' }, task: {} } },
    { jsonrpc: '2.0', id: 3, method: 'ping' },
  ]);
  // Answers come as each finishes, not in batch order.
  const outcomes = answers.map((answer) => [answer.id, answer.error === undefined]).sort((a, b) => Number(a[0]) - Number(b[0]));
  assert.deepEqual(outcomes, [
    [2, true],
    [3, true],
  ]);
});
