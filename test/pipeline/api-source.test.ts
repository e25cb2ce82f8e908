// The API source against small hand-written APIs on 127.0.0.1: what it makes of answers that are valid HTTP but not
// what the listing promised, of listings that repeat or never end, of retryable failures and of encoded bodies.

import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { MAX_PAGES_WITHOUT_NEW_TOOLS } from '../../src/pipeline/source/api-source.js';
import { SourceError } from '../../src/pipeline/source/http-json.js';
import { readSource, type SourceOptions } from '../../src/pipeline/source/read-source.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../../src/pipeline/source/retry.js';
import { PipelineError } from '../../src/pipeline/problems.js';
import { manifest, sendJson, startHttp, type RecordedRequest } from '../runtime/core-fixtures.js';
import { rejectionOf } from '../helpers/rejection.js';

/** A retry policy that records each wait and returns at once, so no test sleeps. */
function recordingRetry(overrides: Partial<RetryPolicy> = {}): RetryPolicy & { waits: number[] } {
  const waits: number[] = [];
  return { ...DEFAULT_RETRY_POLICY, backoffMs: 10, ...overrides, waits, wait: async (ms) => void waits.push(ms) };
}

function options(overrides: SourceOptions = {}): SourceOptions {
  return { timeoutMs: 2000, concurrency: 4, retry: recordingRetry(), ...overrides };
}

const entry = (slug: string) => ({
  slug,
  name: slug,
  description: '',
  category: 'test',
  tags: [],
  version: '1.0.0',
  has_schema: false,
  has_source: false,
});

type Answer = (res: ServerResponse, req: RecordedRequest) => boolean | void;

/**
 * An API whose listing is `pages` (page N is asked for with cursor N; the last has no next_cursor) and whose manifests
 * are the slug's own, unless `detail` answers a request itself (returning true).
 */
async function fakeApi(pages: string[][], detail: Answer = () => false) {
  return startHttp((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/api/tools') {
      const index = Number(url.searchParams.get('cursor') ?? 0);
      const next = index + 1 < pages.length ? String(index + 1) : null;
      return sendJson(res, 200, { tools: (pages[index] ?? []).map(entry), next_cursor: next });
    }
    if (detail(res, req) === true) return;
    sendJson(res, 200, manifest({ slug: decodeURIComponent(url.pathname.slice('/api/tools/'.length)) }));
  });
}

/** Answers `failures` (in order) to GET /api/tools/beta before its manifest. */
function failingBeta(failures: Answer[]): Answer {
  let served = 0;
  return (res, req) => {
    if (req.url !== '/api/tools/beta' || served >= failures.length) return false;
    (failures[served++] as Answer)(res, req);
    return true;
  };
}
const status =
  (code: number, headers: Record<string, string> = {}): Answer =>
  (res) =>
    void sendJson(
      res,
      code,
      { success: false, error: 'transient', code: code === 429 ? 'RATE_LIMITED' : 'UPSTREAM_ERROR', retryable: true },
      headers,
    );

const sourceError = (promise: Promise<unknown>): Promise<SourceError> => rejectionOf(promise, SourceError);

const slugsOf = (document: unknown) => (document as { tools: Array<{ slug: string }> }).tools.map((t) => t.slug);
const hits = (requests: RecordedRequest[], path: string) => requests.filter((r) => r.url === path).length;

