// The generated bin under raw JSON-RPC on real stdio: what a careless or hostile host writes must not end the session.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { builtExample, initializeRaw, startRawServer } from '../helpers/mcp.js';

let packageDir: string;

before(async () => {
  packageDir = await builtExample();
});

test('a message that is not JSON-RPC 2.0 and a line over 10 MiB are answered with their ids, and the process serves on', async () => {
  const server = startRawServer(packageDir, { NEXUSBLOOM_API_URL: 'http://127.0.0.1:9' });
  try {
    await initializeRaw(server);
    server.send({ jsonrpc: '1.0', id: 3, method: 'ping' });
    const huge = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'base64-codec', arguments: { input: 'x'.repeat(11 * 1024 * 1024) } } };
    server.send(huge);
    server.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    assert.equal(((await server.response(3)).error as { code: number }).code, -32600);
    assert.equal(((await server.response(1)).error as { code: number }).code, -32600);
    assert.deepEqual((await server.response(2)).result, {});
  } finally {
    assert.equal(await server.close(), 0, 'stdin closed: the process exits with 0');
  }
});
