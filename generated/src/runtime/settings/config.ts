// Reads the server's settings from environment variables (all optional) and builds the stderr log.

import type { DiagnosticLog, EnvironmentVariables, ServerNames } from '../shared/contracts.js';
import { DEFAULT_MAX_BODY_BYTES } from '../execution/api-transport.js';
import { DEFAULT_TOOLS_THRESHOLD, TOOLS_MODES, type ToolsMode } from '../catalogue/advertise.js';
import { HOST_PROFILE_NAMES, type HostProfileName } from '../schema/host-profiles.js';
import { redactUrlCredentials } from '../secrets/redact.js';
import { variableValue } from '../shared/environment.js';

export type ExecutionMode = 'remote' | 'local' | 'auto';
export type CatalogueMode = 'pinned' | 'live';

export interface Settings {
  /** API key, trimmed, or null to run anonymously (unset or blank). Null too when it is unusable: see `apiKeyProblem`. */
  apiKey: string | null;
  /**
   * Why the configured key cannot be sent (a character an HTTP header cannot carry), naming where it came from but never
   * showing it; null when it is usable or absent. Then, as with `apiUrlProblem`, every API call fails with CONFIG_ERROR:
   * an anonymous request in its place would hide the mistake behind rate limits.
   */
  apiKeyProblem: string | null;
  /**
   * API base URL without credentials or a trailing slash, always ending in the API path (`…/api` for a bare host). Null
   * when `<prefix>API_URL` is set but unusable: then no request is sent anywhere (never to the default instead), and
   * every API call fails with CONFIG_ERROR carrying `apiUrlProblem`.
   */
  apiUrl: string | null;
  /** Why `apiUrl` is null, naming the variable and its credential-redacted value; null when it is usable. */
  apiUrlProblem: string | null;
  /** `user:password` from the userinfo of `<prefix>API_URL`, sent as HTTP Basic auth when no API key is set; never shown. */
  apiBasicAuth: string | null;
  timeoutMs: number;
  /** Largest API answer read, as sent and as decoded; a bigger one fails with BAD_RESPONSE instead of filling memory. */
  maxResponseBytes: number;
  /** Tool-list cache lifetime; 0 disables caching. */
  cacheTtlMs: number;
  debug: boolean;
  execution: ExecutionMode;
  catalogue: CatalogueMode;
  /** Which host's schema limits tools/list is shaped for (see schema/host-profiles.ts); calls are always checked against the manifest. */
  hostProfile: HostProfileName;
  /** Which tools tools/list shows: all, only the meta-tool (+ pinned), or auto (all up to toolsThreshold). */
  tools: ToolsMode;
  toolsThreshold: number;
  /** Slugs listed even when only the meta-tool is. */
  pinnedTools: string[];
  /** The variable names these settings were read from, so messages can say which one to set. */
  vars: EnvVarNames;
}

export interface EnvVarNames {
  apiKey: string;
  apiUrl: string;
  timeoutMs: string;
  maxResponseBytes: string;
  cacheTtlMs: string;
  debug: string;
  execution: string;
  catalogue: string;
  hostProfile: string;
  tools: string;
  toolsThreshold: string;
  pinnedTools: string;
}

export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_CACHE_TTL_MS = 60_000;
/** The longest delay a Node.js timer takes: a longer one fires after 1 ms, which would time out every request at once. */
export const MAX_TIMEOUT_MS = 2_147_483_647;

export function envVarNames(names: ServerNames): EnvVarNames {
  const p = names.envPrefix;
  return {
    apiKey: `${p}API_KEY`,
    apiUrl: `${p}API_URL`,
    timeoutMs: `${p}MCP_TIMEOUT_MS`,
    maxResponseBytes: `${p}MCP_MAX_RESPONSE_BYTES`,
    cacheTtlMs: `${p}MCP_CACHE_TTL_MS`,
    debug: `${p}MCP_DEBUG`,
    execution: `${p}MCP_EXECUTION`,
    catalogue: `${p}MCP_CATALOGUE`,
    hostProfile: `${p}MCP_HOST_PROFILE`,
    tools: `${p}MCP_TOOLS`,
    toolsThreshold: `${p}MCP_TOOLS_THRESHOLD`,
    pinnedTools: `${p}MCP_PINNED_TOOLS`,
  };
}

