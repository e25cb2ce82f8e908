// Dev command that serves the mock NexusBloom API: `mock-api-cli [port] [--bundle FILE] [--api-key KEY] [--page-size N]`.
// In this repository the default catalogue is examples/catalogue.json; inside a generated package (compiled to
// dist/runtime/dev/mock-api-cli.js) it is the package's data/catalogue.json.

import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Manifest, ServedCatalogueFile } from '../shared/contracts.js';
import { isEntryPoint, processLines } from './entry-point.js';
import { manifestsFromBundle, manifestsFromServedCatalogue, MOCK_API_HEADER, startMockApi, type MockApi } from './mock-api.js';

export const DEFAULT_MOCK_API_PORT = 4010;

export interface MockApiCliIo {
  stdout: (line: string) => void;
  stderr: (line: string) => void;
}

/** `api` is set when this process now serves the mock; `exitCode` is what the process should end with otherwise. */
export interface MockApiCliOutcome {
  exitCode: number;
  api?: MockApi;
}

const USAGE = 'usage: mock-api-cli [port] [--bundle FILE] [--host HOST] [--api-key KEY] [--page-size N]';

export async function runMockApiCli(argv: string[], io: MockApiCliIo): Promise<MockApiCliOutcome> {
  let parsed: ReturnType<typeof parseCliArgs>;
  try {
    parsed = parseCliArgs(argv);
  } catch (error) {
    io.stderr(`${(error as Error).message}\n${USAGE}`);
    return { exitCode: 2 };
  }
  const { port, host, bundlePath, apiKey, pageSize } = parsed;

  let manifests: Manifest[];
  try {
    manifests = loadManifests(bundlePath);
  } catch (error) {
    io.stderr(`mock-api: cannot load the catalogue ${bundlePath}: ${(error as Error).message}`);
    return { exitCode: 1 };
  }

  try {
    const api = await startMockApi({
      manifests,
      port,
      host,
      ...(apiKey === undefined ? {} : { apiKey }),
      ...(pageSize === undefined ? {} : { pageSize }),
      log: io.stderr,
    });
    io.stderr(`mock-api: serving ${manifests.length} tools from ${bundlePath}`);
    io.stderr(`mock-api: listening on ${api.url}${apiKey === undefined ? '' : ' (API key required)'}`);
    io.stderr(`mock-api: inject faults with POST ${api.url.replace(/\/api$/, '')}/__mock/faults; Ctrl-C stops`);
    io.stdout(api.url);
    return { exitCode: 0, api };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') {
      io.stderr(`mock-api: cannot listen on ${host}:${port}: ${(error as Error).message}`);
      return { exitCode: 1 };
    }
    return explainPortInUse(host, port, io);
  }
}

async function explainPortInUse(host: string, port: number, io: MockApiCliIo): Promise<MockApiCliOutcome> {
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const baseUrl = `http://${urlHost}:${port}/api`;
  const holder = await probe(`${baseUrl}/tools`);
  if (holder.isMockApi) {
    io.stderr(
      `mock-api: reusing the mock API already on port ${port}${holder.asksForKey ? ' (it was started with --api-key: requests need that key)' : ''}`,
    );
    io.stdout(baseUrl);
    return { exitCode: 0 };
  }
  io.stderr(
    [
      `mock-api: port ${port} on ${host} is already in use by something that is not the NexusBloom mock API (${holder.description}).`,
      `  See what holds it: lsof -iTCP:${port} -sTCP:LISTEN   (or: ss -ltnp 'sport = :${port}')`,
      `  Or pick another port: npm run mock-api -- ${port === 65535 ? port - 1 : port + 1}   (0 picks a free one)`,
    ].join('\n'),
  );
  return { exitCode: 1 };
}

/**
 * What answers on the port. The mock names itself in a header on every answer, so one that was started with --api-key
 * (401 without the key) or has a fault injected into its tool list is still recognised as the mock.
 */
async function probe(url: string): Promise<{ isMockApi: boolean; asksForKey: boolean; description: string }> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await response.arrayBuffer();
    const asksForKey = response.status === 401 || response.status === 403;
    if (response.headers.get(MOCK_API_HEADER) === '1') return { isMockApi: true, asksForKey, description: 'mock API' };
    const server = response.headers.get('server');
    return {
      isMockApi: false,
      asksForKey,
      description: `GET /api/tools answered HTTP ${response.status}${server ? ` from "${server}"` : ''}`,
    };
  } catch (error) {
    return { isMockApi: false, asksForKey: false, description: `it did not answer HTTP: ${(error as Error).message}` };
  }
}

function parseCliArgs(argv: string[]): { port: number; host: string; bundlePath: string; apiKey?: string; pageSize?: number } {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      bundle: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      'api-key': { type: 'string' },
      'page-size': { type: 'string' },
    },
  });
  if (positionals.length > 1) throw new Error(`mock-api: expected at most one port, got ${positionals.join(' ')}`);
  const port = positionals[0] === undefined ? DEFAULT_MOCK_API_PORT : Number(positionals[0]);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`mock-api: invalid port ${JSON.stringify(positionals[0])}`);
  const pageSize = values['page-size'] === undefined ? undefined : Number(values['page-size']);
  if (pageSize !== undefined && !(Number.isInteger(pageSize) && pageSize > 0))
    throw new Error('mock-api: --page-size must be a positive integer');
  const bundlePath = values.bundle ?? defaultCataloguePath();
  return {
    port,
    host: values.host ?? '127.0.0.1',
    bundlePath,
    ...(values['api-key'] === undefined ? {} : { apiKey: values['api-key'] }),
    ...(pageSize === undefined ? {} : { pageSize }),
  };
}

/** data/catalogue.json of a generated package, else this repository's examples/catalogue.json. */
export function defaultCataloguePath(): string {
  // Both layouts put this file three levels below the root: dist/runtime/dev/ and src/runtime/dev/.
  const candidates = ['../../../data/catalogue.json', '../../../examples/catalogue.json'].map((relative) =>
    fileURLToPath(new URL(relative, import.meta.url)),
  );
  return candidates.find((path) => existsSync(path)) ?? candidates[0]!;
}

/** Reads a bundle (`nexusbloom-catalogue/1`) or a served catalogue (`nexusbloom-served-catalogue/1`). */
export function loadManifests(path: string): Manifest[] {
  const json = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  const format = typeof json === 'object' && json !== null ? (json as { format?: unknown }).format : undefined;
  return format === 'nexusbloom-served-catalogue/1' ? manifestsFromServedCatalogue(json as ServedCatalogueFile) : manifestsFromBundle(json);
}

if (isEntryPoint(import.meta.url)) {
  const outcome = await runMockApiCli(process.argv.slice(2), processLines());
  const api = outcome.api;
  if (api === undefined) {
    process.exitCode = outcome.exitCode;
  } else {
    const stop = (): void => {
      void api.close().then(() => process.exit(0));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  }
}
