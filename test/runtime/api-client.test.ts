import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createApiClient, parseRetryAfter } from '../../src/runtime/execution/api-client.js';
import { readSettings } from '../../src/runtime/settings/config.js';
import { captureLog, manifest, sendJson, startHttp, testNames } from './core-fixtures.js';

function client(apiUrl: string, extra: Record<string, string> = {}) {
  const { log, lines } = captureLog();
  const settings = readSettings(testNames, { NEXUSBLOOM_API_URL: apiUrl, ...extra }, () => {});
  return { api: createApiClient(testNames, settings, log), lines };
}

test('runs a tool: path, body, bearer key, user agent', async () => {
  const http = await startHttp((_req, res) => sendJson(res, 200, { success: true, result: { valid: true }, duration_ms: 3 }));
  try {
    const { api } = client(http.url, { NEXUSBLOOM_API_KEY: 'sk-test' });
    const outcome = await api.runTool('env validator/ü', { env_content: 'A=1' });
    assert.deepEqual(outcome, { ok: true, value: { valid: true } });
    const [req] = http.requests;
    assert.equal(req?.method, 'POST');
    assert.equal(req?.url, '/api/tools/env%20validator%2F%C3%BC/run');
    assert.deepEqual(JSON.parse(req?.body ?? ''), { params: { env_content: 'A=1' } });
    assert.equal(req?.headers.authorization, 'Bearer sk-test');
    assert.equal(req?.headers['user-agent'], '@nexusbloom/mcp-server/1.2.3');
  } finally {
    await http.close();
  }
});

test('no authorization header without a key', async () => {
  const http = await startHttp((_req, res) => sendJson(res, 200, { success: true, result: null }));
  try {
    const outcome = await client(http.url).api.runTool('t', {});
    assert.deepEqual(outcome, { ok: true, value: null });
    assert.equal(http.requests[0]?.headers.authorization, undefined);
  } finally {
    await http.close();
  }
});

test('a refused port is API_UNREACHABLE naming the URL', async () => {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const outcome = await client(`http://127.0.0.1:${port}/api`).api.runTool('t', {});
  assert.equal(outcome.ok, false);
  if (outcome.ok) return;
  assert.equal(outcome.failure.code, 'API_UNREACHABLE');
  assert.equal(outcome.failure.retryable, true);
  assert.match(outcome.failure.error, new RegExp(`http://127\\.0\\.0\\.1:${port}/api`));
  assert.match(outcome.failure.error, /connection refused/);
});

test('credentials in the API URL are sent as Basic auth (an API key wins) and never shown', async () => {
  const http = await startHttp((req, res) =>
    req.url.endsWith('/missing/run') ? sendJson(res, 404, {}) : sendJson(res, 200, { success: true, result: null }),
  );
  const withCredentials = http.url.replace('http://', 'http://admin:hunter2pw@');
  try {
    const { api, lines } = client(withCredentials, { NEXUSBLOOM_MCP_DEBUG: '1' });
    assert.deepEqual(await api.runTool('t', {}), { ok: true, value: null });
    assert.equal(http.requests[0]?.headers.authorization, `Basic ${Buffer.from('admin:hunter2pw').toString('base64')}`);
    const missing = await api.runTool('missing', {});
    assert.ok(!missing.ok);
    assert.equal(api.baseUrl, http.url);
    const shown = JSON.stringify([missing, lines, api.baseUrl]);
    assert.ok(!shown.includes('hunter2pw') && !shown.includes('admin'), shown);
    await client(withCredentials, { NEXUSBLOOM_API_KEY: 'sk-1' }).api.runTool('t', {});
    assert.equal(http.requests[2]?.headers.authorization, 'Bearer sk-1');
  } finally {
    await http.close();
  }

  // Gone: the error text and details.url name the host, not the password. (The first request may go out on the
  // kept-alive connection the closed server left, which fails as an unanswered request rather than a refused one.)
  const { api, lines } = client(withCredentials, { NEXUSBLOOM_MCP_DEBUG: '1' });
  const unreachable = await api.runTool('t', {});
  assert.ok(!unreachable.ok);
  assert.ok(['API_UNREACHABLE', 'BAD_RESPONSE'].includes(unreachable.failure.code), unreachable.failure.error);
  assert.equal(unreachable.failure.details?.url, http.url);
  const shown = JSON.stringify([unreachable, lines]);
  assert.ok(!shown.includes('hunter2pw'), shown);
});