/** Reads every setting; an invalid value is reported on `log` and replaced by its default. Never throws. */
export function readSettings(names: ServerNames, env: EnvironmentVariables, log: DiagnosticLog): Settings {
  const vars = envVarNames(names);
  const read = (name: string): string | undefined => variableValue(env, name);

  const apiKey = readApiKey(env[vars.apiKey], vars.apiKey);
  if (apiKey.apiKeyProblem !== null) log(apiKey.apiKeyProblem);
  return {
    ...apiKey,
    // Not `read`: a variable set to a blank value is a mistake to report, not the same as one left unset.
    ...readApiUrl(env[vars.apiUrl], names.defaultApiUrl, vars.apiUrl, log),
    timeoutMs: readTimeout(read(vars.timeoutMs), vars.timeoutMs, log),
    maxResponseBytes: readCount(read(vars.maxResponseBytes), DEFAULT_MAX_BODY_BYTES, vars.maxResponseBytes, log),
    cacheTtlMs: readInteger(read(vars.cacheTtlMs), DEFAULT_CACHE_TTL_MS, 0, vars.cacheTtlMs, log),
    debug: readFlag(read(vars.debug)),
    execution: readChoice(
      read(vars.execution),
      ['remote', 'local', 'auto'] as const,
      vars.execution,
      log,
      'so tool code is not executed on this machine',
    ),
    catalogue: readChoice(
      read(vars.catalogue),
      ['pinned', 'live'] as const,
      vars.catalogue,
      log,
      'the tool list shipped with this package',
    ),
    hostProfile: readChoice(read(vars.hostProfile), HOST_PROFILE_NAMES, vars.hostProfile, log, 'schemas exactly as the MCP spec allows'),
    tools: readChoice(read(vars.tools), TOOLS_MODES, vars.tools, log, 'the meta-tool alone past the threshold'),
    toolsThreshold: readCount(read(vars.toolsThreshold), DEFAULT_TOOLS_THRESHOLD, vars.toolsThreshold, log),
    pinnedTools: (read(vars.pinnedTools) ?? '')
      .split(',')
      .map((slug) => slug.trim())
      .filter((slug) => slug !== ''),
    vars,
  };
}

function readCount(raw: string | undefined, fallback: number, name: string, log: DiagnosticLog): number {
  if (raw === undefined) return fallback;
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 1) {
    log(`${name}=${JSON.stringify(raw)} is not a whole number of at least 1; using ${fallback}.`);
    return fallback;
  }
  return value;
}

/** How the server listens when it serves Streamable HTTP instead of stdio. */
export interface HttpSettings {
  /** `<prefix>MCP_HTTP_PORT`, or null when unset (then only `--http` turns HTTP on). 0 picks a free port. */
  port: number | null;
  /** Interface to bind; loopback by default so nothing is exposed unless asked for. */
  host: string;
  /** Extra Host header values accepted besides localhost, 127.0.0.1 and [::1] (DNS-rebinding protection), lowercased. */
  allowedHosts: string[];
  /** Bearer token every /mcp request must carry (the first of `tokens`), or null for none. */
  token: string | null;
  /** Every accepted bearer token (`<prefix>MCP_HTTP_TOKEN`, comma-separated): one per caller, each with its own history. */
  tokens: string[];
  /** `<prefix>MCP_HTTP_ALLOW_NO_TOKEN`: serving a non-loopback interface without a token is intended. */
  allowNoToken: boolean;
  vars: HttpEnvVarNames;
}

export interface HttpEnvVarNames {
  port: string;
  host: string;
  allowedHosts: string;
  token: string;
  allowNoToken: string;
}

export const DEFAULT_HTTP_HOST = '127.0.0.1';
export const DEFAULT_HTTP_PORT = 3000;

export function httpEnvVarNames(names: ServerNames): HttpEnvVarNames {
  const p = names.envPrefix;
  return {
    port: `${p}MCP_HTTP_PORT`,
    host: `${p}MCP_HTTP_HOST`,
    allowedHosts: `${p}MCP_HTTP_ALLOWED_HOSTS`,
    token: `${p}MCP_HTTP_TOKEN`,
    allowNoToken: `${p}MCP_HTTP_ALLOW_NO_TOKEN`,
  };
}

