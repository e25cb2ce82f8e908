// Starts the server's bin from source (src/runtime/transport/main.ts under tsx) over a served catalogue written to a temp folder,
// as its own process with real stdio pipes: for tests about what a process, not a module, does.

import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ServedTool } from '../../src/runtime/shared/contracts.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { recordMessages, serverEnv } from '../helpers/mcp.js';
import { testNames } from './core-fixtures.js';

export interface SourceServer {
  /** `node` arguments that start the bin; run them with cwd REPO_ROOT. */
  args: string[];
  cwd: string;
}

/** Writes the catalogue and a start script; returns how to start the server from source. */
export async function sourceServer(tools: readonly ServedTool[]): Promise<SourceServer> {
  const dir = await mkdtemp(join(tmpdir(), 'nexusbloom-source-server-'));
  await writeFile(join(dir, 'catalogue.json'), JSON.stringify({ format: 'nexusbloom-served-catalogue/1', tools }));
  const main = pathToFileURL(join(REPO_ROOT, 'src', 'runtime', 'transport', 'main.ts')).href;
  await writeFile(
    join(dir, 'start.mjs'),
    `import { main } from ${JSON.stringify(main)};
await main({ names: ${JSON.stringify(testNames)}, catalogueUrl: new URL('./catalogue.json', import.meta.url) });
`,
  );
  return { args: ['--import', 'tsx', join(dir, 'start.mjs')], cwd: REPO_ROOT };
}

export interface SourceSession {
  client: Client;
  /** Every message that arrived on the server's stdout after the handshake, and every line that was not one. */
  received: JSONRPCMessage[];
  strayErrors: string[];
  stderr(): string;
  pid: number | null;
  close(): Promise<void>;
}

/**
 * The server from source with an SDK client connected. Node gives a child sockets for stdio; with `realPipes` the
 * server's stdin and stdout are POSIX pipes instead (`cat | server | cat`), as Python hosts and shells give it, which
 * another process can open through /proc/<pid>/fd/1.
 */
export async function connectSourceServer(
  tools: readonly ServedTool[],
  env: Record<string, string> = {},
  options: { realPipes?: boolean } = {},
): Promise<SourceSession> {
  const server = await sourceServer(tools);
  const [command, args] = options.realPipes
    ? ['/bin/sh', ['-c', 'cat | "$@" | cat', 'sh', process.execPath, ...server.args]]
    : [process.execPath, server.args];
  const transport = new StdioClientTransport({ command, args, cwd: server.cwd, env: serverEnv(env), stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'source-server-test', version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport);
  const received = recordMessages(transport);
  const strayErrors: string[] = [];
  const report = transport.onerror;
  transport.onerror = (error) => {
    strayErrors.push(error.message);
    report?.(error);
  };
  return { client, received, strayErrors, stderr: () => stderr, pid: transport.pid, close: () => client.close() };
}
