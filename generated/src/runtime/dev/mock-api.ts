// A mock NexusBloom API on node:http that follows catalogue-api.md ("HTTP endpoints") and can inject the
// network faults a real client must survive. It runs each tool's published source in a node:vm context.
//
// Endpoints, all under `/api`:
//   GET  /api/tools?cursor=C        {"tools": [CatalogueEntry...], "next_cursor": "..." | null}
//   GET  /api/tools/{slug}          the manifest; {slug} is percent-decoded; 404 TOOL_NOT_FOUND when unknown
//   POST /api/tools/{slug}/run      {"params": {...}} -> {"success": true, "result": ..., "duration_ms": n}
// Control endpoint for manual use (never logged, never authenticated):
//   GET  /__mock/faults             the faults in force
//   POST /__mock/faults             replace them; body is a MockFaults object, `{}` clears every fault, e.g.
//     curl -X POST localhost:4010/__mock/faults -d '{"run":{"*":{"kind":"status","status":503,"times":1}}}'

import { Buffer } from 'node:buffer';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import {
  toolFailure,
  type DiagnosticLog,
  type ErrorCode,
  type JsonObject,
  type Manifest,
  type ServedCatalogueFile,
} from '../shared/contracts.js';
import { compilableSchema } from '../schema/validation.js';
import { messageOf, runToolSource, ToolSourceError } from './tool-source.js';
import { readRequestBody } from '../transport/request-body.js';
import { isJsonObject } from '../shared/json-values.js';
import { byCodeUnit } from '../shared/order.js';

/** How one endpoint misbehaves. `times` limits the fault to the next N matching requests; absent means always. */
export type MockFault = (
  | { kind: 'delay'; ms: number }
  | { kind: 'hang' }
  | { kind: 'status'; status: MockFaultStatus; retryAfter?: number }
  /** 200 whose body is an HTML error page although content-type says JSON. */
  | { kind: 'garbage' }
  /** 200 with valid JSON that is not the API's shape. */
  | { kind: 'wrong-shape' }
  /** 200 with the first half of the real JSON body (content-length matches the half, so HTTP itself is well-formed). */
  | { kind: 'truncated' }
  /** The socket is destroyed before any answer. */
  | { kind: 'reset' }
) & { times?: number };

export type MockFaultStatus = 500 | 502 | 503 | 429 | 401 | 403 | 404;

/** Faults by endpoint. `manifest` and `run` are keyed by exact slug, or `'*'` for every slug without its own. */
export interface MockFaults {
  list?: MockFault;
  manifest?: Record<string, MockFault>;
  run?: Record<string, MockFault>;
}

export type MockEndpoint = 'list' | 'manifest' | 'run' | 'unknown';

/** One request the mock received, in arrival order. */
export interface MockRequest {
  method: string;
  /** Path and query exactly as sent (still percent-encoded). */
  path: string;
  endpoint: MockEndpoint;
  /** The decoded slug, for the manifest and run endpoints. */
  slug?: string;
  /** The parsed JSON body, or the raw text when it is not JSON; absent when the body is empty. */
  body?: unknown;
  authorization?: string;
}

export interface MockApiOptions {
  manifests: Manifest[];
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** When set, `/api` requests need `authorization: Bearer <apiKey>` or get 401 AUTH_ERROR. */
  apiKey?: string;
  /** Entries per page of `GET /api/tools`; default 10. */
  pageSize?: number;
  faults?: MockFaults;
  /** Deadline for one tool run; default 5000 ms. Past it the run answers 504 UPSTREAM_ERROR. */
  runTimeoutMs?: number;
  /** Receives the tools' console output and request lines. Silent when absent. */
  log?: DiagnosticLog;
}

export interface MockApi {
  /** Base URL ending in `/api`, e.g. `http://127.0.0.1:4010/api`. */
  url: string;
  port: number;
  requests: MockRequest[];
  setFaults(faults: MockFaults): void;
  close(): Promise<void>;
}

/** Sent on every answer so a second mock on the same port can tell it is talking to one of us. */
export const MOCK_API_HEADER = 'x-nexusbloom-mock';

