// The API transport and client against hostile answers on 127.0.0.1: a body that never ends and a gzip bomb stop at the
// cap, with a failure naming it, and the memory held stays near the cap rather than the size of the answer.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { createApiClient } from '../../src/runtime/execution/api-client.js';
import { exchangeWithApi, ExchangeError, type ExchangeFailure } from '../../src/runtime/execution/api-transport.js';
import { readSettings } from '../../src/runtime/settings/config.js';
import { startHttp, testNames } from './core-fixtures.js';
import { rejectionOf } from '../helpers/rejection.js';

const MiB = 2 ** 20;

/** 1 GiB of JSON whitespace from about 1 MiB of gzip: one 16 MiB member, repeated (a multi-member gzip stream). */
function gzipBomb(res: ServerResponse, contentEncoding = 'gzip'): void {
  const member = gzipSync(Buffer.alloc(16 * MiB, 0x20));
  res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': contentEncoding });
  for (let i = 0; i < 64; i += 1) res.write(member);
  res.end();
}

/** A chunked body that goes on for as long as the client reads. */
function endlessBody(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  const more = (): void => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', more);
  };
  res.on('close', () => res.destroy());
  more();
}

const failureOf = async (promise: Promise<unknown>): Promise<ExchangeFailure> => (await rejectionOf(promise, ExchangeError)).failure;

describe('response bodies are capped as sent and as decoded', () => {
  for (const [label, answer] of [
    ['an endless body', endlessBody],
    ['a gzip bomb', (res: ServerResponse) => gzipBomb(res)],
  ] as const) {
    it(`stops ${label} at the cap, holding little memory`, async () => {
      const http = await startHttp((_req, res) => answer(res));
      try {
        const before = process.memoryUsage().rss;
        const failure = await failureOf(
          exchangeWithApi({ method: 'GET', url: `${http.url}/tools`, headers: {}, timeoutMs: 20_000, maxBodyBytes: 4 * MiB }),
        );
        assert.deepEqual(failure, { kind: 'tooLarge', status: 200, limit: 4 * MiB });
        // A 1 GiB answer read whole would hold at least that; the cap keeps it near 4 MiB (plus the test's own buffers).
        assert.ok(process.memoryUsage().rss - before < 200 * MiB, `RSS grew by ${(process.memoryUsage().rss - before) / MiB} MiB`);
      } finally {
        await http.close();
      }
    });
  }

  it('refuses a body whose content-length is over the cap before reading it', async () => {
    const http = await startHttp((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(10 * MiB) });
      res.write('[');
    });
    try {
      const failure = await failureOf(
        exchangeWithApi({ method: 'GET', url: `${http.url}/tools`, headers: {}, timeoutMs: 5000, maxBodyBytes: MiB }),
      );
      assert.equal(failure.kind, 'tooLarge');
    } finally {
      await http.close();
    }
  });

  it('caps a body reached through a redirect (fetch decodes it) the same way', async () => {
    const http = await startHttp((req, res) => {
      if (req.url === '/api/start') {
        res.writeHead(302, { location: '/api/bomb' });
        return void res.end();
      }
      gzipBomb(res);
    });
    try {
      const failure = await failureOf(
        exchangeWithApi({ method: 'GET', url: `${http.url}/start`, headers: {}, timeoutMs: 20_000, maxBodyBytes: 4 * MiB }),
      );
      assert.deepEqual(failure, { kind: 'tooLarge', status: 200, limit: 4 * MiB });
    } finally {
      await http.close();
    }
  });

  it('an ordinary gzip body under the cap still reads whole', async () => {
    const body = JSON.stringify({ tools: Array.from({ length: 1000 }, (_, i) => ({ slug: `t${i}` })) });
    const http = await startHttp((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync(body));
    });
    try {
      const answer = await exchangeWithApi({
        method: 'GET',
        url: `${http.url}/tools`,
        headers: {},
        timeoutMs: 5000,
        maxBodyBytes: body.length,
      });
      assert.equal(answer.text, body);
    } finally {
      await http.close();
    }
  });

  it('the server API client answers BAD_RESPONSE naming the API, the cap and the variable that raises it', async () => {
    const http = await startHttp((_req, res) => gzipBomb(res));
    try {
      const settings = readSettings(
        testNames,
        { NEXUSBLOOM_API_URL: http.url, NEXUSBLOOM_MCP_MAX_RESPONSE_BYTES: String(2 * MiB) },
        () => {},
      );
      assert.equal(settings.maxResponseBytes, 2 * MiB);
      const client = createApiClient(testNames, settings, () => {});
      const started = Date.now();
      const result = await client.runTool('alpha', {});
      assert.equal(result.ok, false);
      if (result.ok) return;
      assert.equal(result.failure.code, 'BAD_RESPONSE');
      assert.match(
        result.failure.error,
        new RegExp(`${http.url.replace(/[.]/g, '\\.')}.*over ${2 * MiB} bytes.*NEXUSBLOOM_MCP_MAX_RESPONSE_BYTES`),
      );
      assert.ok(Date.now() - started < 10_000);
    } finally {
      await http.close();
    }
  });
});
