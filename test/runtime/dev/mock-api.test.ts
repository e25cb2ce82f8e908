// Tests of the mock NexusBloom API over real HTTP on 127.0.0.1: endpoints, errors, auth, faults and the request log.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Manifest, ServedCatalogueFile } from '../../../src/runtime/shared/contracts.js';
import {
  manifestsFromBundle,
  manifestsFromServedCatalogue,
  MOCK_API_HEADER,
  startMockApi,
  type MockApi,
  type MockFaults,
} from '../../../src/runtime/dev/mock-api.js';

const catalogue = manifestsFromBundle(JSON.parse(readFileSync(new URL('../../../examples/catalogue.json', import.meta.url), 'utf8')));

function fixtureTool(slug: string, code: string): Manifest {
  return {
    slug,
    name: slug,
    description: `Fixture tool ${slug}`,
    category: 'test',
    tags: [],
    version: '1.0.0',
    input_schema: null,
    output_schema: null,
    source: { runtime: 'node', code },
  };
}

const fixtures: Manifest[] = [
  fixtureTool('throws', 'exports.run = () => { throw new Error("disk quota exceeded"); };'),
  fixtureTool('spins', 'exports.run = () => { for (;;) {} };'),
  fixtureTool('never-settles', 'exports.run = () => new Promise(() => {});'),
  { ...fixtureTool('no-source', ''), source: null },
];

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

