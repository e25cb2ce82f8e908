// Shared fixtures for the core runtime tests: server names, manifests, a capturing log and a tiny HTTP API.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DiagnosticLog, Manifest, ServedTool, ServerNames } from '../../src/runtime/shared/contracts.js';

export const testNames: ServerNames = {
  packageName: '@nexusbloom/mcp-server',
  packageVersion: '1.2.3',
  serverName: 'nexusbloom',
  productName: 'NexusBloom',
  metaToolName: 'nexusbloom',
  uriScheme: 'nexusbloom',
  envPrefix: 'NEXUSBLOOM_',
  defaultApiUrl: 'https://nexusbloom.dev/api',
};

export function captureLog(): { log: DiagnosticLog; lines: string[] } {
  const lines: string[] = [];
  return { log: (line) => lines.push(line), lines };
}

export function manifest(overrides: Partial<Manifest> & { slug: string }): Manifest {
  return {
    name: overrides.slug,
    description: `The ${overrides.slug} tool.`,
    category: 'test',
    tags: [],
    version: '1.0.0',
    input_schema: null,
    ...overrides,
  };
}

export function servedTool(m: Manifest, withheldReason: string | null = null): ServedTool {
  return {
    slug: m.slug,
    manifest: m,
    identifier: m.slug.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase()),
    withheldReason,
  };
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** Starts an HTTP server on 127.0.0.1 whose answers come from `handler`; records every request. */
export async function startHttp(
  handler: (req: RecordedRequest, res: ServerResponse) => void,
): Promise<{ url: string; requests: RecordedRequest[]; close(): Promise<void> }> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(recorded);
      handler(recorded, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
