// The generated bin under raw JSON-RPC on real stdio: what a careless or hostile host writes must not end the session.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { builtExample, initializeRaw, serverEnv, startRawServer, waitFor } from '../helpers/mcp.js';

let packageDir: string;

before(async () => {
  packageDir = await builtExample();
});

test('a message that is not JSON-RPC 2.0 and a line over 10 MiB are answered with their ids, and the process serves on', async () => {
  const server = startRawServer(packageDir, { NEXUSBLOOM_API_URL: 'http://127.0.0.1:9' });
  try {
    await initializeRaw(server);
    server.send({ jsonrpc: '1.0', id: 3, method: 'ping' });
    const huge = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'base64-codec', arguments: { input: 'x'.repeat(11 * 1024 * 1024) } },
    };
    server.send(huge);
    server.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    assert.equal(((await server.response(3)).error as { code: number }).code, -32600);
    assert.equal(((await server.response(1)).error as { code: number }).code, -32600);
    assert.deepEqual((await server.response(2)).result, {});
  } finally {
    assert.equal(await server.close(), 0, 'stdin closed: the process exits with 0');
  }
});

test('a host that stops reading stdout ends the process (exit 0) instead of leaving it queueing answers', async () => {
  const child = spawn(process.execPath, [join(packageDir, 'dist', 'bin.js')], {
    cwd: packageDir,
    env: serverEnv(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, 'exit');
  try {
    await waitFor(() => stderr.includes('ready on stdio'), 'the server to start', 15_000);
    child.stdout.destroy();
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n`);
    const [code] = await Promise.race([
      exited,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still running:\n${stderr}`)), 5000)),
    ]);
    assert.equal(code, 0);
    assert.match(stderr, /Shutting down \(stdout closed\)/);
  } finally {
    child.kill();
  }
});