async function call(
  base: string,
  method: string,
  path: string,
  options: { body?: unknown; rawBody?: string; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Answer> {
  const init: RequestInit = {
    method,
    headers: { 'content-type': 'application/json', ...options.headers },
    signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
  };
  if (options.rawBody !== undefined) init.body = options.rawBody;
  else if (options.body !== undefined) init.body = JSON.stringify(options.body);
  const response = await fetch(`${base}${path}`, init);
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

function assertErrorEnvelope(answer: Answer, status: number, code: string, retryable: boolean): void {
  assert.equal(answer.status, status, answer.text);
  assert.deepEqual(Object.keys(answer.json).sort(), ['code', 'error', 'retryable', 'success']);
  assert.equal(answer.json.success, false);
  assert.equal(answer.json.code, code);
  assert.equal(answer.json.retryable, retryable);
  assert.equal(typeof answer.json.error, 'string');
  assert.ok(answer.json.error.length > 0);
}

describe('mock API endpoints', () => {
  let api: MockApi;
  before(async () => {
    api = await startMockApi({ manifests: [...catalogue, ...fixtures], runTimeoutMs: 300 });
  });
  after(() => api.close());

  it('serves under /api on 127.0.0.1 and marks its answers', async () => {
    assert.match(api.url, /^http:\/\/127\.0\.0\.1:\d+\/api$/);
    assert.equal(api.url, `http://127.0.0.1:${api.port}/api`);
    const answer = await call(api.url, 'GET', '/tools');
    assert.equal(answer.headers.get(MOCK_API_HEADER), '1');
    assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
    const outside = await call(api.url.replace(/\/api$/, ''), 'GET', '/tools');
    assertErrorEnvelope(outside, 404, 'TOOL_NOT_FOUND', false);
  });

  it('paginates GET /tools with opaque cursors until next_cursor is null', async () => {
    const pages: Array<{ tools: Array<Record<string, unknown>>; next_cursor: string | null }> = [];
    let path = '/tools';
    for (;;) {
      const answer = await call(api.url, 'GET', path);
      assert.equal(answer.status, 200);
      pages.push(answer.json);
      const next = answer.json.next_cursor;
      if (next === null) break;
      assert.equal(typeof next, 'string');
      assert.doesNotMatch(next, /^\d+$/, 'cursors are opaque, not bare offsets');
      path = `/tools?cursor=${encodeURIComponent(next)}`;
    }
    const total = catalogue.length + fixtures.length;
    assert.deepEqual(
      pages.map((page) => page.tools.length),
      [10, 10, 10, total - 30],
    );
    const slugs = pages.flatMap((page) => page.tools.map((tool) => tool.slug as string));
    assert.deepEqual(
      slugs,
      [...catalogue, ...fixtures].map((tool) => tool.slug).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
    );

    const entry = pages.flatMap((page) => page.tools).find((tool) => tool.slug === 'current-time')!;
    assert.deepEqual(Object.keys(entry).sort(), ['category', 'description', 'has_schema', 'has_source', 'name', 'slug', 'tags', 'version']);
    assert.equal(entry.has_schema, false);
    assert.equal(entry.has_source, true);
    const noSource = pages.flatMap((page) => page.tools).find((tool) => tool.slug === 'no-source')!;
    assert.equal(noSource.has_source, false);
  });

  it('honours the pageSize option and rejects a forged cursor', async () => {
    const small = await startMockApi({ manifests: catalogue.slice(0, 5), pageSize: 2 });
    try {
      const first = await call(small.url, 'GET', '/tools');
      assert.equal(first.json.tools.length, 2);
      const last = await call(
        small.url,
        'GET',
        `/tools?cursor=${encodeURIComponent(
          (await call(small.url, 'GET', `/tools?cursor=${encodeURIComponent(first.json.next_cursor)}`)).json.next_cursor,
        )}`,
      );
      assert.equal(last.json.tools.length, 1);
      assert.equal(last.json.next_cursor, null);
      assertErrorEnvelope(await call(small.url, 'GET', '/tools?cursor=not-a-cursor'), 400, 'VALIDATION_ERROR', false);
      const empty = await startMockApi({ manifests: [] });
      assert.deepEqual((await call(empty.url, 'GET', '/tools')).json, { tools: [], next_cursor: null });
      await empty.close();
    } finally {
      await small.close();
    }
  });

  it('serves manifests by percent-encoded slug, including slash, space and non-ASCII slugs', async () => {
    for (const slug of ['env-validator', 'git/commit-lint', 'Text Stats', 'déaccentuer']) {
      const answer = await call(api.url, 'GET', `/tools/${encodeURIComponent(slug)}`);
      assert.equal(answer.status, 200, slug);
      assert.deepEqual(
        answer.json,
        catalogue.find((tool) => tool.slug === slug),
      );
    }
    // An unencoded slash is a different path, not the slug "git/commit-lint".
    assertErrorEnvelope(await call(api.url, 'GET', '/tools/git/commit-lint'), 404, 'TOOL_NOT_FOUND', false);
    assertErrorEnvelope(await call(api.url, 'GET', '/tools/%E0%A4%A'), 400, 'VALIDATION_ERROR', false);
  });

  it('runs tools with encoded slugs and answers success, result and duration_ms', async () => {
    const env = await call(api.url, 'POST', '/tools/env-validator/run', { body: { params: { env_content: 'DEBUG=true' } } });
    assert.equal(env.status, 200, env.text);
    assert.deepEqual(Object.keys(env.json).sort(), ['duration_ms', 'result', 'success']);
    assert.equal(env.json.success, true);
    assert.equal(typeof env.json.duration_ms, 'number');
    assert.equal(env.json.result.valid, true);
    assert.deepEqual(env.json.result.keys, ['DEBUG']);

    const lint = await call(api.url, 'POST', `/tools/${encodeURIComponent('git/commit-lint')}/run`, {
      body: { params: { message: 'fix: typo' } },
    });
    assert.equal(lint.json.result.valid, true);
    assert.equal(lint.json.result.type, 'fix');
    const stats = await call(api.url, 'POST', `/tools/${encodeURIComponent('Text Stats')}/run`, {
      body: { params: { text: 'one two three' } },
    });
    assert.equal(stats.json.result.words, 3);
    const noParams = await call(api.url, 'POST', '/tools/current-time/run', { body: {} });
    assert.equal(noParams.status, 200);
    assert.ok(Math.abs(noParams.json.result.unix_millis - Date.now()) < 60_000);
  });

  it('rejects invalid params with 400 VALIDATION_ERROR naming the field', async () => {
    const wrongType = await call(api.url, 'POST', '/tools/data-generator/run', { body: { params: { count: 'two' } } });
    assertErrorEnvelope(wrongType, 400, 'VALIDATION_ERROR', false);
    assert.match(wrongType.json.error, /count/);
    const missing = await call(api.url, 'POST', '/tools/env-validator/run', { body: { params: {} } });
    assertErrorEnvelope(missing, 400, 'VALIDATION_ERROR', false);
    assert.match(missing.json.error, /env_content/);
    // A draft-07 schema is validated with draft-07 semantics too.
    const draft07 = await call(api.url, 'POST', '/tools/semver-compare/run', { body: { params: { a: '1.0.0' } } });
    assertErrorEnvelope(draft07, 400, 'VALIDATION_ERROR', false);
    assert.match(draft07.json.error, /"b"|\bb\b/);
    assertErrorEnvelope(await call(api.url, 'POST', '/tools/env-validator/run', { rawBody: '{not json' }), 400, 'VALIDATION_ERROR', false);
    assertErrorEnvelope(await call(api.url, 'POST', '/tools/env-validator/run', { body: { params: [1] } }), 400, 'VALIDATION_ERROR', false);
  });

  it('answers 404 TOOL_NOT_FOUND for unknown slugs and routes, 405 for wrong methods', async () => {
    const manifest = await call(api.url, 'GET', '/tools/env-validatr');
    assertErrorEnvelope(manifest, 404, 'TOOL_NOT_FOUND', false);
    assert.match(manifest.json.error, /env-validatr/);
    assertErrorEnvelope(await call(api.url, 'POST', '/tools/env-validatr/run', { body: { params: {} } }), 404, 'TOOL_NOT_FOUND', false);
    assertErrorEnvelope(await call(api.url, 'GET', '/things'), 404, 'TOOL_NOT_FOUND', false);
    assert.equal((await call(api.url, 'GET', '/tools/env-validator/run')).status, 405);
    assert.equal((await call(api.url, 'DELETE', '/tools/env-validator')).status, 405);
  });

  it('turns a throwing tool into 500 UPSTREAM_ERROR and a stuck one into 504', async () => {
    const thrown = await call(api.url, 'POST', '/tools/throws/run', { body: { params: {} } });
    assertErrorEnvelope(thrown, 500, 'UPSTREAM_ERROR', true);
    assert.equal(thrown.json.error, 'disk quota exceeded');
    for (const slug of ['spins', 'never-settles']) {
      const startedAt = Date.now();
      const stuck = await call(api.url, 'POST', `/tools/${slug}/run`, { body: { params: {} } });
      assertErrorEnvelope(stuck, 504, 'UPSTREAM_ERROR', true);
      assert.ok(Date.now() - startedAt < 3000, `${slug} was not cut off`);
    }
    assertErrorEnvelope(await call(api.url, 'POST', '/tools/no-source/run', { body: { params: {} } }), 501, 'UPSTREAM_ERROR', true);
    // The server keeps working after a runaway tool.
    assert.equal((await call(api.url, 'GET', '/tools/throws')).status, 200);
  });

  it('keeps no state between runs of a tool', async () => {
    const counter = fixtureTool(
      'counter',
      'let calls = 0; exports.run = () => ({ calls: ++calls, globalLeak: typeof globalThis.leaked }); globalThis.leaked = 1;',
    );
    const isolated = await startMockApi({ manifests: [counter] });
    try {
      for (let i = 0; i < 2; i++) {
        const answer = await call(isolated.url, 'POST', '/tools/counter/run', { body: { params: {} } });
        assert.deepEqual(answer.json.result, { calls: 1, globalLeak: 'number' });
      }
      assert.equal((globalThis as { leaked?: unknown }).leaked, undefined);
    } finally {
      await isolated.close();
    }
  });
});

describe('mock API authentication', () => {
  let api: MockApi;
  before(async () => {
    api = await startMockApi({ manifests: catalogue, apiKey: 'nb_test_key' });
  });
  after(() => api.close());

  it('answers 401 AUTH_ERROR without the key or with a wrong one, and serves with it', async () => {
    assertErrorEnvelope(await call(api.url, 'GET', '/tools'), 401, 'AUTH_ERROR', false);
    assertErrorEnvelope(
      await call(api.url, 'GET', '/tools/env-validator', { headers: { authorization: 'Bearer wrong' } }),
      401,
      'AUTH_ERROR',
      false,
    );
    assertErrorEnvelope(
      await call(api.url, 'POST', '/tools/env-validator/run', {
        body: { params: { env_content: 'A=1' } },
        headers: { authorization: 'nb_test_key' },
      }),
      401,
      'AUTH_ERROR',
      false,
    );
    const authorized = { authorization: 'Bearer nb_test_key' };
    assert.equal((await call(api.url, 'GET', '/tools', { headers: authorized })).status, 200);
    const run = await call(api.url, 'POST', '/tools/env-validator/run', { body: { params: { env_content: 'A=1' } }, headers: authorized });
    assert.equal(run.status, 200);
    assert.deepEqual(run.json.result.keys, ['A']);
  });
});

describe('mock API faults', () => {
  let api: MockApi;
  before(async () => {
    api = await startMockApi({ manifests: catalogue });
  });
  after(() => api.close());

  const runEnv = (timeoutMs?: number): Promise<Answer> =>
    call(api.url, 'POST', '/tools/env-validator/run', {
      body: { params: { env_content: 'X=1' } },
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    });

  it('delay: answers normally, late', async () => {
    api.setFaults({ run: { 'env-validator': { kind: 'delay', ms: 250 } } });
    const startedAt = Date.now();
    const answer = await runEnv();
    assert.ok(Date.now() - startedAt >= 240, 'not delayed');
    assert.equal(answer.status, 200);
    assert.equal(answer.json.result.valid, true);
  });

  it('hang: never answers, and close() still finishes promptly', async () => {
    const hanging = await startMockApi({ manifests: catalogue, faults: { list: { kind: 'hang' } } });
    await assert.rejects(call(hanging.url, 'GET', '/tools', { timeoutMs: 300 }), { name: 'TimeoutError' });
    const pending = fetch(`${hanging.url}/tools`).then(
      () => 'answered',
      () => 'failed',
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const startedAt = Date.now();
    await hanging.close();
    assert.ok(Date.now() - startedAt < 1000, 'close() waited for the hung request');
    assert.equal(await pending, 'failed');
    assert.equal(hanging.requests.length, 2);
  });

  it('status: every supported status with its envelope code and retry-after', async () => {
    const expected: Array<[500 | 502 | 503 | 429 | 401 | 403 | 404, string, boolean]> = [
      [500, 'UPSTREAM_ERROR', true],
      [502, 'UPSTREAM_ERROR', true],
      [503, 'UPSTREAM_ERROR', true],
      [429, 'RATE_LIMITED', true],
      [401, 'AUTH_ERROR', false],
      [403, 'AUTH_ERROR', false],
      [404, 'TOOL_NOT_FOUND', false],
    ];
    for (const [status, code, retryable] of expected) {
      api.setFaults({ run: { '*': { kind: 'status', status } } });
      const answer = await runEnv();
      assertErrorEnvelope(answer, status, code, retryable);
      assert.equal(answer.headers.get('retry-after'), null);
    }
    api.setFaults({ run: { '*': { kind: 'status', status: 429, retryAfter: 7 } } });
    const limited = await runEnv();
    assertErrorEnvelope(limited, 429, 'RATE_LIMITED', true);
    assert.equal(limited.headers.get('retry-after'), '7');
  });

  it('garbage: 200 with a body that is not JSON', async () => {
    api.setFaults({ manifest: { '*': { kind: 'garbage' } } });
    const answer = await call(api.url, 'GET', '/tools/env-validator');
    assert.equal(answer.status, 200);
    assert.ok(answer.text.length > 0);
    assert.throws(() => JSON.parse(answer.text), SyntaxError);
  });

  it('wrong-shape: 200 with JSON that is not the API shape', async () => {
    api.setFaults({ list: { kind: 'wrong-shape' } });
    const answer = await call(api.url, 'GET', '/tools');
    assert.equal(answer.status, 200);
    assert.equal(typeof answer.json, 'object');
    assert.equal(answer.json.tools, undefined);
    assert.equal(answer.json.success, undefined);
  });

  it('truncated: 200 with the first half of the real body', async () => {
    api.setFaults({});
    const full = await call(api.url, 'GET', '/tools/env-validator');
    api.setFaults({ manifest: { 'env-validator': { kind: 'truncated' } } });
    const answer = await call(api.url, 'GET', '/tools/env-validator');
    assert.equal(answer.status, 200);
    assert.equal(answer.text, full.text.slice(0, Math.floor(full.text.length / 2)));
    assert.throws(() => JSON.parse(answer.text), SyntaxError);
  });

  it('reset: the connection is destroyed without an answer', async () => {
    api.setFaults({ run: { 'env-validator': { kind: 'reset' } } });
    await assert.rejects(runEnv(), TypeError);
    api.setFaults({});
    assert.equal((await runEnv()).status, 200, 'the server survives a reset');
  });

  it('applies per-slug faults before "*", only to their endpoint, and `times` limits them', async () => {
    api.setFaults({
      run: { '*': { kind: 'status', status: 503 }, 'env-validator': { kind: 'status', status: 429, times: 2 } },
    });
    assert.equal((await runEnv()).status, 429);
    assert.equal((await runEnv()).status, 429);
    // After its two uses the slug's own fault is spent; it does not fall back to "*".
    assert.equal((await runEnv()).status, 200);
    const other = await call(api.url, 'POST', '/tools/http-status-lookup/run', { body: { params: { code: 200 } } });
    assert.equal(other.status, 503);
    assert.equal((await call(api.url, 'GET', '/tools/env-validator')).status, 200, 'run faults leave the manifest endpoint alone');
    api.setFaults({});
  });

  it('rejects malformed faults', () => {
    assert.throws(() => api.setFaults({ run: { '*': { kind: 'explode' } } } as unknown as MockFaults), /unknown kind/);
    assert.throws(() => api.setFaults({ list: { kind: 'status', status: 418 } } as unknown as MockFaults), /status/);
    assert.throws(() => api.setFaults({ lists: {} } as unknown as MockFaults), /Unknown fault endpoint/);
  });

  it('sets, reads and clears faults over HTTP at /__mock/faults', async () => {
    const control = api.url.replace(/\/api$/, '');
    const set = await call(control, 'POST', '/__mock/faults', { body: { run: { '*': { kind: 'status', status: 502, times: 1 } } } });
    assert.equal(set.status, 200);
    assert.deepEqual(set.json, { run: { '*': { kind: 'status', status: 502, times: 1 } } });
    assert.equal((await runEnv()).status, 502);
    assert.deepEqual((await call(control, 'GET', '/__mock/faults')).json, {}, 'a spent fault is no longer listed');
    assertErrorEnvelope(
      await call(control, 'POST', '/__mock/faults', { body: { run: { '*': { kind: 'nope' } } } }),
      400,
      'VALIDATION_ERROR',
      false,
    );
    await call(control, 'POST', '/__mock/faults', { body: { list: { kind: 'hang' } } });
    assert.deepEqual((await call(control, 'POST', '/__mock/faults', { body: {} })).json, {});
    assert.equal((await call(api.url, 'GET', '/tools')).status, 200);
  });
});

describe('mock API request log', () => {
  it('records method, raw path, decoded slug, body and authorization of /api requests only', async () => {
    const api = await startMockApi({ manifests: catalogue, apiKey: 'k1' });
    try {
      const auth = { authorization: 'Bearer k1' };
      await call(api.url, 'GET', '/tools?cursor=abc', { headers: auth });
      await call(api.url, 'GET', `/tools/${encodeURIComponent('git/commit-lint')}`);
      await call(api.url, 'POST', `/tools/${encodeURIComponent('Text Stats')}/run`, { body: { params: { text: 'hi' } }, headers: auth });
      await call(api.url.replace(/\/api$/, ''), 'GET', '/__mock/faults');
      assert.deepEqual(api.requests, [
        { method: 'GET', path: '/api/tools?cursor=abc', endpoint: 'list', authorization: 'Bearer k1' },
        { method: 'GET', path: '/api/tools/git%2Fcommit-lint', endpoint: 'manifest', slug: 'git/commit-lint' },
        {
          method: 'POST',
          path: '/api/tools/Text%20Stats/run',
          endpoint: 'run',
          slug: 'Text Stats',
          body: { params: { text: 'hi' } },
          authorization: 'Bearer k1',
        },
      ]);
    } finally {
      await api.close();
    }
  });
});

describe('manifest loaders', () => {
  it('manifestsFromBundle returns the tools and rejects bad bundles', () => {
    const tool = catalogue[0]!;
    assert.deepEqual(manifestsFromBundle({ format: 'nexusbloom-catalogue/1', tools: [tool] }), [tool]);
    assert.throws(() => manifestsFromBundle({ format: 'other', tools: [] }), /nexusbloom-catalogue\/1/);
    assert.throws(() => manifestsFromBundle({ format: 'nexusbloom-catalogue/1' }), /tools/);
    assert.throws(() => manifestsFromBundle({ format: 'nexusbloom-catalogue/1', tools: [tool, tool] }), /Duplicate slug/);
    assert.throws(() => manifestsFromBundle({ format: 'nexusbloom-catalogue/1', tools: [{ ...tool, name: 3 }] }), /\/tools\/0\/name/);
  });

  it('manifestsFromServedCatalogue returns the manifests of served tools', () => {
    const served: ServedCatalogueFile = {
      format: 'nexusbloom-served-catalogue/1',
      tools: catalogue.slice(0, 2).map((manifest) => ({ slug: manifest.slug, manifest, identifier: 'x', withheldReason: null })),
    };
    assert.deepEqual(manifestsFromServedCatalogue(served), catalogue.slice(0, 2));
    assert.throws(
      () => manifestsFromServedCatalogue({ format: 'nexusbloom-catalogue/1', tools: [] } as unknown as ServedCatalogueFile),
      /served/,
    );
  });

  it('refuses to start with duplicate slugs', async () => {
    await assert.rejects(startMockApi({ manifests: [catalogue[0]!, catalogue[0]!] }), /Duplicate slug/);
  });
});
