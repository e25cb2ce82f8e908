// Every fault a real network and a hostile tool can produce, through the generated server over real stdio: each call
// is answered with the right code, the server stays up, and the next call works.

import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startMockApi, type MockApi, type MockFaults } from '../../src/runtime/dev/mock-api.js';
import type { Manifest, ToolFailure } from '../../src/runtime/shared/contracts.js';
import { bundle, tool } from '../fixtures/catalogues.js';
import { builtPackage, call, connectServer, dataOf, type ServerSession } from '../helpers/mcp.js';

const ECHO = tool('echo', {
  input_schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  output_schema: { type: 'object', properties: { echoed: { type: 'string' } }, required: ['echoed'] },
  source: { runtime: 'node', code: 'exports.run = (p) => ({ echoed: p.text });' },
  examples: [{ params: { text: 'hi' }, result: { echoed: 'hi' } }],
});

/** Tools whose source misbehaves on purpose, for local execution. */
const hostile = (slug: string, code: string): Manifest =>
  tool(slug, { input_schema: { type: 'object', properties: {} }, output_schema: null, source: { runtime: 'node', code }, examples: [] });

const HOSTILE_TOOLS: Manifest[] = [
  hostile('infinite-loop', 'exports.run = () => { for (;;) {} };'),
  hostile('memory-bomb', 'exports.run = () => { const a = []; for (;;) a.push(new Array(1e6).fill(Math.random())); };'),
  hostile('stdout-writer', 'exports.run = () => { process.stdout.write("not json-rpc\\n"); console.log("noise"); return { ok: true }; };'),
  hostile('exits', 'exports.run = () => { process.exit(0); };'),
  hostile(
    'reads-key',
    'exports.run = () => ({ key: process.env.NEXUSBLOOM_API_KEY ?? null, secret: process.env.MY_SECRET_TOKEN ?? null, path: typeof process.env.PATH });',
  ),
  hostile('throws-string', 'exports.run = () => { throw "a plain string"; };'),
  hostile('rejects-object', 'exports.run = async () => { throw { not: "an Error" }; };'),
];

const CATALOGUE = JSON.stringify(bundle([ECHO, ...HOSTILE_TOOLS]));

