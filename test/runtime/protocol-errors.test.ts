// Protocol-level error answers of the server, driven with raw JSON-RPC messages over the SDK's in-memory transport.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createServer, type CreatedServer } from '../../src/runtime/transport/server.js';
import type { ServedCatalogueFile } from '../../src/runtime/shared/contracts.js';
import { captureLog, manifest, servedTool, testNames } from './core-fixtures.js';

const catalogue: ServedCatalogueFile = {
  format: 'nexusbloom-served-catalogue/1',
  tools: [
    servedTool(
      manifest({
        slug: 'env-validator',
        name: 'Env Validator',
        description: 'Validates a .env file.',
        input_schema: { type: 'object', required: ['env_content'], properties: { env_content: { type: 'string' } } },
      }),
    ),
  ],
};

let created: CreatedServer;
let client: InMemoryTransport;
const received: JSONRPCMessage[] = [];
let nextId = 1;

before(async () => {
  created = createServer({ names: testNames, catalogue, env: {}, log: captureLog().log });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  client = clientSide;
  client.onmessage = (message) => void received.push(message);
  await created.server.connect(serverSide);
  await client.start();
  await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
  await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
});

after(async () => {
  await client.close();
  await created.close();
});

/** Sends one request as raw JSON-RPC (no client-side checks) and returns the server's response to it. */
async function request(method: string, params?: unknown): Promise<Record<string, unknown>> {
  const id = nextId++;
  await client.send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) } as JSONRPCMessage);
  for (let waited = 0; waited < 2000; waited += 5) {
    const response = received.find((message) => 'id' in message && message.id === id && !('method' in message));
    if (response !== undefined) return response as Record<string, unknown>;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`no response to ${method}`);
}

function errorOf(response: Record<string, unknown>): { code: number; message: string } {
  assert.ok(response.error, `expected an error, got ${JSON.stringify(response)}`);
  return response.error as { code: number; message: string };
}

test('params that do not fit a method are -32602 Invalid params naming the field, not -32603 Internal error', async () => {
  const cases: Array<[string, unknown, RegExp]> = [
    ['tools/call', { name: 5 }, /params\.name|"name"/],
    ['tools/call', { name: 'env-validator', arguments: 'text' }, /arguments/],
    ['prompts/get', {}, /params\.name: .*expected string/],
    ['prompts/get', { name: 'use-tool', arguments: { slug: 5 } }, /params\.arguments\.slug: .*expected string/],
    ['resources/read', {}, /params\.uri: .*expected string/],
    ['completion/complete', { argument: { name: 'slug', value: '' } }, /params\.ref/],
    ['logging/setLevel', { level: 'loud' }, /params\.level/],
  ];
  for (const [method, params, names] of cases) {
    const error = errorOf(await request(method, params));
    assert.equal(error.code, -32602, `${method} ${JSON.stringify(params)}: ${error.message}`);
    assert.match(error.message, names, method);
  }
});

test('our own params messages say which method and how to recover, on one line', async () => {
  const error = errorOf(await request('resources/read', { uri: 42 }));
  assert.equal(
    error.message,
    'Invalid params for resources/read: params.uri: Invalid input: expected string, received number. ' +
      'Fix the params and send the request again.',
  );
});

test('valid requests still reach their handlers', async () => {
  const read = await request('resources/read', { uri: 'nexusbloom://catalogue' });
  assert.ok(read.result, JSON.stringify(read));
  const level = await request('logging/setLevel', { level: 'error' });
  assert.deepEqual(level.result, {});
  const unknown = errorOf(await request('tools/unknown', {}));
  assert.equal(unknown.code, -32601);
});

test('a cursor the server did not issue is -32602 on every list; a short list fits one page and issues none', async () => {
  for (const method of ['tools/list', 'resources/list', 'resources/templates/list', 'prompts/list']) {
    const first = await request(method, {});
    assert.ok(first.result, method);
    assert.equal((first.result as { nextCursor?: string }).nextCursor, undefined, `${method} issues no cursor for one page`);
    const error = errorOf(await request(method, { cursor: 'garbage' }));
    assert.equal(error.code, -32602, method);
    assert.match(error.message, /Invalid cursor "garbage": /, method);
  }
  // A well-formed cursor past the end of a one-page list was not issued either (the list changed since).
  const past = errorOf(await request('tools/list', { cursor: Buffer.from('page:128').toString('base64url') }));
  assert.equal(past.code, -32602);
  assert.match(past.message, /list again without a cursor/);
});
