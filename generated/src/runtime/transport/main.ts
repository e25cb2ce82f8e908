// Entry point of a generated server's bin: loads the pinned catalogue, serves MCP over stdio (or Streamable HTTP with
// `--http [port]`), logs only to stderr. `--help` and `--version` answer on stdout and exit; any other argument is an error.

import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { DiagnosticLog, EnvironmentVariables, ServerNames } from '../shared/contracts.js';
import { loadServedCatalogue } from '../catalogue/catalogue-store.js';
import { createStderrLog, DEFAULT_HTTP_PORT, MAX_TIMEOUT_MS, parsePort, readHttpSettings, type Settings } from '../settings/config.js';
import { MAX_BATCH_RUNS } from '../surface/guide.js';
import { unauthenticatedExposure } from '../callers/exposure.js';
import type { ServeHttpOptions } from './http.js';
import { createServer, withoutTaskAugmentation } from './server.js';
import { protoArgumentAnswer } from '../protocol/raw-requests.js';

export interface MainOptions {
  names: ServerNames;
  /** The package's `data/catalogue.json`. */
  catalogueUrl: URL;
  env?: EnvironmentVariables;
  /** Command-line arguments after the script; process.argv.slice(2) by default. */
  argv?: readonly string[];
}

/** What the command line asks for. Only `--http [port]` and the two informational flags are known. */
export type Command = { run: 'serve' } | { run: 'help' } | { run: 'version' } | { run: 'unknown'; argument: string };

/**
 * An MCP host starts the bin with no arguments; a person may type `--help` or `--version`, and a mistyped flag must
 * not start a stdio server that sits waiting on the terminal. The port after `--http` is `serveMode`'s to read.
 */
export function readCommand(argv: readonly string[]): Command {
  let informational: Command | null = null;
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] as string;
    if (arg === '--help' || arg === '-h') informational ??= { run: 'help' };
    else if (arg === '--version' || arg === '-v') informational ??= { run: 'version' };
    // `--stdio` names the default, for hosts and harnesses that spell out the transport.
    else if (arg === '--stdio' || arg.startsWith('--http=')) continue;
    else if (arg === '--http') {
      const next = argv[index + 1];
      if (next !== undefined && !next.startsWith('-')) index += 1;
    } else return { run: 'unknown', argument: arg };
  }
  return informational ?? { run: 'serve' };
}

/** `--help`: what the bin is and how it is started, on stdout for a person to read. */
export function usageText(names: ServerNames, catalogueUrl: URL): string {
  const p = names.envPrefix;
  const bin = names.packageName;
  return [
    `${names.packageName} ${names.packageVersion}: the ${names.productName} tools as an MCP server.`,
    '',
    `An MCP host (Claude Desktop, Cursor, VS Code, …) starts it as a stdio server: command "npx", args ["-y", "${bin}"].`,
    'Started that way it speaks MCP on stdin/stdout and writes diagnostics to stderr.',
    '',
    'Usage:',
    `  npx ${bin} [--stdio]       serve MCP over stdio (what a host runs)`,
    `  npx ${bin} --http [port]   serve Streamable HTTP at /mcp instead (port 3000 by default, 0 for a free one)`,
    `  npx ${bin} --help          this text (-h)`,
    `  npx ${bin} --version       the version (-v)`,
    '',
    'Main environment variables (all optional):',
    `  ${p}API_KEY            API key; anonymous, under the free-tier rate limit, without it`,
    `  ${p}API_URL            API base (default ${names.defaultApiUrl})`,
    `  ${p}MCP_EXECUTION      remote (default), local or auto: whether tool source runs on this machine`,
    `  ${p}MCP_TOOLS          auto (default), all or meta: which tools tools/list shows`,
    `  ${p}MCP_ALLOW / _DENY  tool patterns (* and ?, category:…, tag:…) this server serves or refuses`,
    `  ${p}MCP_MAX_RISK       read, low, medium or high: refuse tools riskier than this (from their annotations)`,
    `  ${p}MCP_CONFIRM        declared (default), unless-safe or off: which meta-tool runs ask the user first`,
    `  ${p}MCP_HTTP_PORT      serve HTTP on this port without --http`,
    '',
    `Every variable, and the tools: ${fileURLToPath(new URL('../README.md', catalogueUrl))}`,
    '',
  ].join('\n');
}

