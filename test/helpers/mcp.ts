// End-to-end helpers: build a catalogue into a package once (cached under .tmp/ by a hash of every input), and
// drive its compiled bin with the SDK client over real stdio or Streamable HTTP.

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, ClientCapabilities, JSONRPCMessage, JSONRPCNotification } from '@modelcontextprotocol/sdk/types.js';
import { REPO_ROOT, runCli } from './cli.js';

export const EXAMPLE_CATALOGUE = join(REPO_ROOT, 'examples', 'catalogue.json');

/** Everything a build's output depends on: the generator's compiled code, its runtime, templates and pins. */
const GENERATOR_INPUTS = ['dist', 'src/runtime', 'templates', 'src/schemas', 'package.json'];

function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (statSync(path).isFile()) return [path];
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name))
    .sort();
}

function inputsHash(sourceText: string): string {
  const hash = createHash('sha256').update(sourceText);
  for (const input of GENERATOR_INPUTS) {
    for (const file of filesUnder(join(REPO_ROOT, input))) {
      hash.update(`\0${file.slice(REPO_ROOT.length)}\0`).update(readFileSync(file));
    }
  }
  return hash.digest('hex').slice(0, 16);
}

const builds = new Map<string, Promise<string>>();

/**
 * Builds (with compile) the bundle in `sourceText` into `.tmp/e2e-<name>/<hash>/` unless that exact build exists,
 * and returns the package folder. Inside the repo, the package's dist/ resolves its dependencies from the repo's
 * node_modules. Builds go to a private folder first and are renamed into place, so parallel runs never see half a package.
 */
export function builtPackage(name: string, sourceText: string): Promise<string> {
  const hash = inputsHash(sourceText);
  const key = `${name}/${hash}`;
  let build = builds.get(key);
  if (build === undefined) {
    build = buildOnce(name, hash, sourceText);
    builds.set(key, build);
  }
  return build;
}

async function buildOnce(name: string, hash: string, sourceText: string): Promise<string> {
  const base = join(REPO_ROOT, '.tmp', `e2e-${name}`);
  const dir = join(base, hash);
  if (existsSync(join(dir, 'dist', 'bin.js'))) return dir;
  await mkdir(base, { recursive: true });
  const work = join(base, `${hash}.building-${process.pid}`);
  try {
    await rm(work, { recursive: true, force: true });
    await mkdir(work, { recursive: true });
    const source = join(work, 'source.json');
    await writeFile(source, sourceText);
    const out = join(work, 'package');
    const built = await runCli(['build', '--source', source, '--out', out]);
    if (built.code !== 0) throw new Error(`build of ${name} failed (exit ${built.code}):\n${built.stderr}`);
    try {
      await rename(out, dir);
    } catch (error) {
      // Another run finished the same build first; theirs is identical.
      if (!existsSync(join(dir, 'dist', 'bin.js'))) throw error;
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  await pruneStaleBuilds(base, hash);
  return dir;
}

/** Builds for inputs that have since changed, left long enough that no running test still uses them. */
async function pruneStaleBuilds(base: string, keep: string): Promise<void> {
  const staleBefore = Date.now() - 30 * 60_000;
  for (const entry of readdirSync(base)) {
    const path = join(base, entry);
    if (entry !== keep && statSync(path).mtimeMs < staleBefore) await rm(path, { recursive: true, force: true });
  }
}

/** The example catalogue, built once per input hash. */
export function builtExample(): Promise<string> {
  return builtPackage('example', readFileSync(EXAMPLE_CATALOGUE, 'utf8'));
}

export interface ServerSession {
  client: Client;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** Every message the server sent on stdout, in order. */
  received: JSONRPCMessage[];
  close(): Promise<void>;
}

/** An environment with nothing from the test process that could change the server's behaviour, plus `env`. */
export function serverEnv(env: Record<string, string> = {}): Record<string, string> {
  const base: Record<string, string> = {};
  for (const key of ['PATH', 'HOME', 'TMPDIR', 'SYSTEMROOT']) {
    const value = process.env[key];
    if (value !== undefined) base[key] = value;
  }
  return { ...base, ...env };
}

/** How the test's client presents itself: the capabilities it declares, and handlers set before it connects. */
export interface ClientSetup {
  capabilities?: ClientCapabilities;
  /** Called on the client before it connects (e.g. to answer elicitation/create). */
  prepare?(client: Client): void;
}

function newClient(setup: ClientSetup): Client {
  const client = new Client({ name: 'e2e-test', version: '1.0.0' }, { capabilities: setup.capabilities ?? {} });
  setup.prepare?.(client);
  return client;
}

/** Spawns `packageDir/dist/bin.js` over real stdio with an explicit env and connects an SDK client. */
export async function connectServer(packageDir: string, env: Record<string, string> = {}, setup: ClientSetup = {}): Promise<ServerSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(packageDir, 'dist', 'bin.js')],
    env: serverEnv(env),
    stderr: 'pipe',
    cwd: packageDir,
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = newClient(setup);
  await client.connect(transport);
  const received = recordMessages(transport);
  return { client, stderr: () => stderr, received, close: () => client.close() };
}

