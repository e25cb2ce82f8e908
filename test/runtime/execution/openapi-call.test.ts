// The operation caller on its own against a loopback API: OAuth2 client credentials fetched once and reused, an
// optional-auth operation sent without credentials, and a relative server URL that needs <prefix>API_URL.

import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Manifest, ServedTool } from '../../../src/runtime/shared/contracts.js';
import { createOperationCaller } from '../../../src/runtime/execution/openapi-call.js';
import type { OperationCall } from '../../../src/runtime/execution/operation.js';

const names = {
  packageName: 'x',
  packageVersion: '1.0.0',
  serverName: 'x',
  productName: 'X',
  metaToolName: 'x',
  uriScheme: 'x',
  envPrefix: 'X_',
  defaultApiUrl: 'https://x.example/api',
};
const served = (slug: string): ServedTool => ({ slug, manifest: { slug } as Manifest, identifier: slug, withheldReason: null });

describe('operation caller', () => {
  const seen: Array<{ url: string; headers: IncomingHttpHeaders; body: string }> = [];
  let base = '';
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      seen.push({ url: request.url ?? '', headers: request.headers, body });
      if (request.url === '/token') {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: 'tok-1', expires_in: 3600 }));
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true }));
    });
  });
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  const call = (security: string[][]): OperationCall => ({
    method: 'GET',
    path: '/things',
    parameters: [],
    body: null,
    servers: [base],
    security,
    securitySchemes: { cc: { type: 'oauth2', tokenUrl: `${base}/token`, scopes: [] } },
  });

  it('fetches a client-credentials token once, sends it as a bearer token, and reuses it', async () => {
    const caller = createOperationCaller({
      names,
      env: { X_CC_CLIENT_ID: 'id', X_CC_CLIENT_SECRET: 's3' },
      timeoutMs: 2000,
      debug: false,
      log: () => {},
    });
    seen.length = 0;
    for (let i = 0; i < 2; i += 1) {
      const outcome = await caller.call(served('things'), call([['cc']]), {});
      assert.deepEqual(outcome.ok && outcome.result, { ok: true });
    }
    assert.deepEqual(
      seen.map((r) => r.url),
      ['/token', '/things', '/things'],
    );
    assert.equal(seen[0]!.body, 'grant_type=client_credentials');
    assert.equal(seen[0]!.headers.authorization, `Basic ${Buffer.from('id:s3').toString('base64')}`);
    assert.equal(seen[1]!.headers.authorization, 'Bearer tok-1');
  });

  it('optional auth ({} among the alternatives) without credentials sends none', async () => {
    const caller = createOperationCaller({ names, env: {}, timeoutMs: 2000, debug: false, log: () => {} });
    seen.length = 0;
    const outcome = await caller.call(served('things'), call([['cc'], []]), {});
    assert.equal(outcome.ok, true);
    assert.equal(seen[0]!.headers.authorization, undefined);
  });

  it('a relative server URL without <prefix>API_URL is CONFIG_ERROR naming the variable; with it, the call goes there', async () => {
    const relative = { ...call([]), servers: ['/v1'] };
    const unset = await createOperationCaller({ names, env: {}, timeoutMs: 2000, debug: false, log: () => {} }).call(
      served('things'),
      relative,
      {},
    );
    assert.equal(!unset.ok && unset.failure.code, 'CONFIG_ERROR');
    assert.match(!unset.ok ? unset.failure.error : '', /set X_API_URL/);
    seen.length = 0;
    const set = await createOperationCaller({
      names,
      env: { X_API_URL: `${base}/v9/` },
      timeoutMs: 2000,
      debug: false,
      log: () => {},
    }).call(served('things'), relative, {});
    assert.equal(set.ok, true);
    assert.equal(seen[0]!.url, '/v9/things');
  });
});