/** How the bin was asked to serve: `--http [port]` or `<prefix>MCP_HTTP_PORT` mean HTTP, anything else stdio. */
export type ServeMode = { transport: 'stdio' } | { transport: 'http'; port: number } | { transport: 'invalid'; problem: string };

export function serveMode(argv: readonly string[], envPort: number | null, portVar: string): ServeMode {
  const index = argv.findIndex((arg) => arg === '--http' || arg.startsWith('--http='));
  if (index === -1) return envPort === null ? { transport: 'stdio' } : { transport: 'http', port: envPort };
  const flag = argv[index] ?? '--http';
  const inline = flag.startsWith('--http=') ? flag.slice('--http='.length) : undefined;
  const next = argv[index + 1];
  const raw = inline ?? (next !== undefined && !next.startsWith('-') ? next : undefined);
  if (raw === undefined) return { transport: 'http', port: envPort ?? DEFAULT_HTTP_PORT };
  const port = parsePort(raw);
  return port === null
    ? {
        transport: 'invalid',
        problem: `--http takes a port number (0-65535; 0 picks a free one), got ${JSON.stringify(raw)}; or set ${portVar}.`,
      }
    : { transport: 'http', port };
}

export async function main(options: MainOptions): Promise<void> {
  const { names } = options;
  const argv = options.argv ?? process.argv.slice(2);
  const command = readCommand(argv);
  // Answered before anything is loaded, and the only output ever written to stdout other than the protocol.
  if (command.run === 'help') return void process.stdout.write(usageText(names, options.catalogueUrl));
  if (command.run === 'version') return void process.stdout.write(`${names.packageVersion}\n`);
  if (command.run === 'unknown') {
    process.stderr.write(
      `${names.packageName}: unknown argument ${JSON.stringify(command.argument)}. ` +
        'It takes --stdio, --http [port], --help or --version; an MCP host starts it with no arguments.\n',
    );
    process.exitCode = 2;
    return;
  }

  const log = createStderrLog(names.serverName);
  keepStdoutForProtocol();

  let catalogue;
  try {
    catalogue = await loadServedCatalogue(options.catalogueUrl);
  } catch (error) {
    log(`Cannot start: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
    return;
  }

  const env = options.env ?? process.env;
  const http = readHttpSettings(names, env, log);
  const mode = serveMode(argv, http.port, http.vars.port);
  if (mode.transport === 'invalid') {
    log(`Cannot start: ${mode.problem}`);
    process.exitCode = 1;
    return;
  }

  // A failure inside one request must not take down a server the host depends on; it is logged and the process goes on.
  process.on('unhandledRejection', (reason) => log(`Unhandled rejection: ${describe(reason)}`));
  process.on('uncaughtException', (error) => log(`Uncaught exception: ${describe(error)}`));

  if (mode.transport === 'http') {
    await mainHttp({ names, catalogue, env, log, port: mode.port, http });
    return;
  }

  const created = createServer({ names, catalogue, env, log });

  let closing = false;
  const shutdown = (why: string): void => {
    if (closing) return;
    closing = true;
    log(`Shutting down (${why}).`);
    const forceExit = setTimeout(() => process.exit(0), 2000);
    forceExit.unref();
    created
      .close()
      .catch((error: unknown) => log(`Error while closing: ${describe(error)}`))
      .finally(() => process.exit(0));
  };
  const transport = new LineStdioTransport(process.stdin, process.stdout, log);
  // Requests already received are answered first (a host that will not wait sends SIGTERM, which ends it at once),
  // for as long as the longest batch of runs may take.
  let draining = false;
  const afterAnswering = (why: string): void => {
    if (closing || draining) return;
    draining = true;
    void transport.whenAnswered(Math.min(created.settings.timeoutMs * (MAX_BATCH_RUNS + 1), MAX_TIMEOUT_MS)).then((left) => {
      shutdown(left === 0 ? why : `${why}; ${left} request(s) left unanswered`);
    });
  };
  process.once('exit', () => created.killLocalRuns());
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.stdin.once('end', () => afterAnswering('stdin closed'));
  process.stdin.once('close', () => afterAnswering('stdin closed'));

  // The transport closes itself when stdout breaks; a server that can no longer answer has no reason to stay up.
  created.server.onclose = () => shutdown('stdout closed');
  created.server.onerror = (error) => log(`stdio: ${error.message}`);
  await created.server.connect(transport);
  const listing = created.listing();
  log(
    `${names.packageName} ${names.packageVersion} ready on stdio: ${listing.line}, ` +
      `${apiSummary(created.settings)}, execution ${created.settings.execution}, catalogue ${created.settings.catalogue}.`,
  );
  if (listing.warning !== null) log(listing.warning);
}

/** Serves stateless Streamable HTTP until SIGTERM/SIGINT, then lets in-flight requests finish and exits. */
async function mainHttp(options: ServeHttpOptions & { port: number; log: DiagnosticLog }): Promise<void> {
  const { names, log, port } = options;
  const exposure = options.http === undefined ? null : unauthenticatedExposure(options.http);
  if (exposure !== null) {
    log(`Cannot start: ${exposure}`);
    process.exitCode = 1;
    return;
  }
  // The HTTP transport (and the web framework under it) is loaded only when asked for: stdio start-up skips it.
  const { serveHttp } = await import('./http.js');
  let running;
  try {
    running = await serveHttp(options);
  } catch (error) {
    log(`Cannot start: cannot listen on port ${port}: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
    return;
  }
  const server = running;
  let closing = false;
  const shutdown = (why: string): void => {
    if (closing) return;
    closing = true;
    log(`Shutting down (${why}): finishing in-flight requests.`);
    server
      .close()
      .catch((error: unknown) => log(`Error while closing: ${describe(error)}`))
      .finally(() => process.exit(0));
  };
  process.once('exit', () => server.factory.killLocalRuns());
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));

  const settings = server.factory.settings;
  const listing = server.factory.listing();
  log(
    `${names.packageName} ${names.packageVersion} ready over stateless Streamable HTTP: ${listing.line}, ` +
      `${apiSummary(settings)}, execution ${settings.execution}, catalogue ${settings.catalogue}, ` +
      `bearer token ${server.http.tokens.length === 0 ? 'not required' : `required (${server.http.tokens.length} caller(s), history per caller)`}.`,
  );
  if (listing.warning !== null) log(listing.warning);
  log(`listening on ${server.url}`);
}