export type TransportName = 'stdio' | 'http';

/**
 * Every message the transport delivers, recorded below the client: the SDK runs notification handlers a microtask
 * late, so a progress tick that arrives in the same chunk as its response never reaches `onprogress`.
 */
export function recordMessages(transport: { onmessage?: (message: JSONRPCMessage, ...rest: never[]) => void }): JSONRPCMessage[] {
  const received: JSONRPCMessage[] = [];
  const deliver = transport.onmessage;
  transport.onmessage = (message) => {
    received.push(message);
    deliver?.(message);
  };
  return received;
}

/** An SDK client connected over Streamable HTTP to `url`, and every message it receives (see recordMessages). */
export interface HttpClientSession {
  client: Client;
  received: JSONRPCMessage[];
}

/** Connects an SDK client to the MCP endpoint `url` with `headers` on every request. */
export async function connectHttpClient(url: string, headers: Record<string, string> = {}): Promise<HttpClientSession> {
  const client = new Client({ name: 'http-test', version: '0.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  await client.connect(transport);
  return { client, received: recordMessages(transport) };
}

/** The params of each notification with `method` among `received`, in order. */
export function notificationParams(received: readonly JSONRPCMessage[], method: string): Record<string, unknown>[] {
  return received.flatMap((message) =>
    'method' in message && !('id' in message) && message.method === method ? [message.params ?? {}] : [],
  );
}

export interface HttpBin {
  /** The MCP endpoint it printed, e.g. `http://127.0.0.1:PORT/mcp`. */
  url: string;
  stderr(): string;
  /** SIGTERM, and waits for the exit. */
  stop(): Promise<void>;
}

/** Spawns `packageDir/dist/bin.js --http 0` (stateless Streamable HTTP on an ephemeral loopback port) until it listens. */
export async function startHttpBin(packageDir: string, env: Record<string, string> = {}): Promise<HttpBin> {
  const child = spawn(process.execPath, [join(packageDir, 'dist', 'bin.js'), '--http', '0'], {
    cwd: packageDir,
    env: serverEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await waitFor(() => /listening on (http:\S+)/.test(stderr) || child.exitCode !== null, 'the HTTP server to listen', 30_000);
  const url = /listening on (http:\S+)/.exec(stderr)?.[1];
  if (!url) throw new Error(`the HTTP server did not start:\n${stderr}`);
  return {
    url,
    stderr: () => stderr,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Starts the bin over HTTP (startHttpBin) and connects an SDK client; `close()` also stops the process. */
export async function connectHttpServer(
  packageDir: string,
  env: Record<string, string> = {},
  setup: ClientSetup = {},
): Promise<ServerSession> {
  const bin = await startHttpBin(packageDir, env);
  // With a bearer token set on the server, the client is its first caller (history is kept per caller over HTTP).
  const token = env.NEXUSBLOOM_MCP_HTTP_TOKEN?.split(',')[0]?.trim();
  const transport = new StreamableHTTPClientTransport(
    new URL(bin.url),
    token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : undefined,
  );
  const client = newClient(setup);
  await client.connect(transport);
  const received = recordMessages(transport);
  return {
    client,
    stderr: bin.stderr,
    received,
    close: async () => {
      await client.close();
      await bin.stop();
    },
  };
}

/** Connects over the named transport: the same server, the same checks. */
export function connectOver(
  transport: TransportName,
  packageDir: string,
  env: Record<string, string> = {},
  setup: ClientSetup = {},
): Promise<ServerSession> {
  return transport === 'http' ? connectHttpServer(packageDir, env, setup) : connectServer(packageDir, env, setup);
}

/** The notifications with `method` the server sent, from message number `since` on. */
export function notificationsOf(
  session: ServerSession,
  method: string,
  since = 0,
): Array<{ method: string; params?: Record<string, unknown> }> {
  return session.received
    .slice(since)
    .filter((message): message is JSONRPCNotification => 'method' in message && !('id' in message) && message.method === method);
}

/** tools/call, typed as the plain result. With `onprogress`, the SDK sends a progressToken and routes progress to it. */
export async function call(
  session: ServerSession,
  name: string,
  args: Record<string, unknown>,
  onprogress?: (progress: { progress: number; total?: number; message?: string }) => void,
): Promise<CallToolResult> {
  return (await session.client.callTool({ name, arguments: args }, undefined, onprogress ? { onprogress } : undefined)) as CallToolResult;
}

export function textOf(result: CallToolResult): string {
  return result.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
}

/** The structured payload of a result (what a strict client reads). */
export function dataOf<T = Record<string, unknown>>(result: CallToolResult): T {
  if (result.structuredContent === undefined) throw new Error(`result has no structuredContent: ${textOf(result)}`);
  return result.structuredContent as T;
}

/** Waits until `predicate` holds, polling; fails with `what` after `timeoutMs`. */
export async function waitFor(predicate: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export interface RawServer {
  /** Writes one JSON-RPC message as a line on the server's stdin. */
  send(message: unknown): void;
  /** Waits for the response (not a request or notification) with this id. */
  response(id: number, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Every stdout line so far, parsed (throws on a line that is not JSON). */
  messages(): Array<Record<string, unknown>>;
  stdout(): string;
  stderr(): string;
  /** Ends stdin and waits for the process to exit. */
  close(): Promise<number | null>;
}

/** Spawns `packageDir/dist/bin.js` with node:child_process and talks raw JSON lines, with no SDK in between. */
export function startRawServer(packageDir: string, env: Record<string, string> = {}): RawServer {
  const child = spawn(process.execPath, [join(packageDir, 'dist', 'bin.js')], {
    cwd: packageDir,
    env: serverEnv(env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const messages = (): Array<Record<string, unknown>> =>
    stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  const isResponse = (message: Record<string, unknown>, id: number): boolean => message.id === id && !('method' in message);
  return {
    send: (message) => void child.stdin.write(`${JSON.stringify(message)}\n`),
    async response(id, timeoutMs = 15_000) {
      await waitFor(
        () => stdout.endsWith('\n') && messages().some((message) => isResponse(message, id)),
        `response ${id}; stderr:\n${stderr}`,
        timeoutMs,
      );
      return messages().find((message) => isResponse(message, id))!;
    },
    messages,
    stdout: () => stdout,
    stderr: () => stderr,
    close() {
      child.stdin.end();
      return exited;
    },
  };
}

/** Sends initialize and notifications/initialized, and returns the initialize result. */
export async function initializeRaw(server: RawServer): Promise<Record<string, unknown>> {
  server.send({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  const answer = await server.response(0);
  server.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return answer.result as Record<string, unknown>;
}
