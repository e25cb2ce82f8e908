// `--http` beyond loopback with no bearer token refuses to start, unless the exposure is asked for by name.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readHttpSettings } from '../../src/runtime/settings/config.js';
import { isLoopbackHost, unauthenticatedExposure } from '../../src/runtime/callers/exposure.js';
import { serveHttp } from '../../src/runtime/transport/http.js';
import { captureLog, manifest, servedTool, testNames } from './core-fixtures.js';

const catalogue = { format: 'nexusbloom-served-catalogue/1' as const, tools: [servedTool(manifest({ slug: 'word-counter' }))] };

describe('which hosts keep the server on this machine', () => {
  const table: [string, boolean][] = [
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['::1', true],
    ['[::1]', true],
    ['localhost', true],
    ['0:0:0:0:0:0:0:1', true],
    ['::ffff:127.0.0.1', true],
    ['0.0.0.0', false],
    ['::', false],
    ['', false],
    ['192.168.1.10', false],
    ['10.0.0.1', false],
    ['myhost.example', false],
    ['fe80::1', false],
  ];
  for (const [host, loopback] of table) it(`${JSON.stringify(host)} → ${loopback}`, () => assert.equal(isLoopbackHost(host), loopback));
});

describe('serving HTTP beyond loopback', () => {
  const settings = (env: Record<string, string>) => readHttpSettings(testNames, env, captureLog().log);

  it('without a token: refuses to start, before binding anything, naming the variables to set', async () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.10']) {
      const { log } = captureLog();
      await assert.rejects(
        serveHttp({ names: testNames, catalogue, env: { NEXUSBLOOM_MCP_HTTP_HOST: host }, log, port: 0 }),
        (error: Error) => {
          assert.match(error.message, new RegExp(`NEXUSBLOOM_MCP_HTTP_HOST="${host.replace(/\./g, '\\.')}" serves beyond this machine`));
          assert.match(error.message, /NEXUSBLOOM_MCP_HTTP_TOKEN/);
          assert.match(error.message, /NEXUSBLOOM_MCP_HTTP_ALLOW_NO_TOKEN=1/);
          return true;
        },
      );
    }
  });

  it('starts with a token, or when the exposure is declared intended; loopback needs neither', () => {
    assert.equal(unauthenticatedExposure(settings({ NEXUSBLOOM_MCP_HTTP_HOST: '0.0.0.0', NEXUSBLOOM_MCP_HTTP_TOKEN: 't' })), null);
    assert.equal(unauthenticatedExposure(settings({ NEXUSBLOOM_MCP_HTTP_HOST: '0.0.0.0', NEXUSBLOOM_MCP_HTTP_ALLOW_NO_TOKEN: '1' })), null);
    assert.equal(unauthenticatedExposure(settings({})), null);
    assert.notEqual(
      unauthenticatedExposure(settings({ NEXUSBLOOM_MCP_HTTP_HOST: '0.0.0.0', NEXUSBLOOM_MCP_HTTP_ALLOW_NO_TOKEN: 'no' })),
      null,
    );
    assert.notEqual(unauthenticatedExposure(settings({ NEXUSBLOOM_MCP_HTTP_HOST: '0.0.0.0', NEXUSBLOOM_MCP_HTTP_TOKEN: ' , ' })), null);
  });

  it('on loopback without a token it serves as before', async () => {
    const served = await serveHttp({ names: testNames, catalogue, env: {}, log: captureLog().log, port: 0 });
    try {
      assert.match(served.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    } finally {
      await served.close();
    }
  });
});
