// What the package's developer scripts share: where the package's files are, a real MCP client session over stdio
// against the package's own bin, the API they talk to (or a mock of it), and readers for tool results.

import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ServedCatalogueFile, ServerNames, ToolFailure } from '../shared/contracts.js';
import { loadServedCatalogue } from '../catalogue/catalogue-store.js';
import { envVarNames, readApiUrl } from '../settings/config.js';
import { errorText } from './entry-point.js';
import { manifestsFromServedCatalogue, startMockApi } from './mock-api.js';
import { DEFAULT_MOCK_API_PORT } from './mock-api-cli.js';

/** Output of a developer script: lines for the person running it (stdout) and diagnostics (stderr). */
export interface DevIo {
  stdout: (line: string) => void;
  stderr: (line: string) => void;
}

/** The files of a generated package a developer script needs, as absolute paths. */
export interface PackagePaths {
  root: string;
  /** The compiled server entry (`dist/bin.js`). */
  bin: string;
  /** `data/catalogue.json`. */
  catalogue: string;
  /** The compiled names module (`dist/names.js`), which exports `names: ServerNames`. */
  names: string;
}

/** The package these scripts are compiled into: this file is `dist/runtime/dev/client-session.js`. */
export function packagePaths(root: string = fileURLToPath(new URL('../../../', import.meta.url))): PackagePaths {
  const rootUrl = pathToFileURL(root.endsWith('/') ? root : `${root}/`);
  return {
    root: fileURLToPath(rootUrl),
    bin: fileURLToPath(new URL('dist/bin.js', rootUrl)),
    catalogue: fileURLToPath(new URL('data/catalogue.json', rootUrl)),
    names: fileURLToPath(new URL('dist/names.js', rootUrl)),
  };
}

/** A package's own names (server, meta-tool, URI scheme, env prefix), read from its compiled names module. */
export async function loadPackageNames(paths: PackagePaths): Promise<ServerNames> {
  // Loaded at run time because runtime files cannot import the package's generated modules statically.
  const loaded = (await import(pathToFileURL(paths.names).href)) as { names?: ServerNames };
  if (loaded.names === undefined || typeof loaded.names.metaToolName !== 'string') {
    throw new Error(`${paths.names} does not export the package's names; rebuild the package.`);
  }
  return loaded.names;
}

export interface PackageContext {
  paths: PackagePaths;
  names: ServerNames;
  catalogue: ServedCatalogueFile;
}

export async function loadPackage(root?: string): Promise<PackageContext> {
  const paths = packagePaths(root);
  const [names, catalogue] = await Promise.all([loadPackageNames(paths), loadServedCatalogue(pathToFileURL(paths.catalogue))]);
  return { paths, names, catalogue };
}

/** The API a script talks to: a mock started for it, or the one the environment names. */
export interface DevApi {
  /** Its base URL, without credentials: what the script shows and probes. */
  url: string;
  /** The API URL the server is started with in place of its environment's: the mock's, else none. */
  serverUrl?: string;
  mock: boolean;
  close(): Promise<void>;
}

/**
 * Reads the API URL variable as the server does (settings/config.ts): unset means the package's default; any other value that
 * is not an http(s) URL, blank included, is an error here too, never replaced by the default, which would send the
 * runs (and the API key) to another host. The server itself gets the variable untouched, with any credentials in it.
 */
export async function startDevApi(pkg: PackageContext, options: { mock: boolean; env?: NodeJS.ProcessEnv }): Promise<DevApi> {
  if (options.mock) {
    const api = await startMockApi({ manifests: manifestsFromServedCatalogue(pkg.catalogue) });
    return { url: api.url, serverUrl: api.url, mock: true, close: () => api.close() };
  }
  const name = envVarNames(pkg.names).apiUrl;
  // The script says what is wrong itself, in its own words, so the server's log line is not wanted here.
  const url = readApiUrl((options.env ?? process.env)[name], pkg.names.defaultApiUrl, name, () => {}).apiUrl;
  if (url === null) {
    throw new Error(
      `${name} is set but is not an http:// or https:// URL, so there is no API to use: set it to the API's URL, ` +
        `unset it to use ${pkg.names.defaultApiUrl}, or pass --mock to use a mock API started for this script.`,
    );
  }
  return { url, mock: false, close: async () => undefined };
}

/**
 * The package and its API (a mock when asked) for a dev script named `script`, or null when either fails, after
 * saying why on stderr as `<script>: <reason>`.
 */
export async function openPackageApi(
  script: string,
  io: Pick<DevIo, 'stderr'>,
  options: { packageRoot?: string; mock: boolean; env?: NodeJS.ProcessEnv },
): Promise<{ pkg: PackageContext; api: DevApi } | null> {
  try {
    const pkg = await loadPackage(options.packageRoot);
    return { pkg, api: await startDevApi(pkg, options) };
  } catch (error) {
    io.stderr(`${script}: ${errorText(error)}`);
    return null;
  }
}