/** Reads the HTTP transport settings; an invalid port is reported on `log` and ignored. Never throws. */
export function readHttpSettings(names: ServerNames, env: EnvironmentVariables, log: DiagnosticLog): HttpSettings {
  const vars = httpEnvVarNames(names);
  const read = (name: string): string | undefined => variableValue(env, name);
  const rawPort = read(vars.port);
  let port: number | null = null;
  if (rawPort !== undefined) {
    port = parsePort(rawPort);
    if (port === null) log(`${vars.port}=${JSON.stringify(rawPort)} is not a port number (0-65535); ignoring it.`);
  }
  // A bearer token (RFC 6750 b64token) has no comma, so a comma can only separate tokens.
  const tokens = (read(vars.token) ?? '')
    .split(',')
    .map((token) => token.trim())
    .filter((token) => token !== '');
  return {
    port,
    host: read(vars.host) ?? DEFAULT_HTTP_HOST,
    allowedHosts: (read(vars.allowedHosts) ?? '')
      .split(',')
      .map((host) => host.trim().toLowerCase())
      .filter((host) => host !== ''),
    token: tokens[0] ?? null,
    tokens,
    allowNoToken: readFlag(read(vars.allowNoToken)),
    vars,
  };
}

/** A TCP port (0 means any free port), or null when `raw` is not one. */
export function parsePort(raw: string): number | null {
  if (!/^\d{1,5}$/.test(raw)) return null;
  const port = Number(raw);
  return port <= 65535 ? port : null;
}

/** An API base split into the URL to show and send to, and the credentials its userinfo carried. */
export interface ApiBase {
  /** Without userinfo, query, fragment or a trailing slash; a bare host gets its `/api` form. */
  url: string;
  /** `user:password` (percent-decoded) from the userinfo, or null. */
  basicAuth: string | null;
}

/** Parses an http(s) API base; null when `raw` is not one. Credentials are split off so no shown URL carries them. */
export function parseApiUrl(raw: string): ApiBase | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const basicAuth = url.username === '' && url.password === '' ? null : `${decodeUserinfo(url.username)}:${decodeUserinfo(url.password)}`;
  url.username = '';
  url.password = '';
  url.hash = '';
  url.search = '';
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = path === '' ? '/api' : path;
  return { url: url.href.replace(/\/+$/, ''), basicAuth };
}