/** The API part of the ready line; the URL in settings never holds credentials, and an unusable one was reported already. */
export function apiSummary(settings: Pick<Settings, 'apiUrl' | 'apiKeyProblem' | 'vars'>): string {
  if (settings.apiUrl === null) return `API not configured (${settings.vars.apiUrl} is unusable; calls that need the API fail)`;
  if (settings.apiKeyProblem !== null) return `API not configured (${settings.vars.apiKey} is unusable; calls that need the API fail)`;
  return `API ${settings.apiUrl}`;
}

/** Longest stdin line read, the SDK stdio transport's own cap; a longer one is skipped and answered with an error. */
export const MAX_STDIO_LINE_BYTES = 10 * 1024 * 1024;
/** How much of an over-long line is kept to find its request id. */
const OVERSIZED_HEAD_BYTES = 256;

/**
 * MCP over stdio, one JSON-RPC message per line. The SDK's StdioServerTransport drops a line that is not a JSON-RPC
 * message without a word, so a host waits out its own timeout on that id, and on a line over its buffer cap it closes
 * itself, after which the process exits with 0 and nothing on stderr. This one answers such a line with -32700 Parse
 * error or -32600 Invalid Request (carrying the request's id when it can be read), logs why, and reads on.
 */
export class LineStdioTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Set while the rest of an over-long line is being skipped: its first bytes. */
  private oversizedHead: Buffer | null = null;
  private closed = false;
  /** Set while stdin is paused for stdout to drain (see holdInputUntilDrained). */
  private inputHeld = false;
  /** Requests handed to the server and not answered yet, by `typeof id:id`; see whenAnswered. */
  private readonly unanswered = new Set<string>();
  private answeredWaiters: (() => void)[] = [];

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly log: DiagnosticLog,
    private readonly maxLineBytes = MAX_STDIO_LINE_BYTES,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
    // Stays on after close: a write already queued can still fail, and an unhandled stream error would be thrown.
    this.output.on('error', this.onOutputError);
  }

  /**
   * Resolves when every request received so far has its answer on the way, or after `limitMs`: stdin's end is how a
   * host (or `printf … | bin`) says it sends nothing more, not that it wants no answers to what it sent.
   */
  whenAnswered(limitMs: number): Promise<number> {
    if (this.unanswered.size === 0) return Promise.resolve(0);
    const waiting = this.unanswered.size;
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(this.unanswered.size), limitMs);
      this.answeredWaiters.push(() => {
        clearTimeout(timer);
        resolve(0);
      });
      this.log(`Answering ${waiting} request(s) already received before shutting down.`);
    });
  }

  private settle(id: RequestId): void {
    this.unanswered.delete(`${typeof id}:${String(id)}`);
    if (this.unanswered.size > 0) return;
    const waiters = this.answeredWaiters;
    this.answeredWaiters = [];
    for (const waiter of waiters) waiter();
  }

  /** Resolves once the line is handed to the OS, so a slow reader holds back the sender instead of filling memory. */
  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.reject(new Error('The stdio transport is closed.'));
    if ('id' in message && !('method' in message) && message.id !== undefined) this.settle(message.id);
    return new Promise((resolve, reject) => {
      const roomLeft = this.output.write(`${JSON.stringify(message)}\n`, (error) => {
        if (!error) return resolve();
        // A destroyed stream reports only here, with no 'error' event.
        this.onOutputError(error);
        reject(error);
      });
      if (!roomLeft) this.holdInputUntilDrained();
    });
  }

  /**
   * Backpressure: while stdout's queue is full (a host that does not read its answers), stdin is not read either, so
   * requests wait in the OS pipe, not as answers in this process's memory. Reading resumes when stdout drains.
   */
  private holdInputUntilDrained(): void {
    if (this.inputHeld || this.closed) return;
    this.inputHeld = true;
    this.input.pause();
    this.output.once('drain', () => {
      this.inputHeld = false;
      if (!this.closed) this.input.resume();
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    this.input.pause();
    this.pending = [];
    this.onclose?.();
  }

  private readonly onInputError = (error: Error): void => this.onerror?.(error);

  /** stdout broke (EPIPE: the host stopped reading): nothing can be answered any more, so the session is over. */
  private readonly onOutputError = (error: Error): void => {
    if (this.closed) return;
    this.onerror?.(error);
    void this.close();
  };

  private readonly onData = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    for (let newline = bytes.indexOf(10); newline !== -1; newline = bytes.indexOf(10, start)) {
      this.take(bytes.subarray(start, newline));
      this.endLine();
      start = newline + 1;
    }
    this.take(bytes.subarray(start));
  };

  private take(part: Buffer): void {
    if (part.length === 0 || this.oversizedHead !== null) return;
    if (this.pendingBytes + part.length <= this.maxLineBytes) {
      this.pending.push(part);
      this.pendingBytes += part.length;
      return;
    }
    // Holding the whole line to reject it would be the memory hazard the cap is there to avoid.
    this.oversizedHead = Buffer.concat([...this.pending, part]).subarray(0, OVERSIZED_HEAD_BYTES);
    this.pending = [];
    this.pendingBytes = 0;
  }

  private endLine(): void {
    const oversizedHead = this.oversizedHead;
    const line = Buffer.concat(this.pending).toString('utf8').replace(/\r$/, '');
    this.pending = [];
    this.pendingBytes = 0;
    this.oversizedHead = null;
    if (oversizedHead !== null) {
      return this.reject(
        ErrorCode.InvalidRequest,
        `Invalid Request: a message longer than ${this.maxLineBytes} bytes was skipped; ` + 'send smaller inputs.',
        leadingRequestId(oversizedHead.toString('utf8')),
      );
    }
    if (line.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return this.reject(ErrorCode.ParseError, 'Parse error: a line on stdin is not JSON; send one JSON-RPC message per line.');
    }
    // Answered here: the SDK's parse below would drop the member, and the tool would run without it.
    const refused = protoArgumentAnswer(parsed);
    if (refused !== null) {
      this.log('Answered a tools/call with VALIDATION_ERROR: it has an argument named __proto__.');
      return void this.send(refused).catch((error: unknown) => this.onerror?.(error instanceof Error ? error : new Error(String(error))));
    }
    const message = JSONRPCMessageSchema.safeParse(parsed);
    if (message.success) {
      this.track(message.data);
      return this.onmessage?.(withoutTaskAugmentation(message.data));
    }
    if (Array.isArray(parsed)) {
      const ids = parsed.flatMap((item) => {
        const id = usableRequestId(item);
        return id === undefined ? [] : [id];
      });
      const why = 'Invalid Request: JSON-RPC batches are not supported (MCP 2025-06-18 dropped them); send one message per line.';
      if (ids.length === 0) return this.reject(ErrorCode.InvalidRequest, why);
      return ids.forEach((id) => this.reject(ErrorCode.InvalidRequest, why, id));
    }
    this.reject(ErrorCode.InvalidRequest, `Invalid Request: ${invalidMessageProblem(parsed)}.`, usableRequestId(parsed));
  }

  /** Notes a request as unanswered; a cancelled one is never answered (MCP), so its cancellation settles it. */
  private track(message: JSONRPCMessage): void {
    if (!('method' in message)) return;
    if ('id' in message) this.unanswered.add(`${typeof message.id}:${String(message.id)}`);
    else if (message.method === 'notifications/cancelled') {
      const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof id === 'string' || typeof id === 'number') this.settle(id);
    }
  }

  /** Answers a line that is not a message: with its id when it has a usable one, else with none (MCP allows that). */
  private reject(code: ErrorCode, message: string, id?: RequestId): void {
    this.log(`Answered a stdin line with ${code}: ${message}`);
    const response = { jsonrpc: '2.0' as const, ...(id === undefined ? {} : { id }), error: { code, message } };
    this.send(response as JSONRPCMessage).catch((error: unknown) =>
      this.onerror?.(error instanceof Error ? error : new Error(String(error))),
    );
  }
}

