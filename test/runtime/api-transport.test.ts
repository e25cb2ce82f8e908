import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { ACCEPTED_ENCODINGS, exchangeWithApi, ExchangeError, type ExchangeFailure } from '../../src/runtime/execution/api-transport.js';
import { createApiClient } from '../../src/runtime/execution/api-client.js';
import { readSettings } from '../../src/runtime/settings/config.js';
import { sendJson, startHttp, testNames } from './core-fixtures.js';
import { rejectionOf } from '../helpers/rejection.js';

const failureOf = async (promise: Promise<unknown>): Promise<ExchangeFailure> => (await rejectionOf(promise, ExchangeError)).failure;

test('sequential exchanges reuse one keep-alive connection', async () => {
  const sockets = new Set<Socket>();
  const server: Server = createServer((_req, res) => sendJson(res, 200, { ok: true }));
  server.on('connection', (socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/x`;
  try {
    for (let i = 0; i < 3; i += 1) {
      const answer = await exchangeWithApi({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        body: '{}',
        timeoutMs: 5000,
      });
      assert.equal(answer.status, 200);
      assert.deepEqual(JSON.parse(answer.text), { ok: true });
      assert.equal(answer.header('content-type'), 'application/json');
      assert.equal(answer.header('x-absent'), null);
    }
    assert.equal(sockets.size, 1);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

test('the body is sent whole with its length, non-ASCII included', async () => {
  const http = await startHttp((_req, res) => sendJson(res, 200, {}));
  try {
    const body = JSON.stringify({ params: { text: 'üñí — 漢字' } });
    await exchangeWithApi({ method: 'POST', url: `${http.url}/t`, headers: {}, body, timeoutMs: 5000 });
    assert.equal(http.requests[0]?.body, body);
    assert.equal(http.requests[0]?.headers['content-length'], String(Buffer.byteLength(body)));
  } finally {
    await http.close();
  }
});

test('a 307 redirect is followed with method and body; a 303 becomes a GET', async () => {
  const http = await startHttp((req, res) => {
    if (req.url === '/api/old') return void res.writeHead(307, { location: '/api/new' }).end();
    if (req.url === '/api/see-other') return void res.writeHead(303, { location: '/api/new' }).end();
    return sendJson(res, 200, { method: req.method, body: req.body });
  });
  try {
    const kept = await exchangeWithApi({
      method: 'POST',
      url: `${http.url}/old`,
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
      timeoutMs: 5000,
    });
    assert.deepEqual(JSON.parse(kept.text), { method: 'POST', body: '{"a":1}' });
    const seeOther = await exchangeWithApi({ method: 'POST', url: `${http.url}/see-other`, headers: {}, body: '{"a":1}', timeoutMs: 5000 });
    assert.deepEqual(JSON.parse(seeOther.text), { method: 'GET', body: '' });
  } finally {
    await http.close();
  }
});

test('the API client follows a redirect to a run result', async () => {
  const http = await startHttp((req, res) => {
    if (req.url?.startsWith('/api/tools/')) return void res.writeHead(308, { location: req.url.replace('/api/', '/v2/') }).end();
    return sendJson(res, 200, { success: true, result: { echoed: JSON.parse(req.body) } });
  });
  try {
    const settings = readSettings(testNames, { NEXUSBLOOM_API_URL: http.url }, () => {});
    const outcome = await createApiClient(testNames, settings, () => {}).runTool('t', { a: 1 });
    assert.deepEqual(outcome, { ok: true, value: { echoed: { params: { a: 1 } } } });
    assert.deepEqual(
      http.requests.map((r) => r.url),
      ['/api/tools/t/run', '/v2/tools/t/run'],
    );
  } finally {
    await http.close();
  }
});

test('a body that breaks off after the status line is "broken", with the status', async () => {
  const http = await startHttp((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
    res.write('{"success": true, "resu');
    setTimeout(() => res.socket?.destroy(), 20);
  });
  try {
    const failure = await failureOf(exchangeWithApi({ method: 'GET', url: `${http.url}/t`, headers: {}, timeoutMs: 5000 }));
    assert.equal(failure.kind, 'broken');
    if (failure.kind === 'broken') assert.equal(failure.status, 200);
  } finally {
    await http.close();
  }
});

test('no answer within the limit is "timeout"; the caller\'s abort is "cancelled"', async () => {
  const http = await startHttp(() => {
    /* never answers */
  });
  try {
    const started = Date.now();
    assert.equal((await failureOf(exchangeWithApi({ method: 'GET', url: `${http.url}/t`, headers: {}, timeoutMs: 100 }))).kind, 'timeout');
    assert.ok(Date.now() - started < 2000);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const cancelled = exchangeWithApi({ method: 'GET', url: `${http.url}/t`, headers: {}, timeoutMs: 5000, signal: controller.signal });
    assert.equal((await failureOf(cancelled)).kind, 'cancelled');
  } finally {
    await http.close();
  }
});

test('an already aborted signal sends nothing', async () => {
  const http = await startHttp((_req, res) => sendJson(res, 200, {}));
  try {
    const failure = await failureOf(
      exchangeWithApi({ method: 'GET', url: `${http.url}/t`, headers: {}, timeoutMs: 5000, signal: AbortSignal.abort() }),
    );
    assert.equal(failure.kind, 'cancelled');
    assert.equal(http.requests.length, 0);
  } finally {
    await http.close();
  }
});

test('a URL that is not http(s) is "unreachable" before anything is sent', async () => {
  assert.equal(
    (await failureOf(exchangeWithApi({ method: 'GET', url: 'ftp://127.0.0.1/api', headers: {}, timeoutMs: 1000 }))).kind,
    'unreachable',
  );
  assert.equal((await failureOf(exchangeWithApi({ method: 'GET', url: 'not a url', headers: {}, timeoutMs: 1000 }))).kind, 'unreachable');
});

test('a redirect to another origin drops the Authorization header; the same origin keeps it', async () => {
  const other = await startHttp((_req, res) => sendJson(res, 200, {}));
  const http = await startHttp((req, res) => {
    if (req.url === '/api/away') return void res.writeHead(307, { location: `${other.url}/landed` }).end();
    if (req.url === '/api/here') return void res.writeHead(307, { location: '/api/landed' }).end();
    return sendJson(res, 200, {});
  });
  try {
    const headers = { authorization: 'Bearer sk-test' };
    await exchangeWithApi({ method: 'GET', url: `${http.url}/away`, headers, timeoutMs: 5000 });
    assert.equal(other.requests[0]?.headers.authorization, undefined);
    await exchangeWithApi({ method: 'GET', url: `${http.url}/here`, headers, timeoutMs: 5000 });
    assert.equal(http.requests.find((r) => r.url === '/api/landed')?.headers.authorization, 'Bearer sk-test');
  } finally {
    await http.close();
    await other.close();
  }
});

test('gzip, deflate (zlib or raw) and br bodies are decoded, and accept-encoding names exactly those', async () => {
  const body = JSON.stringify({ text: 'üñí — 漢字', filler: 'x'.repeat(2000) });
  const encoders: Record<string, (input: Buffer) => Buffer> = {
    gzip: (input) => gzipSync(input),
    deflate: (input) => deflateSync(input),
    'raw-deflate': (input) => deflateRawSync(input),
    br: (input) => brotliCompressSync(input),
    'deflate-then-gzip': (input) => gzipSync(deflateSync(input)),
  };
  const headerOf: Record<string, string> = { 'raw-deflate': 'deflate', 'deflate-then-gzip': 'deflate, gzip' };
  const http = await startHttp((req, res) => {
    const name = req.url.slice('/api/'.length);
    const encoded = (encoders[name] as (input: Buffer) => Buffer)(Buffer.from(body));
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': headerOf[name] ?? name }).end(encoded);
  });
  try {
    for (const name of Object.keys(encoders)) {
      const answer = await exchangeWithApi({ method: 'GET', url: `${http.url}/${name}`, headers: {}, timeoutMs: 5000 });
      assert.equal(answer.text, body, name);
    }
    assert.ok(http.requests.every((r) => r.headers['accept-encoding'] === ACCEPTED_ENCODINGS));
    assert.equal(ACCEPTED_ENCODINGS, 'gzip, deflate, br');
  } finally {
    await http.close();
  }
});

test('a body in an unknown content-encoding is "broken" with a message naming the coding', async () => {
  const http = await startHttp((_req, res) => void res.writeHead(200, { 'content-encoding': 'zstd' }).end('(\xb5/\xfd'));
  try {
    const failure = await failureOf(exchangeWithApi({ method: 'GET', url: `${http.url}/t`, headers: {}, timeoutMs: 5000 }));
    assert.equal(failure.kind, 'broken');
    if (failure.kind === 'broken') assert.match(String(failure.error), /content-encoding "zstd".*cannot decode/);
  } finally {
    await http.close();
  }
});

test("the generated server's API client reads a gzip-encoded run result", async () => {
  const http = await startHttp((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    res.end(gzipSync(JSON.stringify({ success: true, result: { length: 3 } })));
  });
  try {
    const settings = readSettings(testNames, { NEXUSBLOOM_API_URL: http.url }, () => {});
    assert.deepEqual(await createApiClient(testNames, settings, () => {}).runTool('t', {}), { ok: true, value: { length: 3 } });
  } finally {
    await http.close();
  }
});

test('a redirect to a URL that is not http(s) is "unreachable", naming the status and where it pointed', async () => {
  const http = await startHttp((_req, res) => void res.writeHead(302, { location: 'file:///etc/passwd' }).end());
  try {
    const failure = await failureOf(exchangeWithApi({ method: 'GET', url: `${http.url}/t`, headers: {}, timeoutMs: 5000 }));
    assert.equal(failure.kind, 'unreachable');
    if (failure.kind === 'unreachable')
      assert.match(String(failure.error), /redirected \(302\) to file:\/\/\/etc\/passwd: only http\(s\) redirects/);
  } finally {
    await http.close();
  }
});
