// Edge cases of the meta-tool and what stands behind it, each checked against a sentence of the server README.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { createApiClient } from '../../src/runtime/execution/api-client.js';
import { MAX_TIMEOUT_MS, readSettings } from '../../src/runtime/settings/config.js';
import { diffRuns, formatRunDiff } from '../../src/runtime/history/diff.js';
import { createRunHistory } from '../../src/runtime/history/history.js';
import { createLocalExecutor } from '../../src/runtime/execution/local-exec.js';
import { captureLog, manifest, servedTool, testNames } from './core-fixtures.js';

const ok = (result: unknown) => ({ ok: true as const, result, durationMs: 1 });

describe('a diff never calls truncated payloads identical ("a truncated payload reporting no differences would be the worst possible failure mode")', () => {
  // Same length, same first 8,000 characters; they differ only past the cut.
  const head = 'a '.repeat(4500);

  it('inputs that differ only past the cut are not reported as identical inputs', () => {
    const history = createRunHistory();
    const from = history.record('word-counter', { text: `${head}x y` }, ok({ words: 4502 }));
    const to = history.record('word-counter', { text: `${head}xyz` }, ok({ words: 4501 }));
    const diff = diffRuns(from, to);
    assert.equal(diff.resultsDiffer, true);
    assert.doesNotMatch(diff.verdict, /inputs identical/);
    assert.match(diff.verdict, /^results differ; inputs not proven identical \(truncated/);
    assert.match(
      formatRunDiff(diff),
      /inputs were truncated and may differ past the cut, so a changed result is not by itself a regression/,
    );
  });

  it('results that differ only past the cut are not reported as identical results', () => {
    const history = createRunHistory();
    const from = history.record('echo', { n: 1 }, ok({ text: `${head}x y` }));
    const to = history.record('echo', { n: 2 }, ok({ text: `${head}xyz` }));
    const diff = diffRuns(from, to);
    assert.doesNotMatch(diff.verdict, /results identical/);
    assert.match(diff.verdict, /^results not proven identical \(truncated; no differences before the cut\); inputs differ/);
  });

  it('untruncated sides keep their plain verdicts', () => {
    const history = createRunHistory();
    const from = history.record('echo', { n: 1 }, ok({ text: 'a'.repeat(9000) }));
    const to = history.record('echo', { n: 1 }, ok({ text: 'b'.repeat(9000) }));
    assert.match(diffRuns(from, to).verdict, /^results differ; inputs identical; payloads truncated/);
  });
});

describe('NEXUSBLOOM_MCP_TIMEOUT_MS is honoured when it is longer than a Node.js timer can wait', () => {
  it('a very long timeout is capped at the longest timer, not turned into an immediate timeout', async () => {
    // The API answers a moment later; an overflowing timer (Node.js fires it after 1 ms) would time the call out first.
    const api = http.createServer((_request, response) => {
      setTimeout(() => response.setHeader('content-type', 'application/json').end('{"success":true,"result":{"ok":1}}'), 50);
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    try {
      const { log, lines } = captureLog();
      const url = `http://127.0.0.1:${(api.address() as AddressInfo).port}/api`;
      const settings = readSettings(testNames, { NEXUSBLOOM_API_URL: url, NEXUSBLOOM_MCP_TIMEOUT_MS: '3000000000' }, log);
      assert.equal(settings.timeoutMs, MAX_TIMEOUT_MS);
      assert.match(lines.join('\n'), /NEXUSBLOOM_MCP_TIMEOUT_MS="3000000000" is longer than the longest timeout/);
      const answer = await createApiClient(testNames, settings, log).runTool('t', {});
      assert.deepEqual(answer, { ok: true, value: { ok: 1 } });
    } finally {
      await new Promise((resolve) => api.close(resolve));
    }
  });
});

describe('history keeps every input member, "__proto__" included ("one run with its input"; "compare two runs field by field")', () => {
  const history = createRunHistory();
  const input = (plain: string, password: string): unknown =>
    JSON.parse(`{"data":{"__proto__":{"plain":"${plain}","password":"${password}"}}}`);
  const from = history.record('t', input('v1', 'hunter2'), ok(1));
  const to = history.record('t', input('v2', 'hunter3'), ok(1));

  it('stores an own "__proto__" member as a member, its secrets masked', () => {
    assert.equal(JSON.stringify(from.input.value), '{"data":{"__proto__":{"plain":"v1","password":"[redacted]"}}}');
    assert.deepEqual(from.maskedInput, ['/data/__proto__/password']);
  });

  it('sees a changed field inside it (the masked one compares as its mask)', () => {
    assert.deepEqual(diffRuns(from, to).input.changed, ['/data/__proto__/plain']);
  });
});

describe('local execution strips the API credentials carried in the API URL ("Credentials are stripped from the child")', () => {
  it('a variable whose value carries credentials does not reach the tool; other variables do', async () => {
    const executor = createLocalExecutor({
      timeoutMs: 20_000,
      log: () => {},
      executionVar: 'NEXUSBLOOM_MCP_EXECUTION',
      env: {
        PATH: process.env.PATH ?? '',
        NEXUSBLOOM_API_URL: 'https://alice:s3cr3t@api.example.test/api',
        SITE_URL: 'https://u:p@example.test/',
        HOME_PAGE: 'https://example.test/',
      },
    });
    const tool = servedTool(
      manifest({
        slug: 'env-reader',
        source: {
          runtime: 'node',
          code: 'exports.run = () => ({ api: process.env.NEXUSBLOOM_API_URL ?? null, site: process.env.SITE_URL ?? null, home: process.env.HOME_PAGE });',
        },
      }),
    );
    const outcome = await executor.run(tool, {});
    assert.deepEqual(outcome.ok && outcome.result, { api: null, site: null, home: 'https://example.test/' });
  });
});

describe('a 404 from the API reads as a sentence ("Errors are actionable")', () => {
  it('names the tool the API does not have, and the tool list', async () => {
    const api = http.createServer((_request, response) => response.writeHead(404).end());
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    try {
      const { log } = captureLog();
      const url = `http://127.0.0.1:${(api.address() as AddressInfo).port}/api`;
      const client = createApiClient(testNames, readSettings(testNames, { NEXUSBLOOM_API_URL: url }, log), log);
      const run = await client.runTool('word-counter', {});
      assert.match(run.ok ? '' : run.failure.error, new RegExp(`^The API at ${url} has no tool "word-counter" \\(HTTP 404\\)\\.`));
      const list = await client.listCatalogue();
      assert.match(list.ok ? '' : list.failure.error, new RegExp(`^The API at ${url} has no tool list \\(HTTP 404\\)\\.`));
    } finally {
      await new Promise((resolve) => api.close(resolve));
    }
  });
});