describe('API source: each manifest is the listed tool', () => {
  for (const [label, answered] of [
    ['a slug the listing does not have', 'BETA-other'],
    ['the slug of another listed tool', 'alpha'],
  ] as const) {
    it(`rejects a manifest for ${label}, naming the URL, the listed slug and /slug`, async () => {
      const api = await fakeApi([['alpha', 'beta', 'gamma']], (res, req) => {
        if (req.url !== '/api/tools/beta') return false;
        sendJson(res, 200, manifest({ slug: answered }));
        return true;
      });
      try {
        const error = await sourceError(readSource(api.url, options()));
        assert.equal(
          error.message,
          `GET ${api.url}/tools/beta (tool "beta") answered a manifest whose /slug is "${answered}", not the listed slug "beta"`,
        );
        assert.deepEqual(
          error.problems.map((p) => [p.slug, p.pointer]),
          [['beta', '/slug']],
        );
      } finally {
        await api.close();
      }
    });
  }

  it('rejects a manifest without a slug', async () => {
    const api = await fakeApi([['alpha']], (res) => {
      sendJson(res, 200, { name: 'alpha' });
      return true;
    });
    try {
      const error = await sourceError(readSource(api.url, options()));
      assert.equal(
        error.message,
        `GET ${api.url}/tools/alpha (tool "alpha") answered a manifest without /slug for the listed slug "alpha"`,
      );
    } finally {
      await api.close();
    }
  });

  it('rejects a 200 that carries an error envelope, naming the tool it was asked for', async () => {
    const api = await fakeApi([['alpha', 'beta']], (res, req) => {
      if (req.url !== '/api/tools/beta') return false;
      sendJson(res, 200, { success: false, error: 'backend down', code: 'UPSTREAM_ERROR', retryable: true });
      return true;
    });
    try {
      const error = await sourceError(readSource(api.url, options()));
      assert.equal(
        error.message,
        `GET ${api.url}/tools/beta (tool "beta") answered 200 with an error envelope ({"success":false}) instead of a manifest: UPSTREAM_ERROR backend down`,
      );
      assert.equal(error.problems[0]?.slug, 'beta');
    } finally {
      await api.close();
    }
  });
});

describe('API source: the listing', () => {
  it('keeps a slug listed again on a later page once, at its first position, and fetches it once', async () => {
    const api = await fakeApi([
      ['alpha', 'beta'],
      ['beta', 'gamma', 'alpha'],
    ]);
    try {
      const raw = await readSource(api.url, options());
      assert.deepEqual(slugsOf(raw.document), ['alpha', 'beta', 'gamma']);
      assert.deepEqual(
        ['alpha', 'beta', 'gamma'].map((slug) => hits(api.requests, `/api/tools/${slug}`)),
        [1, 1, 1],
      );
    } finally {
      await api.close();
    }
  });

  it(`stops a listing whose cursors never repeat after ${MAX_PAGES_WITHOUT_NEW_TOOLS} pages in a row without a new tool`, async () => {
    const api = await startHttp((req, res) => {
      const cursor = Number(new URL(req.url, 'http://x').searchParams.get('cursor') ?? 0);
      // A bound of the test's own, so that a source that does not stop fails instead of hanging.
      if (cursor > 10 * MAX_PAGES_WITHOUT_NEW_TOOLS)
        return sendJson(res, 400, { success: false, error: 'paged too far', code: 'VALIDATION_ERROR', retryable: false });
      sendJson(res, 200, { tools: cursor === 0 ? [entry('alpha')] : [], next_cursor: String(cursor + 1) });
    });
    try {
      const error = await sourceError(readSource(api.url, options()));
      assert.equal(api.requests.length, 1 + MAX_PAGES_WITHOUT_NEW_TOOLS);
      assert.equal(
        error.message,
        `GET ${api.url}/tools?cursor=${MAX_PAGES_WITHOUT_NEW_TOOLS} is the ${MAX_PAGES_WITHOUT_NEW_TOOLS}th page in a row that lists no new tool, ` +
          `yet its next_cursor asks for another: the listing does not end (stopped after ${MAX_PAGES_WITHOUT_NEW_TOOLS + 1} pages and 1 tools)`,
      );
    } finally {
      await api.close();
    }
  });

  it('follows a long listing whose empty stretches are shorter than the limit, and 3,000 one-tool pages', async () => {
    const sparse = Array.from({ length: 200 }, (_, i) =>
      i % MAX_PAGES_WITHOUT_NEW_TOOLS === MAX_PAGES_WITHOUT_NEW_TOOLS - 1 ? [`t${i}`] : [],
    );
    const long = Array.from({ length: 3000 }, (_, i) => [`tool-${i}`]);
    for (const pages of [sparse, long]) {
      const api = await fakeApi(pages);
      try {
        const raw = await readSource(api.url, options({ concurrency: 16 }));
        assert.deepEqual(slugsOf(raw.document), pages.flat());
      } finally {
        await api.close();
      }
    }
  });
});

