// Streamable HTTP for MCP 2026-07-28: the request headers that mirror the body (MCP-Protocol-Version, Mcp-Method,
// Mcp-Name) must match it, and version and method problems are answered with the HTTP status the revision gives them.

import type { IncomingHttpHeaders } from 'node:http';
import { MODERN_ERROR_CODES, MODERN_PROTOCOL_VERSIONS, requestedProtocolVersion, SERVED_PROTOCOL_VERSIONS } from './eras.js';
import { isJsonObject } from '../shared/json-values.js';

/** A refusal before the request reaches the server: HTTP status and the JSON-RPC error for the body. */
export interface HttpRefusal {
  status: number;
  code: number;
  message: string;
  data?: unknown;
}

/** Methods whose `Mcp-Name` header mirrors `params.name` or `params.uri`. */
const NAMED_METHODS: Readonly<Record<string, 'name' | 'uri'>> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };

/** A POSTed JSON-RPC request of the 2026-07-28 revision: one that names a protocol version in its `_meta`. */
export function isModernHttpRequest(body: unknown): body is { id?: unknown; method: string; params: Record<string, unknown> } {
  return isJsonObject(body) && typeof body.method === 'string' && requestedProtocolVersion(body.params) !== undefined;
}

/**
 * Why a 2026-07-28 request must be refused at the HTTP layer, or null when it may be served. `knownMethods` are the
 * methods this server answers: another is a 404 with -32601, as the revision requires of a modern endpoint.
 */
export function modernHttpRefusal(
  headers: IncomingHttpHeaders,
  body: { method: string; params: Record<string, unknown> },
  knownMethods: ReadonlySet<string>,
): HttpRefusal | null {
  const version = requestedProtocolVersion(body.params);
  if (typeof version !== 'string' || !MODERN_PROTOCOL_VERSIONS.includes(version)) {
    return {
      status: 400,
      code: MODERN_ERROR_CODES.unsupportedProtocolVersion,
      message: 'Unsupported protocol version',
      data: { supported: [...SERVED_PROTOCOL_VERSIONS], requested: typeof version === 'string' ? version : JSON.stringify(version) },
    };
  }
  const mismatch = (what: string): HttpRefusal => ({
    status: 400,
    code: MODERN_ERROR_CODES.headerMismatch,
    message: `Header mismatch: ${what}`,
  });
  const headerVersion = single(headers['mcp-protocol-version']);
  if (headerVersion !== version) {
    return mismatch(
      `MCP-Protocol-Version ${JSON.stringify(headerVersion ?? null)} does not match io.modelcontextprotocol/protocolVersion ${JSON.stringify(version)} in _meta`,
    );
  }
  const headerMethod = single(headers['mcp-method']);
  if (headerMethod !== body.method)
    return mismatch(`Mcp-Method ${JSON.stringify(headerMethod ?? null)} does not match the body's method ${JSON.stringify(body.method)}`);
  const nameField = NAMED_METHODS[body.method];
  if (nameField !== undefined) {
    const bodyName = body.params[nameField];
    const headerName = decodeHeaderValue(single(headers['mcp-name']));
    if (headerName !== bodyName)
      return mismatch(
        `Mcp-Name ${JSON.stringify(headerName ?? null)} does not match params.${nameField} ${JSON.stringify(bodyName ?? null)}`,
      );
  }
  if (!knownMethods.has(body.method)) return { status: 404, code: -32601, message: `Method not found: ${body.method}` };
  return null;
}

/** A header value as sent, or decoded from the revision's `=?base64?…?=` form (for values that are not plain ASCII). */
export function decodeHeaderValue(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const encoded = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/.exec(value);
  return encoded?.[1] === undefined ? value : Buffer.from(encoded[1], 'base64').toString('utf8');
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