/** MCP ids are strings or integers, never null. */
const isRequestId = (id: unknown): id is RequestId => typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id));

/** An id the answer can carry. */
function usableRequestId(value: unknown): RequestId | undefined {
  if (value === null || typeof value !== 'object' || !('id' in value)) return undefined;
  const id = (value as { id: unknown }).id;
  return isRequestId(id) ? id : undefined;
}

/**
 * The id of a message from its first bytes, when it comes before anything large (as every SDK client writes it:
 * jsonrpc, id, method, then params); undefined when it cannot be told without reading the whole line.
 */
export function leadingRequestId(head: string): RequestId | undefined {
  const match = /^\s*\{\s*(?:"(?:jsonrpc|method)"\s*:\s*"[^"\\]*"\s*,\s*){0,2}"id"\s*:\s*(-?\d+|"[^"\\]*")\s*[,}]/.exec(head);
  if (match?.[1] === undefined) return undefined;
  const id: unknown = JSON.parse(match[1]);
  return isRequestId(id) ? id : undefined;
}

function invalidMessageProblem(value: unknown): string {
  if (value === null || typeof value !== 'object') return 'a JSON-RPC message is an object';
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== '2.0') return '"jsonrpc" must be "2.0"';
  if ('id' in message && usableRequestId(message) === undefined) return '"id" must be a string or an integer';
  if ('method' in message && typeof message.method !== 'string') return '"method" must be a string';
  return 'it is neither a request, a notification nor a response';
}

/** Anything printed with console.* in this process goes to stderr: stdout carries only MCP messages. */
function keepStdoutForProtocol(): void {
  const toStderr = (...args: unknown[]): void => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.warn = toStderr;
}

function describe(value: unknown): string {
  return value instanceof Error ? (value.stack ?? value.message) : String(value);
}
