// The shapes every runtime module shares: the served catalogue, the names a server is built with, and
// the outcome of running a tool. This file is shipped verbatim inside every generated package.

import { maskSecretsInText } from '../secrets/classifier.js';
import type { PolicyDefaults } from '../policy/modes.js';

export type JsonObject = { [key: string]: unknown };

/**
 * Environment variables as the runtime reads them. Not `NodeJS.ProcessEnv`: the shipped declarations would then need
 * `@types/node` in every TypeScript project that imports the typed wrappers.
 */
export type EnvironmentVariables = Record<string, string | undefined>;

/** MCP tool annotations as a manifest carries them. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ManifestExample {
  title?: string;
  params: JsonObject;
  result?: unknown;
}

/** One tool exactly as the catalogue publishes it (catalogue-api.md, "Manifest"). Extra fields are kept. */
export interface Manifest {
  slug: string;
  name: string;
  description: string;
  category: string;
  tags: string[];
  version: string;
  input_schema: JsonObject | null;
  output_schema?: JsonObject | null;
  annotations?: ToolAnnotations;
  examples?: ManifestExample[];
  source?: { runtime: 'node'; code: string } | null;
  deprecated?: string;
  [extra: string]: unknown;
}

/** A tool as the generated server holds it: the manifest plus the names the generator decided. */
export interface ServedTool {
  slug: string;
  manifest: Manifest;
  /** camelCase name of the typed SDK wrapper, unique within the package. */
  identifier: string;
  /** Why the slug is not advertised in tools/list (MCP tool-name grammar), or null when it is advertised. */
  withheldReason: string | null;
  /**
   * The name tools/list shows when it is not the slug: a slug outside the tool-name grammar mapped to a valid name by
   * the generator (`toolNames: "sanitize"`). A direct call by this name reaches the tool; `run` takes either.
   */
  toolName?: string;
}

/** The data file a generated package ships (`data/catalogue.json`). Tools sorted by slug, by code unit. */
export interface ServedCatalogueFile {
  format: 'nexusbloom-served-catalogue/1';
  tools: ServedTool[];
  /** Where the package's prebuilt search index (`data/search-index.json`) is; set when the file is loaded, not stored. */
  searchIndexUrl?: string;
  /** Where the package's prepared tools/list forms (`data/tools-list.json`) are; set when the file is loaded, not stored. */
  advertisedListUrl?: string;
  /** Where the build's token figures for tools/list (`data/token-costs.json`) are; set when the file is loaded. */
  tokenCostsUrl?: string;
  /** The policy the package was built with (`data/policy.json`), read when the file is loaded, not stored in it. */
  policy?: PolicyDefaults;
}

/** Every name a generated server needs; NexusBloom values by default, configurable per catalogue. */
export interface ServerNames {
  /** npm package name, e.g. `@nexusbloom/mcp-server`. */
  packageName: string;
  /** Package version, used in the User-Agent and the MCP server info. */
  packageVersion: string;
  /** MCP server name (serverInfo.name), e.g. `nexusbloom`. */
  serverName: string;
  /** Human product name used in prose, e.g. `NexusBloom`. */
  productName: string;
  /** Name of the meta-tool, e.g. `nexusbloom`. */
  metaToolName: string;
  /** URI scheme of resources without `://`, e.g. `nexusbloom`. */
  uriScheme: string;
  /** Prefix of every environment variable, e.g. `NEXUSBLOOM_`. */
  envPrefix: string;
  /** Default API base when `<prefix>API_URL` is not set. */
  defaultApiUrl: string;
}

/** Stable error codes. `retryable` for each is fixed in ERROR_RETRYABLE. */
export type ErrorCode =
  | 'TOOL_NOT_FOUND'
  | 'TOOL_NOT_ALLOWED'
  | 'CONFIRMATION_REQUIRED'
  | 'CONFIRMATION_DECLINED'
  | 'AMBIGUOUS_SLUG'
  | 'VALIDATION_ERROR'
  | 'INVALID_COMMAND'
  | 'BATCH_TOO_LARGE'
  | 'TIMEOUT'
  | 'CANCELLED'
  | 'RATE_LIMITED'
  | 'API_UNREACHABLE'
  | 'UPSTREAM_ERROR'
  | 'AUTH_ERROR'
  | 'CONFIG_ERROR'
  | 'EXECUTION_ERROR'
  | 'NO_LOCAL_SOURCE'
  | 'OUTPUT_MISMATCH'
  | 'BAD_RESPONSE'
  | 'RUN_NOT_FOUND';

export const ERROR_RETRYABLE: Readonly<Record<ErrorCode, boolean>> = {
  TOOL_NOT_FOUND: false,
  TOOL_NOT_ALLOWED: false,
  CONFIRMATION_REQUIRED: false,
  CONFIRMATION_DECLINED: false,
  AMBIGUOUS_SLUG: false,
  VALIDATION_ERROR: false,
  INVALID_COMMAND: false,
  BATCH_TOO_LARGE: false,
  TIMEOUT: true,
  // The client withdrew the call; running it again is the user's decision, not an automatic retry.
  CANCELLED: false,
  RATE_LIMITED: true,
  API_UNREACHABLE: true,
  UPSTREAM_ERROR: true,
  AUTH_ERROR: false,
  CONFIG_ERROR: false,
  EXECUTION_ERROR: false,
  NO_LOCAL_SOURCE: false,
  OUTPUT_MISMATCH: false,
  BAD_RESPONSE: true,
  RUN_NOT_FOUND: false,
};

/** The error envelope every failed call returns, as text and as structuredContent. */
export interface ToolFailure {
  success: false;
  error: string;
  code: ErrorCode;
  retryable: boolean;
  /** Machine-readable extras: the failing JSON pointer, close matches, retry-after seconds, … */
  details?: JsonObject;
}

/** A failure envelope; credentials in its message (a URL's userinfo, a token an error echoed) are masked. */
export function toolFailure(code: ErrorCode, message: string, details?: JsonObject): ToolFailure {
  const error = maskSecretsInText(message);
  return details === undefined
    ? { success: false, error, code, retryable: ERROR_RETRYABLE[code] }
    : { success: false, error, code, retryable: ERROR_RETRYABLE[code], details };
}

/** What one execution of a tool produced (after validation). */
export type RunOutcome = { ok: true; result: unknown; durationMs: number } | { ok: false; failure: ToolFailure; durationMs: number };

/** Executes an already validated call, remotely or locally. Never throws: failures are outcomes. */
export interface ToolRunner {
  run(tool: ServedTool, params: JsonObject, signal?: AbortSignal): Promise<RunOutcome>;
}

/** Checks arguments against a tool's own input schema. Returns null when they are valid. */
export interface InputValidator {
  validateInput(tool: ServedTool, params: unknown): ToolFailure | null;
  /** Checks a successful result against the tool's output schema; null when it matches or there is none. */
  validateOutput(tool: ServedTool, result: unknown): ToolFailure | null;
}

/** Writes one diagnostic line to stderr (never stdout: stdout is the MCP transport). */
export type DiagnosticLog = (line: string) => void;

/**
 * JSON-RPC 2.0's own error codes (the SDK's ErrorCode holds the same numbers): spelled here so that a module the
 * generator loads too (the listing, the meta-tool's text) needs no SDK module at generation time.
 */
export const JSON_RPC_ERRORS = {
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
} as const;

/**
 * A JSON-RPC error for a request handler to throw. The SDK's McpError puts "MCP error <code>:" in its message, and
 * a client wraps what it receives in another McpError, so agents read the prefix twice; this error carries the
 * code and data with the plain message.
 */
export class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'ProtocolError';
  }
}