describe('API source: retries', () => {
  it('retries a 429 after its retry-after, and a 5xx, a reset and a non-JSON 502 with a doubling backoff', async () => {
    const reset: Answer = (res) => void res.socket?.destroy();
    const proxyPage: Answer = (res) => void res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>');
    const api = await fakeApi([['alpha', 'beta']], failingBeta([status(429, { 'retry-after': '2' }), status(503), reset, proxyPage]));
    const retry = recordingRetry({ retries: 4 });
    try {
      const raw = await readSource(api.url, options({ retry }));
      assert.deepEqual(slugsOf(raw.document), ['alpha', 'beta']);
      assert.equal(hits(api.requests, '/api/tools/beta'), 5);
      assert.deepEqual(retry.waits, [2000, 20, 40, 80]);
    } finally {
      await api.close();
    }
  });

  it('gives up after the last retry and says how many attempts it made', async () => {
    const api = await fakeApi([['beta']], failingBeta(Array.from({ length: 10 }, () => status(503))));
    const retry = recordingRetry({ retries: 3 });
    try {
      const error = await sourceError(readSource(api.url, options({ retry })));
      assert.equal(
        error.message,
        `GET ${api.url}/tools/beta (tool "beta") failed with 503 UPSTREAM_ERROR: transient (the API failed: retry later) (gave up after 4 attempts)`,
      );
      assert.equal(hits(api.requests, '/api/tools/beta'), 4);
      assert.deepEqual(retry.waits, [10, 20, 40]);
    } finally {
      await api.close();
    }
  });

  it('fails at once when a 429 asks for a longer wait than it honours, saying how long', async () => {
    const api = await fakeApi([['beta']], failingBeta([status(429, { 'retry-after': '120' })]));
    const retry = recordingRetry();
    try {
      const error = await sourceError(readSource(api.url, options({ retry })));
      assert.match(
        error.message,
        /failed with 429 RATE_LIMITED.*; the API asked to retry after 120 s, longer than the 30 s this waits \(1 attempt; try again later\)$/,
      );
      assert.deepEqual(retry.waits, []);
    } finally {
      await api.close();
    }
  });

  it('does not retry a 4xx other than 429', async () => {
    for (const code of [400, 401, 403, 404]) {
      const api = await fakeApi([['beta']], failingBeta([status(code)]));
      const retry = recordingRetry();
      try {
        const error = await sourceError(readSource(api.url, options({ retry })));
        assert.match(error.message, new RegExp(`failed with ${code}`));
        assert.doesNotMatch(error.message, /attempt/);
        assert.equal(hits(api.requests, '/api/tools/beta'), 1);
        assert.deepEqual(retry.waits, []);
      } finally {
        await api.close();
      }
    }
  });

  it('retries the listing too', async () => {
    let listed = 0;
    const api = await startHttp((req, res) => {
      if (req.url === '/api/tools' && listed++ === 0) return void res.socket?.destroy();
      if (req.url === '/api/tools') return sendJson(res, 200, { tools: [entry('alpha')], next_cursor: null });
      sendJson(res, 200, manifest({ slug: 'alpha' }));
    });
    try {
      assert.deepEqual(slugsOf((await readSource(api.url, options())).document), ['alpha']);
      assert.equal(hits(api.requests, '/api/tools'), 2);
    } finally {
      await api.close();
    }
  });
});

