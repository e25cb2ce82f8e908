// A loopback HTTP API that answers the operations of a converted OpenAPI catalogue from the description itself:
// it matches method and path template, records every request, and answers with a sample of the declared response.

import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import type { JsonObject, Manifest } from '../../src/runtime/shared/contracts.js';
import { operationOf, type OperationCall } from '../../src/runtime/execution/operation.js';
import { splitFixedQuery } from '../../src/runtime/execution/operation-request.js';

const require = createRequire(import.meta.url);
const sampler = require('openapi-sampler') as { sample(schema: unknown, options?: JsonObject, spec?: unknown): unknown };

export interface RecordedRequest {
  slug: string | null;
  method: string;
  /** Path and query as received. */
  target: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface SpecMock {
  url: string;
  requests: RecordedRequest[];
  /** What the mock answers for a tool: the sample of its output schema (null when it declares none). */
  answerOf(slug: string): unknown;
  close(): Promise<void>;
}

/** The sampler stops a recursive ref with a null item; an empty list is what a real API answers there. */
function withoutNullItems(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((item) => item !== null && item !== undefined).map(withoutNullItems);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutNullItems(v)]));
  return value;
}

/** A value shaped like `schema` (with its own `$defs`), or undefined when the sampler cannot make one. */
export function sampleOf(schema: JsonObject | null | undefined): unknown {
  if (schema === null || schema === undefined) return undefined;
  try {
    return withoutNullItems(sampler.sample(schema, { skipReadOnly: false, skipWriteOnly: true, quiet: true }, schema));
  } catch {
    return undefined;
  }
}

function templateRegex(path: string): RegExp {
  const escaped = path
    .split(/(\{[^}]+\})/)
    .map((part) => (/^\{[^}]+\}$/.test(part) ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${escaped}$`);
}

export async function startSpecMock(
  tools: readonly Manifest[],
  overrides: Record<string, { status: number; body?: unknown; headers?: Record<string, string> }> = {},
): Promise<SpecMock> {
  const routes = tools.flatMap((tool) => {
    const call = operationOf(tool);
    if (call === null) return [];
    const [template, fixed] = splitFixedQuery(call.path);
    return [{ tool, call, pattern: templateRegex(template), fixed, templated: template.split('{').length - 1 }];
  });
  // The most literal path first, as routers match (`/syncs/list` before `/syncs/{id}`); a fixed query first.
  routes.sort((a, b) => a.templated - b.templated || b.fixed.length - a.fixed.length);
  const answers = new Map<string, unknown>();
  const answerOf = (slug: string): unknown => {
    if (!answers.has(slug)) answers.set(slug, sampleOf(tools.find((t) => t.slug === slug)?.output_schema ?? null) ?? null);
    return answers.get(slug);
  };
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const target = request.url ?? '/';
      const path = target.split('?')[0]!;
      const pairs = (target.split('?')[1] ?? '').split('&');
      const route = routes.find(
        (r) => r.call.method === request.method && r.pattern.test(path) && r.fixed.every((pair) => pairs.includes(pair)),
      ) as { tool: Manifest; call: OperationCall } | undefined;
      requests.push({
        slug: route?.tool.slug ?? null,
        method: request.method ?? '',
        target,
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      if (route === undefined) {
        response
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ message: `no operation ${request.method} ${path}` }));
        return;
      }
      const override = overrides[route.tool.slug];
      if (override !== undefined) {
        response.writeHead(override.status, { 'content-type': 'application/json', ...(override.headers ?? {}) });
        response.end(override.body === undefined ? '' : JSON.stringify(override.body));
        return;
      }
      const answer = answerOf(route.tool.slug);
      if (answer === null && (route.tool.output_schema === null || route.tool.output_schema === undefined)) {
        response.writeHead(204).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answerOf,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