test('an unusable API URL fails every call at once, naming the variable, and never falls back to the default host', async () => {
  // The default host is a local server here, so a fallback would show up as a request.
  const fallback = await startHttp((_req, res) => sendJson(res, 200, { success: true, result: 'sent to the default' }));
  try {
    for (const raw of ['127.0.0.1:4731/api', 'admin:hunter2pw@127.0.0.1:4731/api', 'ftp://127.0.0.1/api']) {
      const settings = readSettings(
        { ...testNames, defaultApiUrl: fallback.url },
        { NEXUSBLOOM_API_URL: raw, NEXUSBLOOM_API_KEY: 'sk-1' },
        () => {},
      );
      const api = createApiClient(testNames, settings, () => {});
      const outcomes = [await api.runTool('t', {}), await api.listCatalogue(), await api.getManifest('t')];
      for (const outcome of outcomes) {
        assert.ok(!outcome.ok, raw);
        assert.equal(outcome.failure.code, 'CONFIG_ERROR');
        assert.equal(outcome.failure.retryable, false);
        assert.match(outcome.failure.error, /NEXUSBLOOM_API_URL=".*" is not an http\(s\) URL/);
        assert.match(outcome.failure.error, /e\.g\. http/);
        assert.ok(!outcome.failure.error.includes('hunter2pw'), outcome.failure.error);
      }
      assert.equal(api.baseUrl, null);
    }
    assert.equal(fallback.requests.length, 0);
  } finally {
    await fallback.close();
  }
});

test('a blank API URL fails every call with CONFIG_ERROR saying it is set but empty, and never reaches the default host', async () => {
  const fallback = await startHttp((_req, res) => sendJson(res, 200, { success: true, result: 'sent to the default' }));
  try {
    for (const raw of ['', '   ']) {
      const settings = readSettings(
        { ...testNames, defaultApiUrl: fallback.url },
        { NEXUSBLOOM_API_URL: raw, NEXUSBLOOM_API_KEY: 'sk-1' },
        () => {},
      );
      const api = createApiClient(testNames, settings, () => {});
      const outcomes = [await api.runTool('t', {}), await api.listCatalogue(), await api.getManifest('t')];
      for (const outcome of outcomes) {
        assert.ok(!outcome.ok, JSON.stringify(raw));
        assert.equal(outcome.failure.code, 'CONFIG_ERROR');
        assert.equal(outcome.failure.retryable, false);
        assert.match(outcome.failure.error, /NEXUSBLOOM_API_URL is set but empty/);
        assert.match(outcome.failure.error, /Unset NEXUSBLOOM_API_URL to use the default/);
        assert.equal(outcome.failure.details?.variable, 'NEXUSBLOOM_API_URL');
      }
    }
    assert.equal(fallback.requests.length, 0);
  } finally {
    await fallback.close();
  }
});

test('an API key a header cannot carry fails every call with CONFIG_ERROR naming the variable, not as a network failure', async () => {
  const http = await startHttp((_req, res) => sendJson(res, 200, { success: true, result: 'sent' }));
  try {
    for (const key of ['ключ-123', 'abc\r\ndef']) {
      const api = client(http.url, { NEXUSBLOOM_API_KEY: key }).api;
      const outcomes = [await api.runTool('t', {}), await api.listCatalogue(), await api.getManifest('t')];
      for (const outcome of outcomes) {
        assert.ok(!outcome.ok);
        assert.equal(outcome.failure.code, 'CONFIG_ERROR');
        assert.equal(outcome.failure.retryable, false);
        assert.match(outcome.failure.error, /NEXUSBLOOM_API_KEY cannot be sent as an HTTP header/);
        assert.equal(outcome.failure.details?.variable, 'NEXUSBLOOM_API_KEY');
        assert.ok(!outcome.failure.error.includes('ключ') && !outcome.failure.error.includes('abc'), outcome.failure.error);
      }
    }
    assert.equal(http.requests.length, 0);
    // Surrounding whitespace (a pasted newline) is not part of the key.
    await client(http.url, { NEXUSBLOOM_API_KEY: '  sk-pasted\n' }).api.runTool('t', {});
    assert.equal(http.requests[0]?.headers.authorization, 'Bearer sk-pasted');
  } finally {
    await http.close();
  }
});

