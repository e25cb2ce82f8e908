// Server benchmarks over real stdio with the SDK client: cold start (spawn → first tools/list answer), RSS after
// tools/list, and sequential tools/call throughput against the loopback mock API.

import { readFile } from 'node:fs/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema, ListToolsResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Manifest } from '../../src/runtime/shared/contracts.js';
import { median } from './measure.js';

export interface ServerCommand {
  label: string;
  command: string;
  args: string[];
  env: Record<string, string>;
}

export interface ServerStat {
  coldStarts: number;
  coldStartMs: number;
  /** VmRSS of the server process right after its first tools/list answer, KiB (median over the cold starts). */
  rssKb: number | null;
  toolsListed: number;
  /** Bytes of the first tools/list answer as JSON text (what one stdio line carries). */
  toolsListBytes: number;
  calls: number;
  callsPerSecond: number;
  msPerCall: number;
  /**
   * CPU time the server process spent per timed call (user + system, from /proc), ms; null off Linux. Unlike calls/s
   * it leaves out the client, the mock API and the pipe, which both servers share and which dominate a round trip.
   */
  cpuMsPerCall: number | null;
}

export interface ServerPlan {
  coldStarts: number;
  /** Tools called round-robin (each warmed once before timing). */
  tools: Manifest[];
}

/** The SDK client's default stdio read limit (STDIO_DEFAULT_MAX_BUFFER_SIZE): a longer message closes the connection. */
export const SDK_STDIO_MAX_BUFFER = 10 * 1024 * 1024;
/** Raised for the bench so that catalogues whose tools/list exceeds the default can still be measured (and flagged). */
const BENCH_MAX_BUFFER = 512 * 1024 * 1024;

interface Session {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
}

async function open(server: ServerCommand): Promise<Session> {
  const transport = new StdioClientTransport({
    command: server.command,
    args: server.args,
    env: server.env,
    stderr: 'pipe',
    maxBufferSize: BENCH_MAX_BUFFER,
  });
  let stderrText = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderrText = (stderrText + chunk.toString()).slice(-2000);
  });
  const client = new Client({ name: 'nexusbloom-bench', version: '0.0.0' });
  await client.connect(transport);
  return { client, transport, stderr: () => stderrText };
}

/** Resident set size of a live process, KiB, from /proc (Linux only). */
async function vmRssKb(pid: number | null): Promise<number | null> {
  if (pid === null) return null;
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  return match ? Number(match[1]) : null;
}

// Raw requests, not client.listTools()/callTool(): those also compile every outputSchema on the client side, which
// would charge the client's work to the server being measured.
async function listTools(client: Client): Promise<{ tools: number; bytes: number }> {
  const result = await client.request({ method: 'tools/list', params: {} }, ListToolsResultSchema);
  return { tools: result.tools.length, bytes: Buffer.byteLength(JSON.stringify(result)) };
}

async function callTool(session: Session, tool: Manifest): Promise<void> {
  const params = tool.examples?.[0]?.params ?? {};
  const result = await session.client.request(
    { method: 'tools/call', params: { name: tool.slug, arguments: params } },
    CallToolResultSchema,
  );
  if (result.isError === true) {
    const text = result.content.map((c) => (c.type === 'text' ? c.text : c.type)).join(' ');
    throw new Error(`tools/call ${tool.slug} failed: ${text.slice(0, 300)}`);
  }
}

/** Call rounds per server: the calls are spread over them, servers taking turns round by round. */
const CALL_ROUNDS = 10;

/** Clock ticks per second of /proc/PID/stat's utime and stime (USER_HZ, 100 on every Linux build that matters here). */
const USER_HZ = 100;

/** CPU time a live process has used so far (user + system), ms, from /proc (Linux only). */
async function cpuMs(pid: number | null): Promise<number | null> {
  if (pid === null) return null;
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  // The command name (field 2) is in parentheses and may hold spaces: count fields from the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return Number.isFinite(utime) && Number.isFinite(stime) ? ((utime + stime) * 1000) / USER_HZ : null;
}

/**
 * Measures several servers turn by turn: cold start i of each, then call round j of each. A machine whose speed
 * drifts during the run then slows every server alike, and the ratios between them stay fair. A server whose plan has
 * no calls is measured for cold start and RSS only.
 */
export async function measureServersInTurns(
  servers: ReadonlyArray<{ server: ServerCommand; calls: number }>,
  plan: ServerPlan,
): Promise<ServerStat[]> {
  const startTimes = servers.map((): number[] => []);
  const rss = servers.map((): number[] => []);
  const listed = servers.map(() => ({ tools: 0, bytes: 0 }));
  for (let i = 0; i < plan.coldStarts; i += 1) {
    for (const [index, { server }] of servers.entries()) {
      const started = performance.now();
      const session = await open(server);
      try {
        await guarded({ server, session }, async () => {
          listed[index] = await listTools(session.client);
          startTimes[index]!.push(performance.now() - started);
          const kb = await vmRssKb(session.transport.pid);
          if (kb !== null) rss[index]!.push(kb);
        });
      } finally {
        await session.client.close();
      }
    }
  }

  const sessions = await Promise.all(
    servers.map(async ({ server, calls }) => (calls > 0 ? { server, session: await open(server) } : null)),
  );
  const elapsed = servers.map(() => 0);
  const cpu = servers.map((): number | null => 0);
  const done = servers.map(() => 0);
  try {
    for (const entry of sessions) {
      if (entry === null) continue;
      await guarded(entry, async () => {
        await listTools(entry.session.client);
        for (const tool of plan.tools) await callTool(entry.session, tool);
      });
    }
    for (let round = 0; round < CALL_ROUNDS; round += 1) {
      for (const [index, entry] of sessions.entries()) {
        if (entry === null) continue;
        const calls = servers[index]!.calls;
        // This round's share: the calls are spread evenly, the first rounds taking any remainder.
        const share = Math.floor(calls / CALL_ROUNDS) + (round < calls % CALL_ROUNDS ? 1 : 0);
        const pid = entry.session.transport.pid;
        const cpuBefore = await cpuMs(pid);
        const started = performance.now();
        await guarded(entry, async () => {
          for (let i = 0; i < share; i += 1, done[index]! += 1)
            await callTool(entry.session, plan.tools[done[index]! % plan.tools.length]!);
        });
        elapsed[index]! += performance.now() - started;
        const cpuAfter = await cpuMs(pid);
        const spent = cpu[index] ?? null;
        cpu[index] = spent === null || cpuBefore === null || cpuAfter === null ? null : spent + cpuAfter - cpuBefore;
      }
    }
  } finally {
    await Promise.all(sessions.map((entry) => entry?.session.client.close()));
  }
  return servers.map(({ calls }, index) => ({
    coldStarts: startTimes[index]!.length,
    coldStartMs: median(startTimes[index]!),
    rssKb: rss[index]!.length > 0 ? median(rss[index]!) : null,
    toolsListed: listed[index]!.tools,
    toolsListBytes: listed[index]!.bytes,
    calls,
    callsPerSecond: calls > 0 ? (calls / elapsed[index]!) * 1000 : 0,
    msPerCall: calls > 0 ? elapsed[index]! / calls : 0,
    cpuMsPerCall: calls > 0 && cpu[index] !== null ? cpu[index]! / calls : null,
  }));
}

/** Runs `work` on one server's session, naming the server and the tail of its stderr when it fails. */
async function guarded(entry: { server: ServerCommand; session: Session }, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    throw new Error(`${entry.server.label}: ${(error as Error).message}; stderr: ${entry.session.stderr().slice(-300)}`, { cause: error });
  }
}
