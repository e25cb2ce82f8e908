// The source stage against APIs on 127.0.0.1 that never stop: an endless or gzip-bomb body, a listing that adds a new
// slug on every page, one that is slow forever. Each read stops at its cap with an error naming the URL and the cap,
// and `pull` writes nothing.

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { SourceError } from '../../src/pipeline/source/http-json.js';
import { readSource, type SourceOptions } from '../../src/pipeline/source/read-source.js';
import { runCli } from '../helpers/cli.js';
import { manifest, sendJson, startHttp } from '../runtime/core-fixtures.js';
import { rejectionOf } from '../helpers/rejection.js';

const MiB = 2 ** 20;
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

/** A listing whose every page names one new tool and a next page. */
function endlessListing() {
  return startHttp((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/api/tools') {
      const page = Number(url.searchParams.get('cursor') ?? 0);
      return sendJson(res, 200, { tools: [entry(`tool-${page}`)], next_cursor: String(page + 1) });
    }
    sendJson(res, 200, manifest({ slug: decodeURIComponent(url.pathname.slice('/api/tools/'.length)) }));
  });
}

const sourceError = (promise: Promise<unknown>): Promise<SourceError> => rejectionOf(promise, SourceError);

const options = (limits: SourceOptions['limits']): SourceOptions => ({ timeoutMs: 5000, concurrency: 4, limits });

describe('source limits', () => {
  it('a listing that adds a tool on every page stops at --max-pages, naming the URL and the cap', async () => {
    const api = await endlessListing();
    try {
      const error = await sourceError(readSource(api.url, options({ maxPages: 50 })));
      assert.match(error.message, /\/api\/tools\?cursor=49 is page 50 of the listing.*cap of 50 pages \(50 tools so far\).*--max-pages/);
      assert.equal(api.requests.length, 50, 'no manifest is fetched for a listing that did not end');
    } finally {
      await api.close();
    }
  });

  it('stops at --max-tools', async () => {
    const api = await endlessListing();
    try {
      const error = await sourceError(readSource(api.url, options({ maxTools: 30 })));
      assert.match(error.message, /past 30 tools \(page 31\).*--max-tools/);
    } finally {
      await api.close();
    }
  });

  it('stops a read that takes longer than --max-read-seconds, however each request behaves', async () => {
    // Every page answers well within the per-request timeout, slowly enough that the whole read never ends.
    const api = await startHttp((req, res) => {
      const page = Number(new URL(req.url, 'http://x').searchParams.get('cursor') ?? 0);
      setTimeout(() => sendJson(res, 200, { tools: [entry(`tool-${page}`)], next_cursor: String(page + 1) }), 50);
    });
    try {
      const started = Date.now();
      const error = await sourceError(readSource(api.url, options({ maxReadMs: 1000 })));
      assert.match(error.message, /reading the catalogue at http:\/\/127\.0\.0\.1:\d+\/api took longer than 1 s.*--max-read-seconds/);
      assert.ok(Date.now() - started < 5000);
    } finally {
      await api.close();
    }
  });

  it('a gzip-bomb manifest stops at --max-body-mb, naming the URL, the tool and the cap', async () => {
    const member = gzipSync(Buffer.alloc(16 * MiB, 0x20));
    const api = await startHttp((req, res) => {
      if (req.url === '/api/tools') return sendJson(res, 200, { tools: [entry('alpha')], next_cursor: null });
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      for (let i = 0; i < 64; i += 1) res.write(member);
      res.end();
    });
    try {
      const error = await sourceError(readSource(api.url, options({ maxBodyBytes: 2 * MiB })));
      assert.match(
        error.message,
        /GET http:\/\/127\.0\.0\.1:\d+\/api\/tools\/alpha \(tool "alpha"\) answered \(HTTP 200\) with a body over 2097152 bytes.*--max-body-mb/,
      );
      assert.equal(error.problems[0]?.slug, 'alpha');
    } finally {
      await api.close();
    }
  });

  it('pull stops an endless listing and writes no bundle', async () => {
    const api = await endlessListing();
    const dir = mkdtempSync(join(tmpdir(), 'nexusbloom-limits-'));
    try {
      const out = join(dir, 'catalogue.json');
      const result = await runCli(['pull', '--source', api.url, '--out', out, '--max-pages', '20']);
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stderr, /cap of 20 pages/);
      assert.equal(existsSync(out), false);
    } finally {
      await api.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