const BUNDLE_FORMAT = 'nexusbloom-catalogue/1';
const SERVED_CATALOGUE_FORMAT = 'nexusbloom-served-catalogue/1';
const MAX_BODY_BYTES = 1024 * 1024;
const FAULT_STATUSES: readonly number[] = [500, 502, 503, 429, 401, 403, 404];

interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

type ActiveFault = MockFault & { remaining: number };

export async function startMockApi(options: MockApiOptions): Promise<MockApi> {
  const host = options.host ?? '127.0.0.1';
  const pageSize = options.pageSize ?? 10;
  if (!Number.isInteger(pageSize) || pageSize < 1) throw new Error(`pageSize must be a positive integer, got ${pageSize}`);
  const runTimeoutMs = options.runTimeoutMs ?? 5000;
  const log = options.log;
  const manifestsBySlug = indexBySlug(options.manifests);
  const sortedSlugs = [...manifestsBySlug.keys()].sort(byCodeUnit);
  const validators = new InputValidators();
  const requests: MockRequest[] = [];
  const sockets = new Set<Socket>();
  const shutdown = new AbortController();
  let faults = activateFaults(parseMockFaults(options.faults ?? {}));

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log?.(`mock-api: internal error: ${messageOf(error)}`);
      if (!res.headersSent && !res.destroyed) send(res, errorReply(500, 'UPSTREAM_ERROR', `Mock API internal error: ${messageOf(error)}`));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const rawUrl = req.url ?? '/';
    const rawPath = rawUrl.split('?', 1)[0] ?? '/';
    const method = req.method ?? 'GET';
    const bodyText = await readRequestBody(req, MAX_BODY_BYTES);
    if (bodyText === null) {
      send(res, errorReply(413, 'VALIDATION_ERROR', `Request body is larger than ${MAX_BODY_BYTES} bytes`));
      return;
    }

    if (rawPath === '/__mock/faults') {
      send(res, handleFaultControl(method, bodyText));
      return;
    }

    const route = routeOf(method, rawPath);
    const request: MockRequest = { method, path: rawUrl, endpoint: route.endpoint };
    if (route.slug !== undefined) request.slug = route.slug;
    if (bodyText.length > 0) request.body = parseJsonOr(bodyText, bodyText);
    if (req.headers.authorization !== undefined) request.authorization = req.headers.authorization;
    requests.push(request);
    log?.(`mock-api: ${method} ${rawUrl}`);

    const fault = takeFault(route.endpoint, route.slug);
    if (fault?.kind === 'reset') {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'hang') return; // The socket stays open until the client gives up or close() runs.
    if (fault?.kind === 'delay') {
      try {
        await sleep(fault.ms, undefined, { signal: shutdown.signal });
      } catch {
        return; // close() ran during the delay.
      }
    }
    if (fault?.kind === 'status') {
      const reply = errorReply(fault.status, codeForStatus(fault.status), `Injected fault: HTTP ${fault.status}`);
      if (fault.retryAfter !== undefined) reply.headers = { 'retry-after': String(fault.retryAfter) };
      send(res, reply);
      return;
    }
    if (fault?.kind === 'garbage') {
      sendRaw(res, 200, '<!doctype html><html><body><h1>502 Bad Gateway</h1>nginx</body></html>\n');
      return;
    }
    if (fault?.kind === 'wrong-shape') {
      send(res, { status: 200, body: { ok: true, data: [{ id: 1 }], message: 'This is JSON, but not the NexusBloom API shape' } });
      return;
    }

    const reply = await answer(route, req, bodyText);
    if (fault?.kind === 'truncated') {
      const full = JSON.stringify(reply.body);
      sendRaw(res, 200, full.slice(0, Math.floor(full.length / 2)));
      return;
    }
    send(res, reply);
  }

  async function answer(route: Route, req: http.IncomingMessage, bodyText: string): Promise<Reply> {
    if (options.apiKey !== undefined && route.endpoint !== 'unknown') {
      const authorization = req.headers.authorization;
      if (authorization === undefined) return errorReply(401, 'AUTH_ERROR', 'Missing API key: send "authorization: Bearer <key>"');
      if (authorization !== `Bearer ${options.apiKey}`) return errorReply(401, 'AUTH_ERROR', 'Invalid API key');
    }
    switch (route.endpoint) {
      case 'list':
        return listPage(new URLSearchParams((req.url ?? '').split('?')[1] ?? '').get('cursor'));
      case 'manifest':
        return manifestReply(route.slug);
      case 'run':
        return runReply(route.slug, bodyText);
      case 'unknown':
        return route.error;
    }
  }

  function listPage(cursor: string | null): Reply {
    const offset = cursor === null || cursor === '' ? 0 : decodeCursor(cursor);
    if (offset === null || offset > sortedSlugs.length)
      return errorReply(400, 'VALIDATION_ERROR', `Invalid cursor ${JSON.stringify(cursor)}`);
    const pageSlugs = sortedSlugs.slice(offset, offset + pageSize);
    const nextOffset = offset + pageSlugs.length;
    const tools = pageSlugs.map((slug) => catalogueEntry(manifestsBySlug.get(slug)!));
    return { status: 200, body: { tools, next_cursor: nextOffset < sortedSlugs.length ? encodeCursor(nextOffset) : null } };
  }

  function manifestReply(slug: string): Reply {
    const manifest = manifestsBySlug.get(slug);
    return manifest ? { status: 200, body: manifest } : notFound(slug);
  }

  async function runReply(slug: string, bodyText: string): Promise<Reply> {
    const manifest = manifestsBySlug.get(slug);
    if (!manifest) return notFound(slug);
    const body = parseJsonOr(bodyText, undefined);
    if (!isJsonObject(body)) return errorReply(400, 'VALIDATION_ERROR', 'The request body must be a JSON object: {"params": {...}}');
    const params = body.params ?? {};
    if (!isJsonObject(params)) return errorReply(400, 'VALIDATION_ERROR', '"params" must be a JSON object');

    if (manifest.input_schema !== null && manifest.input_schema !== undefined) {
      let validate: ValidateFunction;
      try {
        validate = validators.forTool(manifest.slug, manifest.input_schema);
      } catch (error) {
        return errorReply(500, 'UPSTREAM_ERROR', `The input schema of "${slug}" does not compile: ${messageOf(error)}`);
      }
      if (!validate(params)) {
        const first = validate.errors?.[0];
        const where = first && first.instancePath !== '' ? `params${first.instancePath}` : 'params';
        return errorReply(400, 'VALIDATION_ERROR', `Invalid params for "${slug}": ${where} ${first?.message ?? 'is invalid'}`);
      }
    }
    if (!manifest.source) return errorReply(501, 'UPSTREAM_ERROR', `The mock API cannot run "${slug}": its manifest has no source`);

    const startedAt = performance.now();
    try {
      const result = await runToolSource(manifest.source.code, params, {
        timeoutMs: runTimeoutMs,
        filename: `nexusbloom-tool:${slug}.js`,
        ...(log ? { log } : {}),
      });
      return { status: 200, body: { success: true, result, duration_ms: Math.round((performance.now() - startedAt) * 100) / 100 } };
    } catch (error) {
      if (error instanceof ToolSourceError && error.kind === 'timeout') return errorReply(504, 'UPSTREAM_ERROR', error.message);
      return errorReply(500, 'UPSTREAM_ERROR', messageOf(error));
    }
  }

  function handleFaultControl(method: string, bodyText: string): Reply {
    if (method === 'GET') return { status: 200, body: describeFaults(faults) };
    if (method !== 'POST') return errorReply(405, 'VALIDATION_ERROR', 'Use GET or POST on /__mock/faults');
    try {
      faults = activateFaults(parseMockFaults(parseJsonOr(bodyText === '' ? '{}' : bodyText, undefined)));
    } catch (error) {
      return errorReply(400, 'VALIDATION_ERROR', messageOf(error));
    }
    return { status: 200, body: describeFaults(faults) };
  }

  function takeFault(endpoint: MockEndpoint, slug: string | undefined): ActiveFault | undefined {
    let fault: ActiveFault | undefined;
    if (endpoint === 'list') fault = faults.list;
    else if ((endpoint === 'manifest' || endpoint === 'run') && slug !== undefined) {
      const bySlug = faults[endpoint];
      fault = bySlug.get(slug) ?? bySlug.get('*');
    }
    if (!fault || fault.remaining <= 0) return undefined;
    fault.remaining -= 1;
    return fault;
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  return {
    url: `http://${urlHost}:${port}/api`,
    port,
    requests,
    setFaults(next: MockFaults): void {
      faults = activateFaults(parseMockFaults(next));
    },
    close(): Promise<void> {
      shutdown.abort();
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Hung requests would otherwise keep close() waiting forever.
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}

/** The manifests of a bundle file (`{"format": "nexusbloom-catalogue/1", "tools": [...]}`). Throws on a bad bundle. */
export function manifestsFromBundle(json: unknown): Manifest[] {
  if (!isJsonObject(json) || json.format !== BUNDLE_FORMAT) {
    throw new Error(`Not a NexusBloom catalogue bundle: expected "format": "${BUNDLE_FORMAT}"`);
  }
  if (!Array.isArray(json.tools)) throw new Error('Not a NexusBloom catalogue bundle: "tools" must be an array');
  const manifests = json.tools.map((tool: unknown, index: number) => checkedManifest(tool, `/tools/${index}`));
  indexBySlug(manifests);
  return manifests;
}

/** The manifests a generated package ships in `data/catalogue.json`. */
export function manifestsFromServedCatalogue(file: ServedCatalogueFile): Manifest[] {
  if (!isJsonObject(file) || file.format !== SERVED_CATALOGUE_FORMAT || !Array.isArray(file.tools)) {
    throw new Error(`Not a served catalogue file: expected "format": "${SERVED_CATALOGUE_FORMAT}" and a "tools" array`);
  }
  const manifests = file.tools.map((tool, index) =>
    checkedManifest(isJsonObject(tool) ? tool.manifest : undefined, `/tools/${index}/manifest`),
  );
  indexBySlug(manifests);
  return manifests;
}

/** Checks the shape of a MockFaults value (from JSON or code) and returns a copy. Throws naming the bad field. */
export function parseMockFaults(json: unknown): MockFaults {
  if (!isJsonObject(json)) throw new Error('Faults must be a JSON object like {"run": {"*": {"kind": "hang"}}}');
  const parsed: MockFaults = {};
  for (const key of Object.keys(json)) {
    if (key !== 'list' && key !== 'manifest' && key !== 'run')
      throw new Error(`Unknown fault endpoint "${key}": use list, manifest or run`);
  }
  if (json.list !== undefined) parsed.list = parseFault(json.list, 'list');
  for (const endpoint of ['manifest', 'run'] as const) {
    const bySlug = json[endpoint];
    if (bySlug === undefined) continue;
    if (!isJsonObject(bySlug)) throw new Error(`"${endpoint}" must map a slug (or "*") to a fault`);
    const copy: Record<string, MockFault> = {};
    for (const [slug, fault] of Object.entries(bySlug)) copy[slug] = parseFault(fault, `${endpoint}.${slug}`);
    parsed[endpoint] = copy;
  }
  return parsed;
}

function parseFault(json: unknown, where: string): MockFault {
  if (!isJsonObject(json)) throw new Error(`Fault ${where} must be an object with a "kind"`);
  const times = json.times;
  if (times !== undefined && !(Number.isInteger(times) && (times as number) >= 0))
    throw new Error(`Fault ${where}: "times" must be a non-negative integer`);
  const withTimes = <T extends object>(fault: T): T & { times?: number } =>
    times === undefined ? fault : { ...fault, times: times as number };
  switch (json.kind) {
    case 'delay':
      if (typeof json.ms !== 'number' || !(json.ms >= 0)) throw new Error(`Fault ${where}: "delay" needs "ms" >= 0`);
      return withTimes({ kind: 'delay', ms: json.ms });
    case 'status': {
      const status = json.status;
      if (typeof status !== 'number' || !FAULT_STATUSES.includes(status))
        throw new Error(`Fault ${where}: "status" must be one of ${FAULT_STATUSES.join(', ')}`);
      const retryAfter = json.retryAfter;
      if (retryAfter !== undefined && !(typeof retryAfter === 'number' && retryAfter >= 0))
        throw new Error(`Fault ${where}: "retryAfter" must be seconds >= 0`);
      return withTimes({ kind: 'status', status: status as MockFaultStatus, ...(retryAfter === undefined ? {} : { retryAfter }) });
    }
    case 'hang':
    case 'garbage':
    case 'wrong-shape':
    case 'truncated':
    case 'reset':
      return withTimes({ kind: json.kind });
    default:
      throw new Error(
        `Fault ${where}: unknown kind ${JSON.stringify(json.kind)}; use delay, hang, status, garbage, wrong-shape, truncated or reset`,
      );
  }
}

interface ActiveFaults {
  list: ActiveFault | undefined;
  manifest: Map<string, ActiveFault>;
  run: Map<string, ActiveFault>;
}

function activateFaults(faults: MockFaults): ActiveFaults {
  const activate = (fault: MockFault): ActiveFault => ({ ...fault, remaining: fault.times ?? Number.POSITIVE_INFINITY });
  return {
    list: faults.list ? activate(faults.list) : undefined,
    manifest: new Map(Object.entries(faults.manifest ?? {}).map(([slug, fault]) => [slug, activate(fault)])),
    run: new Map(Object.entries(faults.run ?? {}).map(([slug, fault]) => [slug, activate(fault)])),
  };
}

/** The faults still in force, with `times` showing how many uses are left. */
function describeFaults(faults: ActiveFaults): MockFaults {
  const live = (fault: ActiveFault): MockFault | undefined => {
    if (fault.remaining <= 0) return undefined;
    const { remaining, times: _times, ...rest } = fault;
    return (Number.isFinite(remaining) ? { ...rest, times: remaining } : rest) as MockFault;
  };
  const described: MockFaults = {};
  const list = faults.list && live(faults.list);
  if (list) described.list = list;
  for (const endpoint of ['manifest', 'run'] as const) {
    const entries = [...faults[endpoint]].flatMap(([slug, fault]) => {
      const current = live(fault);
      return current ? [[slug, current] as const] : [];
    });
    if (entries.length > 0) described[endpoint] = Object.fromEntries(entries);
  }
  return described;
}

type Route =
  | { endpoint: 'list'; slug?: undefined }
  | { endpoint: 'manifest' | 'run'; slug: string }
  | { endpoint: 'unknown'; slug?: undefined; error: Reply };

function routeOf(method: string, rawPath: string): Route {
  const unknown = (status: number, code: ErrorCode, message: string): Route => ({
    endpoint: 'unknown',
    error: errorReply(status, code, message),
  });
  if (!rawPath.startsWith('/api/')) return unknown(404, 'TOOL_NOT_FOUND', `No such endpoint: ${rawPath} (the API lives under /api)`);
  // Split before decoding: a slug may contain an encoded "/".
  const segments = rawPath.slice('/api/'.length).split('/');
  if (segments[0] !== 'tools' || segments.length > 3) return unknown(404, 'TOOL_NOT_FOUND', `No such endpoint: ${rawPath}`);
  if (segments.length === 1 || (segments.length === 2 && segments[1] === '')) {
    return method === 'GET' ? { endpoint: 'list' } : unknown(405, 'VALIDATION_ERROR', `Use GET on ${rawPath}`);
  }
  let slug: string;
  try {
    slug = decodeURIComponent(segments[1]!);
  } catch {
    return unknown(400, 'VALIDATION_ERROR', `The slug in ${rawPath} is not valid percent-encoding`);
  }
  if (segments.length === 2) {
    return method === 'GET' ? { endpoint: 'manifest', slug } : unknown(405, 'VALIDATION_ERROR', `Use GET on ${rawPath}`);
  }
  if (segments[2] !== 'run') return unknown(404, 'TOOL_NOT_FOUND', `No such endpoint: ${rawPath}`);
  return method === 'POST' ? { endpoint: 'run', slug } : unknown(405, 'VALIDATION_ERROR', `Use POST on ${rawPath}`);
}

/** Compiles input schemas once per tool, with draft-07 or 2020-12 semantics as `$schema` says. */
class InputValidators {
  private readonly compiled = new Map<string, ValidateFunction>();
  private draft07: Ajv | undefined;
  private draft2020: Ajv2020 | undefined;

  forTool(slug: string, schema: JsonObject): ValidateFunction {
    let validate = this.compiled.get(slug);
    if (!validate) {
      validate = this.ajvFor(schema).compile(compilableSchema(schema));
      this.compiled.set(slug, validate);
    }
    return validate;
  }

  private ajvFor(schema: JsonObject): Ajv | Ajv2020 {
    // Schemas are compiled without their root `$id` (compilableSchema), so tools that share one do not collide.
    const ajvOptions = { strict: false, allErrors: false, ownProperties: true } as const;
    if (typeof schema.$schema === 'string' && /json-schema\.org\/draft-0[67]\/schema/.test(schema.$schema)) {
      this.draft07 ??= withFormats(new Ajv(ajvOptions));
      return this.draft07;
    }
    this.draft2020 ??= withFormats(new Ajv2020(ajvOptions));
    return this.draft2020;
  }
}

function withFormats<T extends Ajv | Ajv2020>(ajv: T): T {
  addFormats.default(ajv);
  return ajv;
}

function catalogueEntry(manifest: Manifest): JsonObject {
  return {
    slug: manifest.slug,
    name: manifest.name,
    description: manifest.description,
    category: manifest.category,
    tags: manifest.tags,
    version: manifest.version,
    has_schema: manifest.input_schema !== null && manifest.input_schema !== undefined,
    has_source: manifest.source !== null && manifest.source !== undefined,
  };
}

function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ offset }), 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): number | null {
  const decoded = parseJsonOr(Buffer.from(cursor, 'base64url').toString('utf8'), undefined);
  const offset = isJsonObject(decoded) ? decoded.offset : undefined;
  return typeof offset === 'number' && Number.isInteger(offset) && offset >= 0 ? offset : null;
}