test('a 200 whose body is cut off is BAD_RESPONSE (retryable) saying so, whether or not its first bytes got out', async () => {
  // destroy() right after write() drops the buffered status line and body too: the client sees the connection close
  // after its request went out. With a turn in between, the status line and part of the body arrive first.
  let flushFirst = false;
  const http = await startHttp((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
    res.write('{"success":true,"result":{"out');
    if (flushFirst) setImmediate(() => res.destroy());
    else res.destroy();
  });
  try {
    const dropped = await client(http.url).api.runTool('t', {});
    assert.ok(!dropped.ok);
    assert.equal(dropped.failure.code, 'BAD_RESPONSE', dropped.failure.error);
    assert.equal(dropped.failure.retryable, true);
    assert.match(dropped.failure.error, /closed the connection before answering running "t" \(connection reset\): its answer was cut off/);

    flushFirst = true;
    const partial = await client(http.url).api.runTool('t', {});
    assert.ok(!partial.ok);
    assert.equal(partial.failure.code, 'BAD_RESPONSE', partial.failure.error);
    assert.equal(partial.failure.retryable, true);
    assert.match(partial.failure.error, /cut off the body of its answer to running "t" after 30 bytes of the 100 announced \(HTTP 200/);
    assert.deepEqual(partial.failure.details, { status: 200, received_bytes: 30, expected_bytes: 100 });
  } finally {
    await http.close();
  }
});

test('a hung server times out with TIMEOUT', async () => {
  const http = await startHttp(() => {
    /* never answers */
  });
  try {
    const started = Date.now();
    const outcome = await client(http.url, { NEXUSBLOOM_MCP_TIMEOUT_MS: '150' }).api.runTool('t', {});
    assert.ok(Date.now() - started < 2000);
    assert.equal(outcome.ok, false);
    if (outcome.ok) return;
    assert.equal(outcome.failure.code, 'TIMEOUT');
    assert.equal(outcome.failure.retryable, true);
    assert.match(outcome.failure.error, /150 ms/);
  } finally {
    await http.close();
  }
});

test('a body that stalls after the headers times out too', async () => {
  const http = await startHttp((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"success": true, ');
  });
  try {
    const outcome = await client(http.url, { NEXUSBLOOM_MCP_TIMEOUT_MS: '150' }).api.runTool('t', {});
    assert.equal(outcome.ok ? 'ok' : outcome.failure.code, 'TIMEOUT');
  } finally {
    await http.close();
  }
});

test('the caller can cancel', async () => {
  const http = await startHttp(() => {});
  try {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const outcome = await client(http.url).api.runTool('t', {}, controller.signal);
    assert.equal(outcome.ok, false);
    if (!outcome.ok) {
      assert.equal(outcome.failure.details?.cancelled, true);
      // A cancelled call is neither a timeout nor something to retry on its own.
      assert.equal(outcome.failure.code, 'CANCELLED');
      assert.equal(outcome.failure.retryable, false);
    }
  } finally {
    await http.close();
  }
});

const statusTable: {
  name: string;
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  code: string;
  match: RegExp;
  details?: Record<string, unknown>;
  env?: Record<string, string>;
}[] = [
  {
    name: '500',
    status: 500,
    body: { success: false, error: 'database down', code: 'UPSTREAM_ERROR', retryable: true },
    code: 'UPSTREAM_ERROR',
    match: /database down/,
  },
  { name: '502 html', status: 502, body: '<html>bad gateway</html>', code: 'UPSTREAM_ERROR', match: /502/ },
  {
    name: '429 seconds',
    status: 429,
    body: { success: false, error: 'slow down', code: 'RATE_LIMITED', retryable: true },
    headers: { 'retry-after': '17' },
    code: 'RATE_LIMITED',
    match: /17 s/,
    details: { retry_after_s: 17 },
  },
  {
    name: '401 anonymous',
    status: 401,
    body: { success: false, error: 'key required', code: 'AUTH_ERROR', retryable: false },
    code: 'AUTH_ERROR',
    match: /Set NEXUSBLOOM_API_KEY/,
  },
  {
    name: '403 with key',
    status: 403,
    body: { success: false, error: 'forbidden', code: 'AUTH_ERROR', retryable: false },
    code: 'AUTH_ERROR',
    match: /NEXUSBLOOM_API_KEY was not accepted/,
    env: { NEXUSBLOOM_API_KEY: 'bad' },
  },
  {
    name: '400',
    status: 400,
    body: { success: false, error: 'env_content must be a string', code: 'VALIDATION_ERROR', retryable: false },
    code: 'VALIDATION_ERROR',
    match: /env_content must be a string/,
  },
  {
    name: '404',
    status: 404,
    body: { success: false, error: 'no such tool', code: 'TOOL_NOT_FOUND', retryable: false },
    code: 'TOOL_NOT_FOUND',
    match: /no such tool/,
  },
];

for (const row of statusTable) {
  test(`HTTP ${row.name} → ${row.code}`, async () => {
    const http = await startHttp((_req, res) => {
      if (typeof row.body === 'string') {
        res.writeHead(row.status, { 'content-type': 'text/html', ...row.headers });
        res.end(row.body);
      } else {
        sendJson(res, row.status, row.body, row.headers);
      }
    });
    try {
      const outcome = await client(http.url, row.env).api.runTool('env-validator', {});
      assert.equal(outcome.ok, false);
      if (outcome.ok) return;
      assert.equal(outcome.failure.code, row.code);
      assert.match(outcome.failure.error, row.match);
      for (const [key, value] of Object.entries(row.details ?? {})) assert.equal(outcome.failure.details?.[key], value);
    } finally {
      await http.close();
    }
  });
}

const badBodies: { name: string; respond: Parameters<typeof startHttp>[0] }[] = [
  {
    name: 'non-JSON',
    respond: (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('Service OK');
    },
  },
  {
    name: 'truncated',
    respond: (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"success": true, "resu');
      setTimeout(() => res.socket?.destroy(), 20);
    },
  },
  {
    name: 'truncated without length',
    respond: (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"success": true, "resu');
    },
  },
  { name: 'wrong shape', respond: (_req, res) => sendJson(res, 200, { data: [1, 2, 3] }) },
  { name: 'JSON array', respond: (_req, res) => sendJson(res, 200, [1]) },
  {
    name: 'empty',
    respond: (_req, res) => {
      res.writeHead(200);
      res.end();
    },
  },
];

for (const { name, respond } of badBodies) {
  test(`a ${name} body is BAD_RESPONSE`, async () => {
    const http = await startHttp(respond);
    try {
      const outcome = await client(http.url).api.runTool('t', {});
      assert.equal(outcome.ok, false);
      if (!outcome.ok) assert.equal(outcome.failure.code, 'BAD_RESPONSE', outcome.failure.error);
    } finally {
      await http.close();
    }
  });
}

test('a JSON body after a byte order mark is read as JSON', async () => {
  const http = await startHttp((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(`\ufeff${JSON.stringify({ success: true, result: { n: 1 }, duration_ms: 1 })}`);
  });
  try {
    const outcome = await client(http.url).api.runTool('t', {});
    assert.deepEqual(outcome.ok ? outcome.value : outcome.failure, { n: 1 });
  } finally {
    await http.close();
  }
});

test('debug logs requests to the log, never the key', async () => {
  const http = await startHttp((_req, res) => sendJson(res, 200, { success: true, result: 1 }));
  try {
    const { api, lines } = client(http.url, { NEXUSBLOOM_MCP_DEBUG: '1', NEXUSBLOOM_API_KEY: 'sk-secret' });
    await api.runTool('t', {});
    assert.ok(lines.some((line) => line.includes('POST') && line.includes('/api/tools/t/run')));
    assert.ok(lines.some((line) => line.includes('200')));
    assert.ok(lines.every((line) => !line.includes('sk-secret')));
  } finally {
    await http.close();
  }
});

test('lists the catalogue across pages and reads a manifest', async () => {
  const entry = (slug: string) => ({
    slug,
    name: slug,
    description: 'd',
    category: 'c',
    tags: [],
    version: '1.0.0',
    has_schema: false,
    has_source: false,
  });
  const http = await startHttp((req, res) => {
    if (req.url === '/api/tools') return sendJson(res, 200, { tools: [entry('a'), entry('b')], next_cursor: 'p 2' });
    if (req.url === '/api/tools?cursor=p%202') return sendJson(res, 200, { tools: [entry('c')], next_cursor: null });
    if (req.url === '/api/tools/a%2Fb') return sendJson(res, 200, manifest({ slug: 'a/b' }));
    return sendJson(res, 404, { success: false, error: 'nope', code: 'TOOL_NOT_FOUND', retryable: false });
  });
  try {
    const { api } = client(http.url);
    const list = await api.listCatalogue();
    assert.deepEqual(list.ok ? list.value.map((e) => e.slug) : list.failure, ['a', 'b', 'c']);
    const one = await api.getManifest('a/b');
    assert.equal(one.ok ? one.value.slug : one.failure.error, 'a/b');
    const missing = await api.getManifest('zzz');
    assert.equal(missing.ok ? 'ok' : missing.failure.code, 'TOOL_NOT_FOUND');
  } finally {
    await http.close();
  }
});

test('a cursor loop is BAD_RESPONSE, not a hang', async () => {
  const http = await startHttp((_req, res) => sendJson(res, 200, { tools: [], next_cursor: 'same' }));
  try {
    const list = await client(http.url).api.listCatalogue();
    assert.equal(list.ok ? 'ok' : list.failure.code, 'BAD_RESPONSE');
  } finally {
    await http.close();
  }
});

test('parseRetryAfter reads seconds and HTTP dates', () => {
  assert.equal(parseRetryAfter('30'), 30);
  assert.equal(parseRetryAfter(null), null);
  assert.equal(parseRetryAfter('soon'), null);
  const now = Date.parse('2026-01-01T00:00:00Z');
  assert.equal(parseRetryAfter('Thu, 01 Jan 2026 00:00:45 GMT', now), 45);
});
