// The SDK against the mock API with injected faults: retries for tools safe to repeat, backoff, retry-after,
// per-client and per-call settings, a caller's fetch and headers, and cancellation at any point.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bindSdk, ToolCallError, type BoundSdk } from '../../src/runtime/execution/sdk.js';
import type { FetchLike } from '../../src/runtime/execution/api-transport.js';
import type { ServedCatalogueFile } from '../../src/runtime/shared/contracts.js';
import { startMockApi, type MockApi, type MockFaults } from '../../src/runtime/dev/mock-api.js';
import { manifest, servedTool, testNames } from './core-fixtures.js';

const source = { runtime: 'node' as const, code: 'exports.run = (p) => ({ echoed: p.text });' };
const schemas = {
  input_schema: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } },
  output_schema: { type: 'object', required: ['echoed'], properties: { echoed: { type: 'string' } } },
};
const manifests = [
  manifest({ slug: 'lookup', annotations: { readOnlyHint: true }, source, ...schemas }),
  manifest({ slug: 'put-thing', annotations: { idempotentHint: true, destructiveHint: true }, source, ...schemas }),
  manifest({ slug: 'send-mail', annotations: { readOnlyHint: false }, source, ...schemas }),
];

describe('SDK retries against the mock API', () => {
  let mock: MockApi;
  let dir: string;
  let sdk: BoundSdk;
  // Fast backoff so the suite stays quick; the delays themselves are asserted in retry.test.ts.
  const fast = { baseDelayMs: 20 };

  before(async () => {
    mock = await startMockApi({ manifests });
    dir = await mkdtemp(join(tmpdir(), 'nb-sdk-retries-'));
    const file: ServedCatalogueFile = { format: 'nexusbloom-served-catalogue/1', tools: manifests.map((m) => servedTool(m)) };
    await writeFile(join(dir, 'catalogue.json'), JSON.stringify(file));
    sdk = bindSdk({ names: testNames, catalogueUrl: pathToFileURL(join(dir, 'catalogue.json')) }).withOptions({
      apiUrl: mock.url,
      env: {},
      retries: fast,
    });
  });
  after(async () => {
    await mock.close();
    await rm(dir, { recursive: true, force: true });
  });

  const runs = (slug: string): number => mock.requests.filter((r) => r.endpoint === 'run' && r.slug === slug).length;
  const faulted = (faults: MockFaults): void => {
    mock.setFaults(faults);
    mock.requests.length = 0;
  };
  const failure = async (call: Promise<unknown>): Promise<ToolCallError> => {
    try {
      await call;
    } catch (error) {
      assert.ok(error instanceof ToolCallError, String(error));
      return error;
    }
    assert.fail('the call succeeded');
  };

  it('retries a read-only tool through two 503s and returns its result', async () => {
    faulted({ run: { lookup: { kind: 'status', status: 503, times: 2 } } });
    assert.deepEqual(await sdk.invoke('lookup', { text: 'a' }), { echoed: 'a' });
    assert.equal(runs('lookup'), 3);
  });

  it('retries an idempotent tool after a reset connection', async () => {
    faulted({ run: { 'put-thing': { kind: 'reset', times: 1 } } });
    assert.deepEqual(await sdk.invoke('put-thing', { text: 'b' }), { echoed: 'b' });
    assert.equal(runs('put-thing'), 2);
  });

  it('does not send a tool that may not run twice again, unless the call asks for it', async () => {
    faulted({ run: { 'send-mail': { kind: 'status', status: 503, times: 1 } } });
    const error = await failure(sdk.invoke('send-mail', { text: 'c' }));
    assert.equal(error.code, 'UPSTREAM_ERROR');
    assert.equal(error.status, 503);
    assert.equal(error.retryable, true);
    assert.equal(error.slug, 'send-mail');
    assert.equal(error.attempts, 1);
    assert.equal(runs('send-mail'), 1);
    faulted({ run: { 'send-mail': { kind: 'status', status: 503, times: 1 } } });
    assert.deepEqual(await sdk.invoke('send-mail', { text: 'c' }, { retries: { tools: 'always' } }), { echoed: 'c' });
    assert.equal(runs('send-mail'), 2);
  });

  it('gives up after maxRetries and says how many attempts were made', async () => {
    faulted({ run: { lookup: { kind: 'status', status: 502 } } });
    const error = await failure(sdk.invoke('lookup', { text: 'd' }, { retries: { maxRetries: 3 } }));
    assert.equal(error.code, 'UPSTREAM_ERROR');
    assert.equal(error.attempts, 4);
    assert.match(error.message, /4 attempts made/);
    assert.equal(runs('lookup'), 4);
    faulted({ run: { lookup: { kind: 'status', status: 502 } } });
    // A number is maxRetries; false turns retries off, per call, over the client's setting.
    assert.equal((await failure(sdk.invoke('lookup', { text: 'd' }, { retries: 1 }))).attempts, 2);
    assert.equal((await failure(sdk.invoke('lookup', { text: 'd' }, { retries: false }))).attempts, 1);
    assert.equal(runs('lookup'), 3);
  });

  it('waits the retry-after of a 429 before the next attempt', async () => {
    faulted({ run: { lookup: { kind: 'status', status: 429, retryAfter: 1, times: 1 } } });
    const started = Date.now();
    assert.deepEqual(await sdk.invoke('lookup', { text: 'e' }), { echoed: 'e' });
    assert.ok(Date.now() - started >= 1000, `retried after ${Date.now() - started} ms`);
    assert.equal(runs('lookup'), 2);
    // A retry-after beyond maxDelayMs ends the call at once instead of waiting.
    faulted({ run: { lookup: { kind: 'status', status: 429, retryAfter: 120, times: 1 } } });
    const error = await failure(sdk.invoke('lookup', { text: 'e' }));
    assert.equal(error.code, 'RATE_LIMITED');
    assert.equal(error.details?.retry_after_s, 120);
    assert.equal(runs('lookup'), 1);
  });

  it('retries a timed-out attempt, each attempt with the whole timeout', async () => {
    faulted({ run: { lookup: { kind: 'hang', times: 1 } } });
    assert.deepEqual(await sdk.invoke('lookup', { text: 'f' }, { timeoutMs: 300 }), { echoed: 'f' });
    assert.equal(runs('lookup'), 2);
    faulted({ run: { lookup: { kind: 'hang' } } });
    const error = await failure(sdk.invoke('lookup', { text: 'f' }, { timeoutMs: 150, retries: 1 }));
    assert.equal(error.code, 'TIMEOUT');
    assert.equal(error.attempts, 2);
    assert.match(error.message, /options\.timeoutMs/);
  });

  it('cancels a call in flight and a call waiting to retry, without another attempt', async () => {
    faulted({ run: { lookup: { kind: 'hang' } } });
    const inFlight = new AbortController();
    setTimeout(() => inFlight.abort(), 100);
    const started = Date.now();
    const error = await failure(sdk.invoke('lookup', { text: 'g' }, { signal: inFlight.signal, timeoutMs: 10_000 }));
    assert.equal(error.code, 'CANCELLED');
    assert.ok(Date.now() - started < 5000);
    assert.equal(runs('lookup'), 1);

    // A retry-after the SDK waits out whole: a drawn backoff (full jitter, up to 60 s) could end before the signal.
    faulted({ run: { lookup: { kind: 'status', status: 503, retryAfter: 30 } } });
    const waiting = new AbortController();
    setTimeout(() => waiting.abort(), 200);
    const again = Date.now();
    const cancelled = await failure(
      sdk.invoke('lookup', { text: 'g' }, { signal: waiting.signal, retries: { baseDelayMs: 60_000, maxDelayMs: 60_000 } }),
    );
    assert.equal(cancelled.code, 'CANCELLED');
    assert.ok(Date.now() - again < 5000, 'the wait before the retry ended with the signal');
    assert.equal(runs('lookup'), 1);
  });

  it("cancels every call of a client through the client's signal, and a call's own signal too", async () => {
    faulted({ run: { lookup: { kind: 'hang' } } });
    const clientSignal = new AbortController();
    const client = sdk.withOptions({ signal: clientSignal.signal, timeoutMs: 10_000 });
    const own = new AbortController();
    let firstSettled = false;
    const calls = [
      client.invoke('lookup', { text: 'h' }).finally(() => (firstSettled = true)),
      client.invoke('lookup', { text: 'h' }, { signal: own.signal }),
    ];
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal(runs('lookup'), 2, 'both calls are in flight');
    own.abort();
    assert.equal((await failure(calls[1]!)).code, 'CANCELLED');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(firstSettled, false, "the call's own signal cancels that call only");
    clientSignal.abort();
    assert.equal((await failure(calls[0]!)).code, 'CANCELLED');
  });

  it("sends through a caller's fetch with the client's and the call's headers, and retries there too", async () => {
    faulted({ run: { lookup: { kind: 'status', status: 500, times: 1 } } });
    const seen: Array<Record<string, string>> = [];
    const recording: FetchLike = (url, init) => {
      seen.push(init.headers);
      return fetch(url, init);
    };
    const client = sdk.withOptions({ fetch: recording, headers: { 'x-trace': 'client', 'x-team': 'a' } });
    assert.deepEqual(await client.invoke('lookup', { text: 'i' }, { headers: { 'x-trace': 'call' } }), { echoed: 'i' });
    assert.equal(seen.length, 2);
    assert.equal(seen[0]!['x-trace'], 'call');
    assert.equal(seen[0]!['x-team'], 'a');
    assert.equal(seen[0]!['content-type'], 'application/json');
  });

  it('names the option that was used when the API cannot be reached', async () => {
    const closed = await startMockApi({ manifests });
    const url = closed.url;
    await closed.close();
    const error = await failure(sdk.invoke('lookup', { text: 'j' }, { apiUrl: url, retries: 0 }));
    assert.equal(error.code, 'API_UNREACHABLE');
    assert.match(error.message, /options\.apiUrl/);
    assert.doesNotMatch(error.message, /NEXUSBLOOM_API_URL/);
  });

  it('refuses an unusable retries setting by its option name, before any request', async () => {
    faulted({});
    const error = await failure(sdk.invoke('lookup', { text: 'k' }, { retries: { maxRetries: -1 } }));
    assert.equal(error.code, 'CONFIG_ERROR');
    assert.match(error.message, /options\.retries\.maxRetries must be a whole number/);
    assert.equal(runs('lookup'), 0);
  });

  it('points a validation failure at the field, with the slug', async () => {
    const error = await failure(sdk.invoke('lookup', { text: 1 }));
    assert.ok(error.is('VALIDATION_ERROR'));
    assert.equal(error.pointer, '/text');
    assert.equal(error.slug, 'lookup');
  });
});
