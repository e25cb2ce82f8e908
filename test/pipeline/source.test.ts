import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { normalizeApiBase } from '../../src/pipeline/source/api-source.js';
import { SourceError } from '../../src/pipeline/source/http-json.js';
import { readSource } from '../../src/pipeline/source/read-source.js';
import { DEFAULT_RETRY_POLICY } from '../../src/pipeline/source/retry.js';
import { startMockApi, type MockApi } from '../../src/runtime/dev/mock-api.js';
import type { Manifest } from '../../src/runtime/shared/contracts.js';
import { tool } from '../fixtures/catalogues.js';
import { staticImports } from '../helpers/import-graph.js';

const manifests: Manifest[] = [
  ...Array.from({ length: 23 }, (_, i) => tool(`tool-${String(i).padStart(2, '0')}`)),
  tool('git/commit lint'),
  tool('ünï code'),
  tool('.'),
  tool('..'),
];

async function rejects(promise: Promise<unknown>, pattern: RegExp): Promise<SourceError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof SourceError, String(error));
    assert.match(error.message, pattern);
    return error;
  }
  assert.fail('expected a SourceError');
}

describe('source stage: API', () => {
  let api: MockApi;
  before(async () => {
    api = await startMockApi({ manifests, pageSize: 7, apiKey: 'sekret' });
  });
  after(async () => api.close());
  // Retryable faults (5xx, a reset) are retried: without waiting here (api-source.test.ts covers the waits).
  const options = { apiKey: 'sekret', timeoutMs: 2000, concurrency: 4, retry: { ...DEFAULT_RETRY_POLICY, wait: async () => {} } };

  it('normalizes the base URL', () => {
    assert.equal(normalizeApiBase('https://nexusbloom.dev'), 'https://nexusbloom.dev/api');
    assert.equal(normalizeApiBase('https://nexusbloom.dev/'), 'https://nexusbloom.dev/api');
    assert.equal(normalizeApiBase('http://127.0.0.1:4010/api/'), 'http://127.0.0.1:4010/api');
  });

  it('follows every cursor, fetches every manifest with the key, and percent-encodes slugs', async () => {
    api.requests.length = 0;
    const raw = await readSource(api.url.replace(/\/api$/, ''), options);
    const tools = (raw.document as { tools: Manifest[] }).tools;
    assert.deepEqual(tools.map((t) => t.slug).sort(), manifests.map((m) => m.slug).sort());
    assert.equal(api.requests.filter((r) => r.endpoint === 'list').length, 4);
    assert.ok(api.requests.every((r) => r.authorization === 'Bearer sekret'));
    assert.ok(api.requests.some((r) => r.path === `/api/tools/${encodeURIComponent('git/commit lint')}`));
    // Dot segments would be collapsed by URL parsing (`/tools/..` is `/`), so they go as %2E.
    assert.deepEqual(
      tools.filter((t) => t.slug.startsWith('.')).map((t) => t.name),
      [tool('.').name, tool('..').name],
    );
    for (const path of ['/api/tools/%2E', '/api/tools/%2E%2E'])
      assert.ok(
        api.requests.some((r) => r.path === path),
        path,
      );
  });

  it('names the URL on a missing key (401)', async () => {
    await rejects(readSource(api.url, { ...options, apiKey: undefined }), /\/api\/tools failed with 401.*NEXUSBLOOM_API_KEY/);
  });

  const faults: Array<[string, Parameters<MockApi['setFaults']>[0], RegExp]> = [
    ['hung manifest → timeout naming the slug', { manifest: { 'tool-03': { kind: 'hang' } } }, /tool-03.*timed out/],
    ['5xx on a manifest', { manifest: { 'tool-05': { kind: 'status', status: 503 } } }, /tool-05.*503/],
    ['non-JSON manifest', { manifest: { '*': { kind: 'garbage' } } }, /not JSON/],
    ['truncated manifest', { manifest: { 'tool-01': { kind: 'truncated' } } }, /tool-01.*not JSON/],
    ['wrong-shape listing', { list: { kind: 'wrong-shape' } }, /without a "tools" array/],
    ['reset connection', { list: { kind: 'reset' } }, /failed: (connection reset|.*socket|.*other side closed)/i],
    ['404 manifest', { manifest: { 'tool-07': { kind: 'status', status: 404 } } }, /tool-07.*404/],
  ];
  for (const [name, fault, pattern] of faults) {
    it(`fails clearly: ${name}`, async () => {
      api.setFaults(fault);
      try {
        await rejects(readSource(api.url, { ...options, timeoutMs: 300 }), pattern);
      } finally {
        api.setFaults({});
      }
    });
  }

  it('fails clearly on a refused connection', async () => {
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rejects(readSource(`http://127.0.0.1:${port}/api`, options), /connection refused/);
  });
});

describe('source stage: bundle file', () => {
  it('a build loads no HTTP client, API reader or OpenAPI parser until its source needs one', () => {
    const names = staticImports(new URL('../../src/commands/build.ts', import.meta.url));
    assert.ok(names.includes('pipeline/source/read-source.ts'), names.join(' '));
    for (const lazy of ['pipeline/source/http-json.ts', 'pipeline/source/api-source.ts', 'pipeline/source/openapi/openapi-source.ts'])
      assert.ok(!names.includes(lazy), `${lazy} is loaded by every build: ${names.join(' ')}`);
  });

  it('names the file when it is missing or not JSON', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nb-source-'));
    await assert.rejects(readSource(join(dir, 'missing.json')), /missing\.json: no such file/);
    await writeFile(join(dir, 'broken.json'), '{"format": ');
    await assert.rejects(readSource(join(dir, 'broken.json')), /broken\.json is not valid JSON/);
    await writeFile(join(dir, 'ok.json'), JSON.stringify({ format: 'nexusbloom-catalogue/1', tools: [] }));
    const raw = await readSource(join(dir, 'ok.json'));
    assert.deepEqual(raw.document, JSON.parse(await readFile(join(dir, 'ok.json'), 'utf8')));
  });

  it('reads a bundle that starts with a byte order mark, and only there', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nb-source-'));
    const document = { format: 'nexusbloom-catalogue/1', tools: [] };
    await writeFile(join(dir, 'bom.json'), `\ufeff${JSON.stringify(document)}`);
    assert.deepEqual((await readSource(join(dir, 'bom.json'))).document, document);
    await writeFile(join(dir, 'inner.json'), `{\ufeff"format":"x"}`);
    await assert.rejects(readSource(join(dir, 'inner.json')), /inner\.json is not valid JSON/);
  });
});