/** node:http decodes userinfo the same way before sending it as Basic auth. */
function decodeUserinfo(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** Normalises an API base: a bare host means its `/api` form, a trailing slash is dropped, and so are credentials. */
export function normalizeApiUrl(raw: string): string | null {
  return parseApiUrl(raw)?.url ?? null;
}

type ApiUrlSettings = Pick<Settings, 'apiUrl' | 'apiUrlProblem' | 'apiBasicAuth'>;

/**
 * An unusable value is not replaced by the default: a mistyped self-hosted URL must not send the user's data (and key)
 * to another host. The server stays up and each API call fails fast, saying what to fix. A blank value is one of those:
 * `${name}=` in a .env file or `${name}=$UNSET` in a shell usually means a self-hosted URL that went missing.
 */
export function readApiUrl(value: string | undefined, fallback: string, name: string, log: DiagnosticLog): ApiUrlSettings {
  const defaultUrl = normalizeApiUrl(fallback) ?? fallback;
  if (value === undefined) return { apiUrl: defaultUrl, apiUrlProblem: null, apiBasicAuth: parseApiUrl(fallback)?.basicAuth ?? null };
  const raw = value.trim();
  if (raw === '') {
    const problem =
      `${name} is set but empty, so no API request is sent: calls that need the API fail until it is fixed ` +
      `(no other API is used in its place). Unset ${name} to use the default ${defaultUrl}, or set it to the API's ` +
      'http:// or https:// URL.';
    log(problem);
    return { apiUrl: null, apiUrlProblem: problem, apiBasicAuth: null };
  }
  const parsed = parseApiUrl(raw);
  if (parsed !== null) return { apiUrl: parsed.url, apiUrlProblem: null, apiBasicAuth: parsed.basicAuth };
  const problem =
    `${name}=${JSON.stringify(redactUrlCredentials(raw))} is not an http(s) URL, so no API request is sent: ` +
    'calls that need the API fail until it is fixed (no other API is used in its place). A valid value starts with ' +
    `http:// or https:// and names the host, e.g. ${defaultUrl} (used when ${name} is unset) or http://localhost:8080/api.`;
  log(problem);
  return { apiUrl: null, apiUrlProblem: problem, apiBasicAuth: null };
}

type ApiKeySettings = Pick<Settings, 'apiKey' | 'apiKeyProblem'>;

/**
 * An API key as it will be sent: surrounding whitespace trimmed (a pasted key often carries a newline), a blank one
 * meaning no key. A key with a character an HTTP header cannot carry would make every request fail in the HTTP layer,
 * which looks like a network failure; it is refused here instead, described by position so the key is never shown.
 * `source` names where the key came from (the variable, or the SDK's `apiKey` option).
 */
export function readApiKey(value: string | undefined, source: string): ApiKeySettings {
  const key = value?.trim() ?? '';
  if (key === '') return { apiKey: null, apiKeyProblem: null };
  const unsendable = unsendableHeaderCharacter(key);
  if (unsendable === null) return { apiKey: key, apiKeyProblem: null };
  return {
    apiKey: null,
    apiKeyProblem:
      `${source} cannot be sent as an HTTP header: its character ${unsendable.position} is ${unsendable.what}, so no ` +
      'API request is sent and calls that need the API fail until it is fixed. Check that the whole key, and only the ' +
      'key, was copied (an API key is normally plain ASCII).',
  };
}

/**
 * The first character node:http refuses in a header value (anything but tab, printable ASCII and the rest of Latin-1),
 * 1-based, and what kind it is; null when every character can be sent.
 */
export function unsendableHeaderCharacter(value: string): { position: number; what: string } | null {
  const index = value.search(/[^\t\x20-\x7e\x80-\xff]/);
  if (index === -1) return null;
  const code = value.charCodeAt(index);
  const what =
    code === 0x0d || code === 0x0a
      ? 'a line break'
      : code < 0x20 || code === 0x7f
        ? 'a control character'
        : 'outside Latin-1 (a header carries one byte per character)';
  return { position: index + 1, what };
}

function readInteger(raw: string | undefined, fallback: number, min: number, name: string, log: DiagnosticLog): number {
  if (raw === undefined) return fallback;
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min) {
    log(`${name}=${JSON.stringify(raw)} is not a whole number of milliseconds${min > 0 ? ` of at least ${min}` : ''}; using ${fallback}.`);
    return fallback;
  }
  return value;
}

function readTimeout(raw: string | undefined, name: string, log: DiagnosticLog): number {
  const value = readInteger(raw, DEFAULT_TIMEOUT_MS, 1, name, log);
  if (value <= MAX_TIMEOUT_MS) return value;
  log(
    `${name}=${JSON.stringify(raw)} is longer than the longest timeout Node.js can wait (${MAX_TIMEOUT_MS} ms, about 24 days); using ${MAX_TIMEOUT_MS}.`,
  );
  return MAX_TIMEOUT_MS;
}

function readFlag(raw: string | undefined): boolean {
  return raw !== undefined && ['1', 'true', 'yes', 'on'].includes(raw.toLowerCase());
}

function readChoice<const T extends readonly string[]>(
  raw: string | undefined,
  choices: T,
  name: string,
  log: DiagnosticLog,
  why: string,
): T[number] {
  const fallback = choices[0] as T[number];
  if (raw === undefined) return fallback;
  const value = raw.toLowerCase();
  const match = choices.find((choice) => choice === value);
  if (match === undefined) {
    log(`${name}=${JSON.stringify(raw)} is not one of ${choices.join(', ')}; using ${fallback} (${why}).`);
    return fallback;
  }
  return match;
}

/** A log that writes each line to stderr with a prefix. Stdout is the MCP transport and is never touched. */
export function createStderrLog(prefix: string): DiagnosticLog {
  return (line) => {
    process.stderr.write(`[${prefix}] ${line}\n`);
  };
}

/** Wraps a log so that a line already written is not written again (for warnings that belong once per process). */
export function onceLog(log: DiagnosticLog): DiagnosticLog {
  const seen = new Set<string>();
  return (line) => {
    if (seen.has(line)) return;
    seen.add(line);
    log(line);
  };
}