/** GET {api}/tools answered with a JSON tool list: null when it did, else why not in a few words. */
export async function apiUnreachableReason(apiUrl: string, timeoutMs = 3000): Promise<string | null> {
  try {
    const response = await fetch(`${apiUrl}/tools`, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } });
    const text = await response.text();
    if (response.status === 401 || response.status === 403) return null; // Reachable; the key problem shows on each call.
    if (!response.ok) return `GET ${apiUrl}/tools answered HTTP ${response.status}`;
    const body = JSON.parse(text) as unknown;
    if (typeof body !== 'object' || body === null || !Array.isArray((body as { tools?: unknown }).tools)) {
      return `GET ${apiUrl}/tools did not answer a tool list`;
    }
    return null;
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : '';
    return `${error instanceof Error ? error.message : String(error)}${cause ? ` (${cause})` : ''}`;
  }
}

/**
 * How to get a mock API where a script looks for its API, for the message that the API is unreachable: start the
 * mock on the script's port when the script already points at this machine, else start it and point the script at it
 * (advising `npm run mock-api` alone there would leave the script talking to the API it just failed to reach).
 */
export function startMockHint(apiUrl: string, names: ServerNames): string {
  const url = new URL(apiUrl);
  const port = url.port === '' ? 80 : Number(url.port);
  const local = url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname) && url.pathname === '/api';
  if (local) return `start it with \`npm run mock-api${port === DEFAULT_MOCK_API_PORT ? '' : ` -- ${port}`}\``;
  return (
    `to use the mock API instead, start it with \`npm run mock-api\` and set ` +
    `${envVarNames(names).apiUrl}=http://127.0.0.1:${DEFAULT_MOCK_API_PORT}/api`
  );
}

export interface ClientSession {
  client: Client;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** Null while the server runs; once it has stopped unasked, a sentence saying so with the end of its stderr. */
  ended(): string | null;
  close(): Promise<void>;
}

/** How much of a stopped server's stderr its ended() sentence quotes: the end, where the reason is. */
const QUOTED_STDERR_LINES = 10;

/** Spawns the package's bin over real stdio and connects an SDK client to it. */
export async function openClientSession(
  pkg: PackageContext,
  options: { apiUrl?: string | undefined; env?: NodeJS.ProcessEnv; clientName?: string } = {},
): Promise<ClientSession> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(options.env ?? process.env)) if (value !== undefined) env[key] = value;
  if (options.apiUrl !== undefined) env[envVarNames(pkg.names).apiUrl] = options.apiUrl;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [pkg.paths.bin],
    env,
    stderr: 'pipe',
    cwd: pkg.paths.root,
  });
  let stderrText = '';
  transport.stderr?.on('data', (chunk: Buffer | string) => {
    stderrText += chunk.toString();
  });
  const client = new Client({ name: options.clientName ?? `${pkg.names.serverName}-dev`, version: pkg.names.packageVersion });
  try {
    await client.connect(transport);
  } catch (error) {
    // The SDK only says the connection closed; why the server stopped is what it wrote to stderr before it did.
    await transport.close().catch(() => undefined);
    const said = stderrText.trim();
    throw new Error(`the server (node ${pkg.paths.bin}) did not start: ${errorText(error)}${said === '' ? '' : `. It wrote:\n${said}`}`, {
      cause: error,
    });
  }
  let closing = false;
  let ended = false;
  client.onclose = () => {
    if (!closing) ended = true;
  };
  return {
    client,
    stderr: () => stderrText,
    ended: () => {
      if (!ended) return null;
      const tail = stderrText.trimEnd().split('\n').slice(-QUOTED_STDERR_LINES).join('\n');
      return `the server (node ${pkg.paths.bin}) stopped${tail === '' ? '' : `. The end of what it wrote:\n${tail}`}`;
    },
    close: () => {
      closing = true;
      return client.close();
    },
  };
}

/** The payload of a tool result: its structuredContent, else its first text block parsed as JSON, else that text. */
export function resultPayload(result: CallToolResult): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  const text = resultText(result);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function resultText(result: CallToolResult): string {
  return result.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
}

/** The failure envelope of an isError result, or null for a success. */
export function resultFailure(result: CallToolResult): ToolFailure | null {
  if (result.isError !== true) return null;
  const payload = resultPayload(result);
  if (typeof payload === 'object' && payload !== null && typeof (payload as ToolFailure).code === 'string') return payload as ToolFailure;
  return { success: false, error: typeof payload === 'string' ? payload : resultText(result), code: 'UPSTREAM_ERROR', retryable: true };
}

export async function callTool(session: ClientSession, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await session.client.callTool({ name, arguments: args })) as CallToolResult;
}

export { errorText, isEntryPoint, processLines, processOutput } from './entry-point.js';

/** Every tool tools/list shows, following nextCursor across pages as a paging host does. */
export async function listEveryTool(
  session: ClientSession,
): Promise<Array<{ name: string; title?: string | undefined; description?: string | undefined }>> {
  const tools: Array<{ name: string; title?: string | undefined; description?: string | undefined }> = [];
  let cursor: string | undefined;
  do {
    const page = await session.client.listTools(cursor === undefined ? {} : { cursor });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}