function indexBySlug(manifests: Manifest[]): Map<string, Manifest> {
  const bySlug = new Map<string, Manifest>();
  for (const manifest of manifests) {
    if (bySlug.has(manifest.slug)) throw new Error(`Duplicate slug ${JSON.stringify(manifest.slug)} in the catalogue`);
    bySlug.set(manifest.slug, manifest);
  }
  return bySlug;
}

function checkedManifest(tool: unknown, pointer: string): Manifest {
  if (!isJsonObject(tool)) throw new Error(`${pointer}: a manifest must be an object`);
  if (typeof tool.slug !== 'string' || tool.slug === '') throw new Error(`${pointer}/slug: must be a non-empty string`);
  for (const field of ['name', 'description', 'category', 'version'] as const) {
    if (typeof tool[field] !== 'string') throw new Error(`${pointer}/${field} (tool "${tool.slug}"): must be a string`);
  }
  if (!Array.isArray(tool.tags)) throw new Error(`${pointer}/tags (tool "${tool.slug}"): must be an array`);
  if (tool.input_schema !== null && !isJsonObject(tool.input_schema)) {
    throw new Error(`${pointer}/input_schema (tool "${tool.slug}"): must be an object or null`);
  }
  return tool as Manifest;
}

function codeForStatus(status: number): ErrorCode {
  if (status === 401 || status === 403) return 'AUTH_ERROR';
  if (status === 404) return 'TOOL_NOT_FOUND';
  if (status === 429) return 'RATE_LIMITED';
  if (status >= 500) return 'UPSTREAM_ERROR';
  return 'VALIDATION_ERROR';
}

function errorReply(status: number, code: ErrorCode, message: string): Reply {
  return { status, body: toolFailure(code, message) };
}

function notFound(slug: string): Reply {
  return errorReply(404, 'TOOL_NOT_FOUND', `No tool named ${JSON.stringify(slug)} is published`);
}

function send(res: http.ServerResponse, reply: Reply): void {
  sendRaw(res, reply.status, JSON.stringify(reply.body), reply.headers);
}

function sendRaw(res: http.ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  if (res.destroyed) return;
  const body = Buffer.from(text, 'utf8');
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(body.length),
    [MOCK_API_HEADER]: '1',
    ...headers,
  });
  res.end(body);
}

function parseJsonOr<T>(text: string, fallback: T): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return fallback;
  }
}
