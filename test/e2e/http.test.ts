// End to end: the example catalogue built into a real package, its bin started with `--http 0`, driven over HTTP.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { manifestsFromBundle, startMockApi, type MockApi } from '../../src/runtime/dev/mock-api.js';
import { builtExample, connectHttpClient, EXAMPLE_CATALOGUE, notificationParams, serverEnv } from '../helpers/mcp.js';

let packageDir: string;
let apiServer: MockApi | undefined;

/** The mock API, once before() has started it. */
function api(): MockApi {
  if (apiServer === undefined) throw new Error('the mock API did not start');
  return apiServer;
}

before(async () => {
  packageDir = await builtExample();
  const bundle: unknown = JSON.parse(await readFile(EXAMPLE_CATALOGUE, 'utf8'));
  apiServer = await startMockApi({ manifests: manifestsFromBundle(bundle) });
});

after(async () => {
  await apiServer?.close();
});

interface RunningBin {
  child: ChildProcessWithoutNullStreams;
  url: string;
  stdout(): string;
  stderr(): string;
}

/** Starts the generated bin on a free port and reads the URL it announces on stderr. */
async function startBin(env: Record<string, string> = {}): Promise<RunningBin> {
  const child = spawn(process.execPath, [join(packageDir, 'dist', 'bin.js'), '--http', '0'], {
    cwd: packageDir,
    env: serverEnv({ NEXUSBLOOM_API_URL: api().url, ...env }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening on" line within 15 s:\n${stderr}`)), 15_000);
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`bin exited with ${code}:\n${stderr}`));
    });
  });
  return { child, url, stdout: () => stdout, stderr: () => stderr };
}

async function stopBin(bin: RunningBin): Promise<number | null> {
  if (bin.child.exitCode !== null) return bin.child.exitCode;
  const exited = once(bin.child, 'exit');
  bin.child.kill('SIGTERM');
  const [code] = (await exited) as [number | null];
  return code;
}

function rawStatus(
  url: string,
  options: { method?: string; path?: string; headers?: Record<string, string> },
): Promise<{ status: number; body: string }> {
  const method = options.method ?? 'POST';
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      new URL(options.path ?? '', url),
      {
        method,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...options.headers },
      },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => {
          body += chunk.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(method === 'GET' ? undefined : JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
  });
}

test('the generated bin serves MCP over HTTP: tools, prompts, calls, progress, logs, history off without a token, SIGTERM', async () => {
  const bin = await startBin({ NEXUSBLOOM_MCP_DEBUG: '1' });
  const { client, received } = await connectHttpClient(bin.url);
  try {
    assert.match(client.getInstructions() ?? '', /"command":"search"/);
    const { tools } = await client.listTools();
    assert.equal(tools.length, 29, '28 advertised tools plus the meta-tool');
    for (const tool of tools) assert.ok((tool.description ?? '').trim() !== '', `${tool.name} has a description`);
    const { prompts } = await client.listPrompts();
    assert.deepEqual(prompts.map((p) => p.name).sort(), ['find-tool', 'plan-batch', 'recover', 'use-tool']);
    for (const prompt of prompts) assert.ok((prompt.description ?? '').trim() !== '', `${prompt.name} has a description`);

    const direct = (await client.callTool({ name: 'env-validator', arguments: { env_content: 'DEBUG=true' } })) as CallToolResult;
    assert.notEqual(direct.isError, true, JSON.stringify(direct));
    assert.equal((direct.structuredContent as { valid?: unknown }).valid, true);
    assert.ok(api().requests.some((r) => r.endpoint === 'run' && r.slug === 'env-validator'));

    const batch = (await client.callTool(
      {
        name: 'nexusbloom',
        arguments: {
          command: 'batch',
          runs: [
            { slug: 'word-counter', params: { text: 'a b' } },
            { slug: 'data-generator', params: { count: 2 } },
          ],
        },
      },
      undefined,
      { onprogress: () => undefined },
    )) as CallToolResult;
    assert.notEqual(batch.isError, true, JSON.stringify(batch));
    assert.deepEqual(
      notificationParams(received, 'notifications/progress').map((t) => t.progress),
      [0, 1, 2],
    );

    assert.equal(notificationParams(received, 'notifications/message').length, 0, 'no log notifications before logging/setLevel');
    await client.setLoggingLevel('debug');
    await client.callTool({ name: 'word-counter', arguments: { text: 'logged' } });
    const logged = notificationParams(received, 'notifications/message').map((params) => params.data);
    assert.ok(
      logged.some((line) => typeof line === 'string' && line.includes('/tools/word-counter/run')),
      JSON.stringify(logged),
    );

    const history = (await client.callTool({ name: 'nexusbloom', arguments: { command: 'history' } })) as CallToolResult;
    // Without a bearer token callers cannot be told apart, so no caller's runs are kept for another to read.
    const index = history.structuredContent as { runs: { slug: string }[]; note: string; scope: string };
    assert.deepEqual(index.runs, []);
    assert.equal(index.scope, 'off');
    assert.match(index.note, /History is off/);
  } finally {
    await client.close();
  }
  assert.equal(await stopBin(bin), 0, 'SIGTERM ends the process cleanly');
  assert.equal(bin.stdout(), '', 'nothing is written to stdout');
  assert.match(bin.stderr(), /Shutting down \(SIGTERM\)/);
});

test('the generated bin refuses foreign Host/Origin (403), needs its token (401), and answers /healthz', async () => {
  const bin = await startBin({ NEXUSBLOOM_MCP_HTTP_TOKEN: 'e2e-token' });
  const auth = { authorization: 'Bearer e2e-token' };
  try {
    assert.equal((await rawStatus(bin.url, { headers: { ...auth, host: 'rebound.example' } })).status, 403);
    assert.equal((await rawStatus(bin.url, { headers: { ...auth, origin: 'https://rebound.example' } })).status, 403);
    assert.equal((await rawStatus(bin.url, {})).status, 401);
    assert.equal((await rawStatus(bin.url, { headers: { authorization: 'Bearer nope' } })).status, 401);
    assert.equal((await rawStatus(bin.url, { headers: auth })).status, 200);
    const health = await rawStatus(bin.url, { method: 'GET', path: '/healthz' });
    assert.equal(health.status, 200);
    assert.equal(JSON.parse(health.body).status, 'ok');
    const { client } = await connectHttpClient(bin.url, auth);
    assert.ok((await client.listTools()).tools.length > 0);
    await client.close();
  } finally {
    assert.equal(await stopBin(bin), 0);
  }
  assert.ok(!bin.stderr().includes('e2e-token'), 'the token never reaches stderr');
});

test('the generated bin refuses to serve 0.0.0.0 without a token, saying what to set', async () => {
  const child = spawn(process.execPath, [join(packageDir, 'dist', 'bin.js'), '--http', '0'], {
    cwd: packageDir,
    env: serverEnv({ NEXUSBLOOM_MCP_HTTP_HOST: '0.0.0.0' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  assert.equal(code, 1);
  assert.match(stderr, /Cannot start: NEXUSBLOOM_MCP_HTTP_HOST="0\.0\.0\.0" serves beyond this machine/);
  assert.match(stderr, /NEXUSBLOOM_MCP_HTTP_ALLOW_NO_TOKEN=1/);
  assert.doesNotMatch(stderr, /listening on/);
});
