// The two protocol eras one server answers, chosen per request: MCP 2026-07-28 ("modern": no initialize, each request
// carries its version and client capabilities in `_meta`, every result carries `resultType`) and the 2025-era
// revisions a client negotiates with `initialize` ("legacy"). The handlers are the same for both; this module holds
// what differs between the eras: reading a request's envelope and dressing a result for it.

import { ProtocolError } from '../shared/contracts.js';
import { isJsonObject } from '../shared/json-values.js';

/** Revisions served without a handshake, newest first. */
export const MODERN_PROTOCOL_VERSIONS: readonly string[] = ['2026-07-28'];
/**
 * Revisions served after `initialize`, newest first: exactly the pinned MCP SDK's SUPPORTED_PROTOCOL_VERSIONS (a test
 * holds the two equal), spelled here because the meta-tool's text quotes them and the generator, which measures that
 * text, would otherwise load the SDK's whole schema module (a tenth of a second) to read five strings.
 */
export const LEGACY_PROTOCOL_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'];
/** Every revision this server answers, newest first: what `server/discover` and -32022 errors list. */
export const SERVED_PROTOCOL_VERSIONS: readonly string[] = [...MODERN_PROTOCOL_VERSIONS, ...LEGACY_PROTOCOL_VERSIONS];

/** The reserved `_meta` keys of MCP 2026-07-28. */
export const META_KEYS = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

/** JSON-RPC error codes the 2026-07-28 revision allocates (-32020 to -32099 are the specification's). */
export const MODERN_ERROR_CODES = {
  headerMismatch: -32020,
  missingRequiredClientCapability: -32021,
  unsupportedProtocolVersion: -32022,
} as const;

/**
 * Methods the 2026-07-28 revision removed that this server still answers for 2025 sessions: a modern request for one
 * is answered -32601 with what replaced it. (`initialize` stays the SDK's, and selects the 2025 era, as the revision
 * allows a dual-era server; the resource subscription methods were never served.)
 */
export const REMOVED_IN_MODERN: Readonly<Record<string, string>> = {
  ping: 'revision 2026-07-28 removed ping: any request (server/discover is the cheapest) shows the server is alive',
  'logging/setLevel':
    'revision 2026-07-28 removed logging/setLevel: send io.modelcontextprotocol/logLevel in the _meta of each request that wants log notifications',
};

/** Methods a 2026-07-28 request may name on this server. */
export const MODERN_METHODS: ReadonlySet<string> = new Set([
  'server/discover',
  'subscriptions/listen',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
  'completion/complete',
]);

/** Results of these methods carry the 2026-07-28 caching hints (`ttlMs`, `cacheScope`). */
const CACHEABLE_METHODS = new Set([
  'server/discover',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);

/** What a modern request says about itself in `_meta`. */
export interface ModernEnvelope {
  protocolVersion: string;
  clientCapabilities: Record<string, unknown>;
  /** The level the request asked log notifications at; without it the server sends none for this request. */
  logLevel: string | null;
}

/**
 * The modern envelope of a request's params, or null for a legacy request (no protocol version in `_meta`). The
 * version is checked here: an unserved one is the -32022 error the revision prescribes, listing what is served.
 */
export function modernEnvelope(params: unknown): ModernEnvelope | null {
  const meta = metaOf(params);
  if (meta === undefined || !(META_KEYS.protocolVersion in meta)) return null;
  const version = meta[META_KEYS.protocolVersion];
  if (typeof version !== 'string' || !MODERN_PROTOCOL_VERSIONS.includes(version)) {
    throw new ProtocolError(MODERN_ERROR_CODES.unsupportedProtocolVersion, 'Unsupported protocol version', {
      supported: [...SERVED_PROTOCOL_VERSIONS],
      requested: typeof version === 'string' ? version : JSON.stringify(version),
    });
  }
  const capabilities = meta[META_KEYS.clientCapabilities];
  const logLevel = meta[META_KEYS.logLevel];
  return {
    protocolVersion: version,
    clientCapabilities: isJsonObject(capabilities) ? capabilities : {},
    logLevel: typeof logLevel === 'string' ? logLevel : null,
  };
}

/** The protocol version a request names in `_meta`, whatever it is; undefined when it names none. */
export function requestedProtocolVersion(params: unknown): unknown {
  const meta = metaOf(params);
  return meta === undefined ? undefined : meta[META_KEYS.protocolVersion];
}

export interface ResultDressing {
  serverInfo: { name: string; title?: string; version: string };
  /** Freshness hint for cacheable results. */
  ttlMs: number;
  /** Whether shared intermediaries may keep a cacheable result. */
  cacheScope: 'public' | 'private';
}

/**
 * A handler's result as revision 2026-07-28 sends it: `resultType` (an interim `input_required` result keeps its own),
 * the server's identity in `_meta`, and the caching hints on the results the revision makes cacheable.
 */
export function modernResult(method: string, result: Record<string, unknown>, dressing: ResultDressing): Record<string, unknown> {
  const meta = isJsonObject(result._meta) ? result._meta : {};
  return {
    ...result,
    resultType: typeof result.resultType === 'string' ? result.resultType : 'complete',
    ...(CACHEABLE_METHODS.has(method) && result.resultType !== 'input_required'
      ? { ttlMs: dressing.ttlMs, cacheScope: dressing.cacheScope }
      : {}),
    _meta: { ...meta, [META_KEYS.serverInfo]: dressing.serverInfo },
  };
}

/** The answer to `server/discover`: the served revisions, capabilities and identity, in one cacheable result. */
export function discoverResult(capabilities: Record<string, unknown>, instructions: string): Record<string, unknown> {
  return { supportedVersions: [...SERVED_PROTOCOL_VERSIONS], capabilities, instructions };
}

function metaOf(params: unknown): Record<string, unknown> | undefined {
  if (!isJsonObject(params)) return undefined;
  const meta = params._meta;
  return isJsonObject(meta) ? meta : undefined;
}
