// Serves the MCP server statelessly over Streamable HTTP at /mcp (one fresh Server per request), with /healthz.

import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { DiagnosticLog, EnvironmentVariables, ServedCatalogueFile, ServerNames } from '../shared/contracts.js';
import { createStderrLog, readHttpSettings, type HttpSettings } from '../settings/config.js';
import { createServerFactory, withoutTaskAugmentation, type ServerFactory } from './server.js';
import { readRequestBody } from './request-body.js';
import { MODERN_METHODS } from '../protocol/eras.js';
import { isModernHttpRequest, modernHttpRefusal } from '../protocol/http-envelope.js';
import { answerAsCaller, callerIdForToken } from '../callers/caller-history.js';
import { unauthenticatedExposure } from '../callers/exposure.js';
import { refusedBeforeServing } from '../protocol/refused-bodies.js';

export const MCP_PATH = '/mcp';
export const HEALTH_PATH = '/healthz';
/** Largest JSON-RPC request body read; tool inputs are small, and an unbounded read is a memory hazard. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** How long in-flight requests get to finish on shutdown before their connections are cut. */
export const SHUTDOWN_GRACE_MS = 10_000;

export interface ServeHttpOptions {
  names: ServerNames;
  catalogue: ServedCatalogueFile;
  /** Where settings are read from; process.env by default. */
  env?: EnvironmentVariables;
  /** Diagnostics sink; stderr by default. */
  log?: DiagnosticLog;
  /** Overrides `<prefix>MCP_HTTP_PORT` (the bin's `--http PORT`); 0 picks a free port. */
  port?: number;
  /** Already read HTTP settings; read from `env` when absent. */
  http?: HttpSettings;
}

export interface HttpMcpServer {
  /** The MCP endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  url: string;
  port: number;
  http: HttpSettings;
  factory: ServerFactory;
  /** Stops accepting requests, lets in-flight ones finish (up to SHUTDOWN_GRACE_MS) and kills local runs. */
  close(): Promise<void>;
}