function failureOf(result: Awaited<ReturnType<typeof call>>): ToolFailure {
  assert.equal(result.isError, true, JSON.stringify(result));
  return result.structuredContent as unknown as ToolFailure;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('faults through the generated server', () => {
  let dir: string;
  let api: MockApi;
  before(async () => {
    dir = await builtPackage('faults', CATALOGUE);
    api = await startMockApi({ manifests: [ECHO, ...HOSTILE_TOOLS], apiKey: 'right-key' });
  });
  after(async () => api?.close());

  describe('remote execution against a misbehaving API', () => {
    let session: ServerSession;
    before(async () => {
      session = await connectServer(dir, {
        NEXUSBLOOM_API_URL: api.url,
        NEXUSBLOOM_API_KEY: 'right-key',
        NEXUSBLOOM_MCP_TIMEOUT_MS: '800',
      });
    });
    after(async () => session?.close());

    const table: Array<[string, MockFaults, string, boolean]> = [
      ['a slow answer within the deadline', { run: { echo: { kind: 'delay', ms: 200, times: 1 } } }, 'OK', false],
      ['a hung socket', { run: { echo: { kind: 'hang', times: 1 } } }, 'TIMEOUT', true],
      ['500', { run: { echo: { kind: 'status', status: 500, times: 1 } } }, 'UPSTREAM_ERROR', true],
      ['503', { run: { echo: { kind: 'status', status: 503, times: 1 } } }, 'UPSTREAM_ERROR', true],
      ['429 with retry-after', { run: { echo: { kind: 'status', status: 429, retryAfter: 3, times: 1 } } }, 'RATE_LIMITED', true],
      ['401', { run: { echo: { kind: 'status', status: 401, times: 1 } } }, 'AUTH_ERROR', false],
      ['a body that is not JSON', { run: { echo: { kind: 'garbage', times: 1 } } }, 'BAD_RESPONSE', true],
      ['JSON of the wrong shape', { run: { echo: { kind: 'wrong-shape', times: 1 } } }, 'BAD_RESPONSE', true],
      ['a truncated 200', { run: { echo: { kind: 'truncated', times: 1 } } }, 'BAD_RESPONSE', true],
      ['a reset connection', { run: { echo: { kind: 'reset', times: 1 } } }, 'BAD_RESPONSE', true],
    ];
    for (const [fault, faults, code, retryable] of table) {
      it(`${fault} → ${code}, and the next call works`, async () => {
        api.setFaults(faults);
        try {
          const result = await call(session, 'echo', { text: 'x' });
          if (code === 'OK') assert.deepEqual(dataOf(result), { echoed: 'x' });
          else {
            const failure = failureOf(result);
            assert.equal(failure.code, code, failure.error);
            assert.equal(failure.retryable, retryable);
            if (code === 'RATE_LIMITED') assert.equal(failure.details?.retry_after_s, 3);
            if (code === 'AUTH_ERROR') assert.match(failure.error, /NEXUSBLOOM_API_KEY/);
          }
        } finally {
          api.setFaults({});
        }
        assert.deepEqual(dataOf(await call(session, 'echo', { text: 'after' })), { echoed: 'after' });
      });
    }
  });

  it('an API that refuses connections → API_UNREACHABLE on every call, and the server keeps answering', async () => {
    const session = await connectServer(dir, { NEXUSBLOOM_API_URL: `http://127.0.0.1:${await freePort()}/api` });
    try {
      for (let attempt = 0; attempt < 2; attempt++) {
        const failure = failureOf(await call(session, 'echo', { text: 'x' }));
        assert.equal(failure.code, 'API_UNREACHABLE');
        assert.equal(failure.retryable, true);
      }
      const listed = await session.client.listTools();
      assert.ok(listed.tools.some((t) => t.name === 'echo'));
    } finally {
      await session.close();
    }
  });

  describe('local execution of hostile tools', () => {
    let session: ServerSession;
    before(async () => {
      session = await connectServer(dir, {
        NEXUSBLOOM_MCP_EXECUTION: 'local',
        NEXUSBLOOM_MCP_TIMEOUT_MS: '1500',
        NEXUSBLOOM_API_KEY: 'must-not-leak',
        MY_SECRET_TOKEN: 'must-not-leak-either',
        NEXUSBLOOM_API_URL: 'http://127.0.0.1:9/api',
      });
    });
    after(async () => session?.close());

    const table: Array<[string, string]> = [
      ['infinite-loop', 'TIMEOUT'],
      ['memory-bomb', 'EXECUTION_ERROR'],
      ['exits', 'EXECUTION_ERROR'],
      ['throws-string', 'EXECUTION_ERROR'],
      ['rejects-object', 'EXECUTION_ERROR'],
    ];
    for (const [slug, code] of table) {
      it(`${slug} → ${code}, and the next call works`, async () => {
        const failure = failureOf(await call(session, slug, {}));
        assert.equal(failure.code, code, failure.error);
        assert.deepEqual(dataOf(await call(session, 'echo', { text: 'still here' })), { echoed: 'still here' });
      });
    }

    it('a tool writing to stdout cannot reach the MCP transport', async () => {
      const before = session.received.length;
      const result = await call(session, 'stdout-writer', {});
      assert.deepEqual(dataOf(result), { ok: true });
      for (const message of session.received.slice(before)) assert.equal((message as { jsonrpc?: string }).jsonrpc, '2.0');
    });

    it('credentials are stripped from the tool, ordinary variables pass', async () => {
      assert.deepEqual(dataOf(await call(session, 'reads-key', {})), { key: null, secret: null, path: 'string' });
    });

    it('warned once on stderr that local execution is on', () => {
      const warnings = session.stderr().match(/not a security sandbox/gi) ?? [];
      assert.equal(warnings.length, 1, session.stderr());
    });
  });
});
