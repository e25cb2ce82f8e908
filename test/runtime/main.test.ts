import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { ServedCatalogueFile } from '../../src/runtime/shared/contracts.js';
import { manifest, servedTool, testNames } from './core-fixtures.js';

const repoRoot = new URL('../../', import.meta.url);
const catalogue: ServedCatalogueFile = {
  format: 'nexusbloom-served-catalogue/1',
  tools: [
    servedTool(
      manifest({
        slug: 'noisy',
        source: {
          runtime: 'node',
          code: 'exports.run = () => { console.log("NOT JSON-RPC"); process.stdout.write("{}\\n"); return { ok: true }; };',
        },
      }),
    ),
    servedTool(manifest({ slug: 'two words' }), 'contains characters outside [A-Za-z0-9_-]: " "'),
  ],
};

/** A package-shaped directory: data/catalogue.json plus a bin that calls main() like a generated src/bin.ts does. */
async function fakePackage(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'nb-main-'));
  await mkdir(join(dir, 'data'));
  await writeFile(join(dir, 'data', 'catalogue.json'), JSON.stringify(catalogue));
  await writeFile(
    join(dir, 'bin.mjs'),
    [
      `import { main } from ${JSON.stringify(new URL('src/runtime/transport/main.ts', repoRoot).href)};`,
      `await main({ names: ${JSON.stringify(testNames)}, catalogueUrl: new URL('./data/catalogue.json', import.meta.url) });`,
    ].join('\n'),
  );
  return dir;
}

const childEnv = (extra: Record<string, string>) => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...extra });

/** An SDK client for the fake package's bin over real stdio (not yet connected), and what the bin writes to stderr. */
function stdioClient(dir: string, env: Record<string, string>): { client: Client; transport: StdioClientTransport; stderr: string[] } {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', join(dir, 'bin.mjs')],
    cwd: new URL(repoRoot).pathname,
    env: childEnv(env),
    stderr: 'pipe',
  });
  const stderr: string[] = [];
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  return { client: new Client({ name: 'stdio-test', version: '0.0.0' }), transport, stderr };
}

test('serves over real stdio through the SDK client', async () => {
  const dir = await fakePackage();
  const { client, transport, stderr } = stdioClient(dir, { NEXUSBLOOM_MCP_EXECUTION: 'local' });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ['noisy', 'nexusbloom'],
    );
    const result = await client.callTool({ name: 'noisy', arguments: {} });
    assert.notEqual(result.isError, true, JSON.stringify(result));
    assert.deepEqual(result.structuredContent, { ok: true });
  } finally {
    await client.close();
    await rm(dir, { recursive: true });
  }
  const log = stderr.join('');
  assert.match(log, /withheld.*"two words"/);
  assert.match(log, /not a security sandbox/);
  assert.match(log, /NOT JSON-RPC/, "the tool's stdout is forwarded to stderr");
});

test('stdout carries only JSON-RPC; closing stdin ends the process cleanly', async () => {
  const dir = await fakePackage();
  const child = spawn(process.execPath, ['--import', 'tsx', join(dir, 'bin.mjs')], {
    cwd: new URL(repoRoot).pathname,
    env: childEnv({ NEXUSBLOOM_MCP_EXECUTION: 'local' }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.resume();
  const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
  const waitFor = async (id: number) => {
    for (let i = 0; i < 200 && !stdout.split('\n').some((line) => line.includes(`"id":${id}`)); i += 1)
      await new Promise((r) => setTimeout(r, 50));
  };
  try {
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    });
    await waitFor(1);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'noisy', arguments: {} } });
    await waitFor(2);
    child.stdin.end();
    const [code] = await once(child, 'exit');
    assert.equal(code, 0);
    const lines = stdout.split('\n').filter((line) => line !== '');
    assert.equal(lines.length, 2, stdout);
    for (const line of lines) assert.equal(JSON.parse(line).jsonrpc, '2.0');
    assert.ok(!stdout.includes('NOT JSON-RPC'));
  } finally {
    child.kill();
    await rm(dir, { recursive: true });
  }
});

test('requests written before stdin closes are all answered before the process exits (printf … | bin)', async () => {
  const dir = await fakePackage();
  const child = spawn(process.execPath, ['--import', 'tsx', join(dir, 'bin.mjs')], {
    cwd: new URL(repoRoot).pathname,
    env: childEnv({ NEXUSBLOOM_MCP_EXECUTION: 'local' }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  try {
    child.stdin.end(
      [
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
        },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        // A local run takes a child process: it is still in flight when stdin ends.
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'noisy', arguments: {} } },
        {
          jsonrpc: '2.0',
          id: 3,
          method: 'tools/call',
          params: { name: 'nexusbloom', arguments: { command: 'run', slug: 'noisy', params: {} } },
        },
      ]
        .map((message) => `${JSON.stringify(message)}\n`)
        .join(''),
    );
    const [code] = await once(child, 'exit');
    assert.equal(code, 0, stderr);
    const answers = stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { id: number; result?: { isError?: boolean } });
    assert.deepEqual(answers.map((answer) => answer.id).sort(), [1, 2, 3], stdout);
    for (const answer of answers.slice(1)) assert.notEqual(answer.result?.isError, true, JSON.stringify(answer));
    assert.match(stderr, /Answering 2 request\(s\) already received before shutting down/);
    assert.match(stderr, /Shutting down \(stdin closed\)/);
  } finally {
    child.kill();
    await rm(dir, { recursive: true });
  }
});