/** Starts listening; resolves once the port is bound. */
export async function serveHttp(options: ServeHttpOptions): Promise<HttpMcpServer> {
  const { names, catalogue } = options;
  const env = options.env ?? process.env;
  const log = options.log ?? createStderrLog(names.serverName);
  const http = options.http ?? readHttpSettings(names, env, log);
  const exposure = unauthenticatedExposure(http);
  if (exposure !== null) throw new Error(exposure);
  const factory = createServerFactory({ names, catalogue, env, log, servedOver: 'http', privateResults: http.tokens.length > 0 });
  // Each accepted token is a caller of its own (see callers/caller-history.ts); without tokens every caller is anonymous.
  const callers = http.tokens.map((token) => ({ authorization: digest(`Bearer ${token}`), caller: callerIdForToken(token) }));
  let closing = false;
  let port = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://placeholder').pathname;
    if (closing) {
      res.setHeader('connection', 'close');
      return sendJson(res, 503, { status: 'shutting down' });
    }
    // The health check answers any Host: a load balancer probes by address, and the answer holds nothing to steal.
    if (path === HEALTH_PATH && (req.method === 'GET' || req.method === 'HEAD')) {
      return sendJson(res, 200, { status: 'ok', name: names.serverName, version: names.packageVersion });
    }
    if (path !== MCP_PATH) return sendJson(res, 404, { error: `Not found; the MCP endpoint is ${MCP_PATH}.` });

    const rejection = rejectedOrigin(req, allowedHosts(http, port));
    if (rejection !== null) {
      log(`Refused ${req.method ?? '?'} ${MCP_PATH}: ${rejection}.`);
      return sendRpcError(res, 403, rejection);
    }
    const caller = callerOf(req.headers.authorization, callers);
    if (callers.length > 0 && caller === null) {
      res.setHeader('www-authenticate', 'Bearer');
      return sendRpcError(res, 401, `Missing or wrong bearer token (${http.vars.token} is set on the server).`);
    }
    // Stateless: no session, so no standalone SSE stream to GET and no session to DELETE.
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      return sendRpcError(res, 405, 'Method not allowed: this server is stateless; send JSON-RPC requests with POST.');
    }

    const body = await readRequestBody(req, MAX_BODY_BYTES);
    if (body === null) {
      res.setHeader('connection', 'close');
      return sendRpcError(res, 413, `Request body larger than ${MAX_BODY_BYTES} bytes.`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return sendRpcError(res, 400, 'Parse error: the request body is not JSON.', -32700);
    }
    const refused = refusedBeforeServing(parsed);
    if (refused !== null) {
      log(`Refused ${MCP_PATH} POST: ${refused.why}`);
      return sendJson(res, refused.status, refused.body);
    }
    if (isModernHttpRequest(parsed)) {
      const refusal = modernHttpRefusal(req.headers, parsed, MODERN_METHODS);
      if (refusal !== null) {
        const id = typeof parsed.id === 'string' || typeof parsed.id === 'number' ? parsed.id : null;
        const error = { code: refusal.code, message: refusal.message, ...(refusal.data === undefined ? {} : { data: refusal.data }) };
        return sendJson(res, refusal.status, { jsonrpc: '2.0', id, error });
      }
      // The SDK's transport checks this header against the 2025-era revisions it knows. A 2026-07-28 POST is framed
      // the same way (one request, answered with JSON or an SSE stream), so it is told the newest revision it knows.
      setHeader(req, 'mcp-protocol-version', LATEST_PROTOCOL_VERSION);
    }

    const server = factory.newServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      transport.close().catch(() => undefined);
      server.close().catch(() => undefined);
    });
    await server.connect(transport);
    await answerAsCaller(caller, () => transport.handleRequest(req, res, withoutTaskAugmentations(parsed)));
  };

  const httpServer = createHttpServer((req, res) => {
    // While shutting down, a keep-alive connection is dropped as soon as its last response is out.
    res.on('close', () => {
      if (closing) setImmediate(() => httpServer.closeIdleConnections());
    });
    handle(req, res).catch((error: unknown) => {
      log(`HTTP ${req.method ?? '?'} ${req.url ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) sendRpcError(res, 500, 'Internal server error.', -32603);
      else res.end();
    });
  });

  const requestedPort = options.port ?? http.port ?? 0;
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(requestedPort, http.host, () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  port = (httpServer.address() as AddressInfo).port;
  const hostInUrl = http.host.includes(':') ? `[${http.host}]` : http.host;

  return {
    url: `http://${hostInUrl}:${port}${MCP_PATH}`,
    port,
    http,
    factory,
    close: async () => {
      if (closing) return;
      closing = true;
      const closed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      httpServer.closeIdleConnections();
      const grace = setTimeout(() => httpServer.closeAllConnections(), SHUTDOWN_GRACE_MS);
      grace.unref();
      await closed;
      clearTimeout(grace);
      factory.killLocalRuns();
    },
  };
}

/** Host header values accepted on /mcp: loopback names with the bound port, plus the configured extra hosts. */
export function allowedHosts(http: Pick<HttpSettings, 'allowedHosts'>, port: number): string[] {
  return [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, ...http.allowedHosts];
}

/**
 * DNS-rebinding protection: a page on another site must not reach this server through a name that resolves to it.
 * Returns why the request is refused, or null. A configured host without a port matches any port.
 */
export function rejectedOrigin(req: Pick<IncomingMessage, 'headers'>, allowed: readonly string[]): string | null {
  const host = req.headers.host?.toLowerCase();
  if (host === undefined || !hostAllowed(host, allowed)) return `Host ${JSON.stringify(host ?? '')} is not allowed`;
  const origin = req.headers.origin;
  if (origin === undefined) return null;
  let originHost: string;
  try {
    originHost = new URL(origin).host.toLowerCase();
  } catch {
    return `Origin ${JSON.stringify(origin)} is not allowed`;
  }
  return hostAllowed(originHost, allowed) ? null : `Origin ${JSON.stringify(origin)} is not allowed`;
}

function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const hostname = host.replace(/:\d+$/, '');
  return allowed.some((entry) => entry === host || (!/:\d+$/.test(entry) && entry === hostname));
}

/** The body with task augmentation dropped from each request in it (see withoutTaskAugmentation); anything else as is. */
function withoutTaskAugmentations(body: unknown): unknown {
  const strip = (item: unknown): unknown => (isRequestObject(item) ? withoutTaskAugmentation(item) : item);
  return Array.isArray(body) ? body.map(strip) : strip(body);
}

/** Shaped enough like a request for withoutTaskAugmentation; the SDK transport validates it in full afterwards. */
function isRequestObject(value: unknown): value is JSONRPCMessage {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    'method' in value &&
    'id' in value &&
    typeof (value as { params?: unknown }).params === 'object' &&
    (value as { params?: unknown }).params !== null
  );
}

/** Replaces a request header in both forms Node keeps (the SDK's transport reads the raw one). */
function setHeader(req: IncomingMessage, name: string, value: string): void {
  req.headers[name] = value;
  for (let index = 0; index < req.rawHeaders.length; index += 2) {
    if (req.rawHeaders[index]?.toLowerCase() === name) req.rawHeaders[index + 1] = value;
  }
}

/** The caller whose token the Authorization header carries, or null; every token is compared, in constant time. */
function callerOf(authorization: string | undefined, callers: readonly { authorization: Buffer; caller: string }[]): string | null {
  const presented = digest(authorization ?? '');
  let found: string | null = null;
  for (const entry of callers) if (sameDigest(presented, entry.authorization)) found = entry.caller;
  return found;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Compares in constant time so the token cannot be guessed byte by byte from response timing. */
function sameDigest(a: Buffer, b: Buffer): boolean {
  return timingSafeEqual(a, b);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function sendRpcError(res: ServerResponse, status: number, message: string, code = -32000): void {
  sendJson(res, status, { jsonrpc: '2.0', error: { code, message }, id: null });
}