describe('API source: bodies, redirects, URLs and the key', () => {
  it('reads gzip-encoded answers and a body that starts with a byte order mark', async () => {
    const api = await startHttp((req, res) => {
      const body = JSON.stringify(
        req.url === '/api/tools' ? { tools: [entry('alpha'), entry('beta')], next_cursor: null } : manifest({ slug: req.url.slice(11) }),
      );
      if (req.url === '/api/tools/beta')
        return void res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(`\ufeff${body}`);
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync(body));
    });
    try {
      assert.deepEqual(slugsOf((await readSource(api.url, options())).document), ['alpha', 'beta']);
      assert.equal(api.requests[0]?.headers['accept-encoding'], 'gzip, deflate, br');
    } finally {
      await api.close();
    }
  });

  it('names the status of a redirect without a Location, and of one to a URL that is not http(s)', async () => {
    for (const [headers, pattern] of [
      [{}, /^GET http:\/\/127\.0\.0\.1:\d+\/api\/tools answered 302 without a Location header/],
      [
        { location: 'file:///etc/passwd' },
        /^GET http:\/\/127\.0\.0\.1:\d+\/api\/tools failed: redirected \(302\) to file:\/\/\/etc\/passwd: only http\(s\) redirects are followed$/,
      ],
    ] as const) {
      const api = await startHttp((_req, res) => void res.writeHead(302, headers).end());
      try {
        assert.match((await sourceError(readSource(api.url, options()))).message, pattern);
      } finally {
        await api.close();
      }
    }
  });

  it('names an invalid URL and shows what a valid one looks like', async () => {
    const error = await sourceError(readSource('http://', options()));
    assert.equal(
      error.message,
      'source "http://" is not a valid URL: pass an API base URL such as https://nexusbloom.dev/api or http://127.0.0.1:4010/api',
    );
  });

  it('masks a password in the URL in the origin it reports and in its messages', async () => {
    const api = await fakeApi([['alpha', 'beta']], failingBeta([status(404)]));
    const withPassword = api.url.replace('http://', 'http://user:s3cret@');
    try {
      const error = await sourceError(readSource(withPassword, options()));
      assert.equal(
        error.message.startsWith(`GET ${api.url.replace('http://', 'http://***@')}/tools/beta (tool "beta") failed with 404`),
        true,
        error.message,
      );
      assert.doesNotMatch(`${error.url} ${JSON.stringify(error.problems)}`, /s3cret/);
      const raw = await readSource(withPassword, options());
      assert.equal(raw.origin, api.url.replace('http://', 'http://***@'));
    } finally {
      await api.close();
    }
  });

  it('masks credentials in every URL of every message: a same-origin relative redirect, a redirect to a URL with its own', async () => {
    let origin = '';
    const api = await startHttp((req, res) => {
      const path = new URL(req.url, 'http://x').pathname;
      if (path === '/api/tools') return void res.writeHead(302, { location: '/moved/api/tools' }).end();
      if (path === '/moved/api/tools')
        return void res.writeHead(302, { location: `${origin.replace('http://', 'http://other:pw-elsewhere@')}/gone` }).end();
      res.writeHead(404).end();
    });
    origin = api.url.replace(/\/api$/, '');
    try {
      const error = await sourceError(readSource(api.url.replace('http://', 'http://user:s3cret-pw@'), options()));
      const shown = `${error.message} ${error.url} ${JSON.stringify(error.problems)}`;
      assert.doesNotMatch(shown, /s3cret-pw|pw-elsewhere/);
      assert.match(error.message, /^GET http:\/\/\*\*\*@127\.0\.0\.1:\d+\/api\/tools failed/);
    } finally {
      await api.close();
    }
  });

  it("follows a same-origin relative redirect with the URL's credentials as Basic auth", async () => {
    const api = await startHttp((req, res) => {
      const path = new URL(req.url, 'http://x').pathname;
      if (!path.startsWith('/v2/')) return void res.writeHead(301, { location: `/v2${req.url}` }).end();
      if (req.headers.authorization !== `Basic ${Buffer.from('user:s3cret-pw').toString('base64')}`)
        return sendJson(res, 401, { error: 'no' });
      if (path === '/v2/api/tools') return sendJson(res, 200, { tools: [entry('alpha')], next_cursor: null });
      return sendJson(res, 200, manifest({ slug: 'alpha' }));
    });
    try {
      const raw = await readSource(api.url.replace('http://', 'http://user:s3cret-pw@'), options());
      assert.deepEqual(slugsOf(raw.document), ['alpha']);
    } finally {
      await api.close();
    }
  });

  it('trims the API key, sends none when only whitespace is left, and rejects one a header cannot carry before any request', async () => {
    const api = await fakeApi([['alpha']]);
    try {
      await readSource(api.url, options({ apiKey: '  sekret\n' }));
      assert.ok(api.requests.every((r) => r.headers.authorization === 'Bearer sekret'));
      api.requests.length = 0;
      await readSource(api.url, options({ apiKey: ' \t\n' }));
      assert.ok(api.requests.every((r) => r.headers.authorization === undefined));
      api.requests.length = 0;
      await assert.rejects(readSource(api.url, options({ apiKey: 'sek\nret' })), (error: unknown) => {
        assert.ok(error instanceof PipelineError);
        assert.equal(
          error.message,
          'NEXUSBLOOM_API_KEY holds a character an HTTP header cannot carry (U+000A at character 4 of the trimmed key): set it to the key alone',
        );
        return true;
      });
      assert.equal(api.requests.length, 0);
    } finally {
      await api.close();
    }
  });
});