test('an API URL is shown without its credentials, and an unusable one keeps the server up with each call failing fast', async () => {
  const dir = await fakePackage();
  const run = async (apiUrl: string) => {
    const { client, transport, stderr } = stdioClient(dir, { NEXUSBLOOM_API_URL: apiUrl });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      const first = await client.callTool({ name: 'noisy', arguments: {} });
      const second = await client.callTool({ name: 'noisy', arguments: {} });
      return {
        tools: tools.length,
        results: [first, second] as { isError?: boolean; structuredContent?: Record<string, unknown> }[],
        stderr: stderr.join(''),
      };
    } finally {
      await client.close();
    }
  };
  try {
    const malformed = await run('admin:hunter2pw@127.0.0.1:9/api');
    assert.equal(malformed.tools, 2);
    for (const result of malformed.results) {
      assert.equal(result.isError, true);
      assert.equal(result.structuredContent?.code, 'CONFIG_ERROR');
      assert.match(String(result.structuredContent?.error), /NEXUSBLOOM_API_URL="\*\*\*@127\.0\.0\.1:9\/api" is not an http\(s\) URL/);
    }
    assert.equal(malformed.stderr.split('\n').filter((line) => line.includes('is not an http(s) URL')).length, 1, malformed.stderr);
    assert.match(malformed.stderr, /ready on stdio: .*API not configured \(NEXUSBLOOM_API_URL is unusable/);
    assert.doesNotMatch(malformed.stderr, /using https:|API https:/);

    const withCredentials = await run('http://admin:hunter2pw@127.0.0.1:9/api');
    assert.equal(withCredentials.results[0]?.structuredContent?.code, 'API_UNREACHABLE');
    assert.match(withCredentials.stderr, /ready on stdio: .*API http:\/\/127\.0\.0\.1:9\/api,/);
    const shown = JSON.stringify([malformed, withCredentials]);
    assert.ok(!shown.includes('hunter2pw'), shown);
  } finally {
    await rm(dir, { recursive: true });
  }
});

test('a missing catalogue is reported on stderr with exit code 1', async () => {
  const dir = await fakePackage();
  await rm(join(dir, 'data', 'catalogue.json'));
  const child = spawn(process.execPath, ['--import', 'tsx', join(dir, 'bin.mjs')], {
    cwd: new URL(repoRoot).pathname,
    env: childEnv({}),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const [code] = await once(child, 'exit');
  await rm(dir, { recursive: true });
  assert.equal(code, 1);
  assert.equal(stdout, '');
  assert.match(stderr, /Cannot read the tool catalogue/);
});

/**
 * Runs the fake package's bin with `args` until it exits. Its stdin is empty, so a bin that started serving instead of
 * answering shuts down at once (rather than waiting, as it would on a terminal) and fails the assertions on its output.
 */
async function runBin(dir: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(dir, 'bin.mjs'), ...args], {
    cwd: new URL(repoRoot).pathname,
    env: childEnv({}),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

test('--help and -h print usage on stdout and exit 0 without serving; --version and -v print the version', async () => {
  const dir = await fakePackage();
  try {
    for (const flag of ['--help', '-h']) {
      const { code, stdout, stderr } = await runBin(dir, [flag]);
      assert.equal(code, 0, stderr);
      assert.match(stdout, /^@nexusbloom\/mcp-server 1\.2\.3: the NexusBloom tools as an MCP server\./);
      assert.match(stdout, /starts it as a stdio server: command "npx", args \["-y", "@nexusbloom\/mcp-server"\]/);
      assert.match(stdout, /--http \[port\]/);
      assert.match(stdout, /NEXUSBLOOM_API_KEY/);
      assert.match(stdout, /NEXUSBLOOM_API_URL .*default https:\/\/nexusbloom\.dev\/api/);
      assert.ok(stdout.includes(join(dir, 'README.md')), stdout);
      assert.doesNotMatch(stderr, /ready on stdio/);
    }
    for (const flag of ['--version', '-v']) {
      const { code, stdout, stderr } = await runBin(dir, [flag]);
      assert.equal(code, 0, stderr);
      assert.equal(stdout, '1.2.3\n');
    }
  } finally {
    await rm(dir, { recursive: true });
  }
});

test('an unknown argument is named on stderr with exit code 2, and nothing is served', async () => {
  const dir = await fakePackage();
  try {
    for (const args of [['--htpp'], ['serve'], ['--http', '8080', '--verbose']]) {
      const { code, stdout, stderr } = await runBin(dir, args);
      assert.equal(code, 2, stderr);
      assert.equal(stdout, '');
      assert.ok(stderr.includes(`unknown argument ${JSON.stringify(args.at(-1))}`), stderr);
      assert.match(stderr, /--stdio, --http \[port\], --help or --version/);
    }
    // --stdio names the default: it serves (and, its stdin being empty, ends at once).
    const stdio = await runBin(dir, ['--stdio']);
    assert.match(stdio.stderr, /ready on stdio/);
    assert.doesNotMatch(stdio.stderr, /unknown argument/);
    // An invalid port is still the start-up failure it was.
    const badPort = await runBin(dir, ['--http', 'eighty']);
    assert.equal(badPort.code, 1);
    assert.match(badPort.stderr, /--http takes a port number/);
  } finally {
    await rm(dir, { recursive: true });
  }
});

test('--http 0 still serves Streamable HTTP', async () => {
  const dir = await fakePackage();
  const child = spawn(process.execPath, ['--import', 'tsx', join(dir, 'bin.mjs'), '--http', '0'], {
    cwd: new URL(repoRoot).pathname,
    env: childEnv({}),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(stderr);
        if (match?.[1] !== undefined) resolve(match[1]);
      });
      child.once('exit', () => reject(new Error(`exited before listening: ${stderr}`)));
    });
    const health = await fetch(new URL('/healthz', url));
    assert.equal(health.status, 200);
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    assert.equal(code, 0);
    assert.equal(stdout, '');
  } finally {
    child.kill();
    await rm(dir, { recursive: true });
  }
});
