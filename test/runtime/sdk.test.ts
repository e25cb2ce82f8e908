import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { bindSdk, ToolCallError, type CallOptions } from '../../src/runtime/execution/sdk.js';
import type { ServedCatalogueFile } from '../../src/runtime/shared/contracts.js';
import { manifest, sendJson, servedTool, startHttp, testNames } from './core-fixtures.js';

const catalogue: ServedCatalogueFile = {
  format: 'nexusbloom-served-catalogue/1',
  tools: [
    servedTool(
      manifest({
        slug: 'env-validator',
        input_schema: { type: 'object', required: ['env_content'], properties: { env_content: { type: 'string' } } },
        output_schema: { type: 'object', required: ['valid'], properties: { valid: { type: 'boolean' } } },
        source: { runtime: 'node', code: 'exports.run = (p) => ({ valid: p.env_content.includes("="), where: "local" });' },
      }),
    ),
  ],
};

async function catalogueFile(content: unknown = catalogue): Promise<{ url: URL; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'nb-sdk-'));
  const path = join(dir, 'catalogue.json');
  await writeFile(path, JSON.stringify(content));
  return { url: pathToFileURL(path), dir };
}

test('invoke posts to the API and returns the result', async () => {
  const http = await startHttp((_req, res) => sendJson(res, 200, { success: true, result: { valid: true }, duration_ms: 1 }));
  const file = await catalogueFile();
  try {
    const sdk = bindSdk({ names: testNames, catalogueUrl: file.url });
    const result = await sdk.invoke<{ valid: boolean }>(
      'env-validator',
      { env_content: 'A=1' },
      { apiUrl: http.url, apiKey: 'sk-1', env: {} },
    );
    assert.deepEqual(result, { valid: true });
    assert.equal(http.requests[0]?.headers.authorization, 'Bearer sk-1');
    assert.equal(http.requests[0]?.url, '/api/tools/env-validator/run');
    const viaEnv = await sdk.invoke('env-validator', { env_content: 'B=2' }, { env: { NEXUSBLOOM_API_URL: http.url } });
    assert.deepEqual(viaEnv, { valid: true });
    assert.equal(http.requests[1]?.headers.authorization, undefined);
  } finally {
    await http.close();
    await rm(file.dir, { recursive: true });
  }
});

test('a bad argument throws VALIDATION_ERROR before any request', async () => {
  const http = await startHttp((_req, res) => sendJson(res, 200, { success: true, result: { valid: true } }));
  const file = await catalogueFile();
  try {
    const sdk = bindSdk({ names: testNames, catalogueUrl: file.url });
    await assert.rejects(sdk.invoke('env-validator', { env_content: 42 }, { apiUrl: http.url, env: {} }), (error: unknown) => {
      assert.ok(error instanceof ToolCallError);
      assert.equal(error.code, 'VALIDATION_ERROR');
      assert.equal(error.retryable, false);
      assert.match(error.message, /`\/env_content` must be string, got integer/);
      return true;
    });
    assert.equal(http.requests.length, 0);
  } finally {
    await http.close();
    await rm(file.dir, { recursive: true });
  }
});

test('API failures and output mismatches throw ToolCallError with the code', async () => {
  let answer: [number, unknown, Record<string, string>?] = [
    429,
    { success: false, error: 'slow down', code: 'RATE_LIMITED', retryable: true },
    { 'retry-after': '9' },
  ];
  const http = await startHttp((_req, res) => sendJson(res, answer[0], answer[1], answer[2]));
  const file = await catalogueFile();
  try {
    const sdk = bindSdk({ names: testNames, catalogueUrl: file.url });
    const call = () => sdk.invoke('env-validator', { env_content: 'A=1' }, { apiUrl: http.url, env: {} });
    await assert.rejects(
      call(),
      (error: unknown) =>
        error instanceof ToolCallError && error.code === 'RATE_LIMITED' && error.retryable && error.details?.retry_after_s === 9,
    );
    answer = [200, { success: true, result: { valid: 'maybe' } }];
    await assert.rejects(call(), (error: unknown) => error instanceof ToolCallError && error.code === 'OUTPUT_MISMATCH');
    await assert.rejects(
      sdk.invoke('nope', {}, { env: {} }),
      (error: unknown) => error instanceof ToolCallError && error.code === 'TOOL_NOT_FOUND',
    );
    await assert.rejects(
      sdk.invoke('env-validator', { env_content: 'x' }, { timeoutMs: 0, env: {} }),
      (error: unknown) => error instanceof ToolCallError && error.code === 'VALIDATION_ERROR',
    );
  } finally {
    await http.close();
    await rm(file.dir, { recursive: true });
  }
});

test('a timeout past the longest Node.js timer waits, instead of timing out at once', async () => {
  const http = await startHttp((_req, res) => {
    setTimeout(() => sendJson(res, 200, { success: true, result: { valid: true } }), 50);
  });
  const file = await catalogueFile();
  try {
    const sdk = bindSdk({ names: testNames, catalogueUrl: file.url });
    const result = await sdk.invoke('env-validator', { env_content: 'A=1' }, { apiUrl: http.url, timeoutMs: 3_000_000_000, env: {} });
    assert.deepEqual(result, { valid: true });
  } finally {
    await http.close();
    await rm(file.dir, { recursive: true });
  }
});

test('local execution through the SDK', async () => {
  const file = await catalogueFile();
  try {
    const sdk = bindSdk({ names: testNames, catalogueUrl: file.url });
    const result = await sdk.invoke(
      'env-validator',
      { env_content: 'A=1' },
      { env: { ...process.env, NEXUSBLOOM_MCP_EXECUTION: 'local', NEXUSBLOOM_API_URL: 'http://127.0.0.1:9' } },
    );
    assert.deepEqual(result, { valid: true, where: 'local' });
  } finally {
    await rm(file.dir, { recursive: true });
  }
});

test('the catalogue is loaded lazily and once', async () => {
  const file = await catalogueFile();
  const http = await startHttp((_req, res) => sendJson(res, 200, { success: true, result: { valid: true } }));
  try {
    const missing = new URL('missing.json', file.url);
    const sdk = bindSdk({ names: testNames, catalogueUrl: missing });
    await assert.rejects(sdk.invoke('env-validator', { env_content: 'x' }, { env: {} }), /Cannot read the tool catalogue/);
    await writeFile(join(file.dir, 'missing.json'), JSON.stringify(catalogue));
    assert.deepEqual(await sdk.invoke('env-validator', { env_content: 'x' }, { apiUrl: http.url, env: {} }), { valid: true });
    await rm(join(file.dir, 'missing.json'));
    assert.deepEqual(await sdk.invoke('env-validator', { env_content: 'y' }, { apiUrl: http.url, env: {} }), { valid: true });
  } finally {
    await http.close();
    await rm(file.dir, { recursive: true });
  }
});

const mapCatalogue: ServedCatalogueFile = {
  format: 'nexusbloom-served-catalogue/1',
  tools: [
    servedTool(
      manifest({
        slug: 'query-builder',
        input_schema: {
          type: 'object',
          required: ['params'],
          additionalProperties: false,
          properties: {
            params: { type: 'object', additionalProperties: { type: 'string' } },
            nested: { type: 'object', properties: { deeper: { type: 'object', additionalProperties: { type: 'string' } } } },
            list: { type: 'array' },
            mode: { enum: ['a', 'b'] },
          },
        },
      }),
    ),
  ],
};

test('undefined members are dropped as JSON would drop them, map entries and nested ones too, in a copy', async () => {
  const http = await startHttp((_req, res) => sendJson(res, 200, { success: true, result: { ok: true } }));
  const file = await catalogueFile(mapCatalogue);
  try {
    const sdk = bindSdk({ names: testNames, catalogueUrl: file.url });
    const input = {
      params: { q: 'x', page: undefined },
      nested: { deeper: { a: '1', b: undefined } },
      list: [{ keep: 1, drop: undefined }],
      mode: undefined,
    };
    const before = structuredClone(input);
    await sdk.invoke('query-builder', input, { apiUrl: http.url, env: {} });
    assert.deepEqual(JSON.parse(http.requests[0]?.body ?? ''), {
      params: { params: { q: 'x' }, nested: { deeper: { a: '1' } }, list: [{ keep: 1 }] },
    });
    assert.deepEqual(input, before, "the caller's object is not changed");
    assert.ok('page' in input.params && 'drop' in (input.list[0] ?? {}), 'its undefined members are still there');
  } finally {
    await http.close();
    await rm(file.dir, { recursive: true });
  }
});

test('undefined inside an array, and a cycle, are VALIDATION_ERRORs naming the place, before any request', async () => {
  const http = await startHttp((_req, res) => sendJson(res, 200, { success: true, result: { ok: true } }));
  const file = await catalogueFile(mapCatalogue);
  try {
    const sdk = bindSdk({ names: testNames, catalogueUrl: file.url });
    // The schema's `list` has no item type, so only this check stands between the caller and a null sent in its place.
    await assert.rejects(
      sdk.invoke('query-builder', { params: {}, list: ['a', undefined] }, { apiUrl: http.url, env: {} }),
      (error: unknown) => {
        assert.ok(error instanceof ToolCallError);
        assert.equal(error.code, 'VALIDATION_ERROR');
        assert.match(error.message, /`\/list\/1` is undefined, which JSON cannot carry in an array/);
        assert.deepEqual((error.details?.errors as { pointer: string }[])[0]?.pointer, '/list/1');
        return true;
      },
    );
    const cyclic: Record<string, unknown> = { q: 'x' };
    cyclic.self = cyclic;
    await assert.rejects(
      sdk.invoke('query-builder', { params: cyclic }, { apiUrl: http.url, env: {} }),
      (error: unknown) =>
        error instanceof ToolCallError && error.code === 'VALIDATION_ERROR' && /`\/params\/self` contains itself/.test(error.message),
    );
    assert.equal(http.requests.length, 0);
  } finally {
    await http.close();
    await rm(file.dir, { recursive: true });
  }
});

test('a catalogue that cannot be read is a CONFIG_ERROR ToolCallError naming the path and what to do about a bundle', async () => {
  const file = await catalogueFile();
  try {
    const missing = new URL('data/catalogue.json', file.url);
    const sdk = bindSdk({ names: testNames, catalogueUrl: missing });
    await assert.rejects(sdk.invoke('env-validator', { env_content: 'x' }, { env: {} }), (error: unknown) => {
      assert.ok(error instanceof ToolCallError);
      assert.equal(error.code, 'CONFIG_ERROR');
      assert.equal(error.retryable, false);
      assert.ok(error.message.includes(join(file.dir, 'data', 'catalogue.json')), error.message);
      assert.match(error.message, /ENOENT/);
      assert.match(error.message, /keep @nexusbloom\/mcp-server external to the bundle/);
      assert.ok(error.message.includes(`ship the package's data/ folder so that it sits at ${join(file.dir, 'data')}`), error.message);
      assert.equal(error.details?.path, join(file.dir, 'data', 'catalogue.json'));
      return true;
    });
  } finally {
    await rm(file.dir, { recursive: true });
  }
});

test('a bundled consumer gets a ToolCallError from a wrapper, not a plain Error', async () => {
  // A package-shaped folder (data/ beside src/) and an app bundled with esbuild into a folder of its own, as a consumer
  // would. Inside the repository, so that the dependencies left out of the bundle resolve from its node_modules.
  const repoTmp = new URL('../../.tmp/', import.meta.url).pathname;
  await mkdir(repoTmp, { recursive: true });
  const dir = await mkdtemp(join(repoTmp, 'sdk-bundle-'));
  try {
    await mkdir(join(dir, 'pkg', 'data'), { recursive: true });
    await writeFile(join(dir, 'pkg', 'data', 'catalogue.json'), JSON.stringify(catalogue));
    await writeFile(
      join(dir, 'pkg', 'client.ts'),
      [
        `import { bindSdk } from ${JSON.stringify(new URL('../../src/runtime/execution/sdk.ts', import.meta.url).pathname)};`,
        `export const sdk = bindSdk({ names: ${JSON.stringify(testNames)}, catalogueUrl: new URL('./data/catalogue.json', import.meta.url) });`,
      ].join('\n'),
    );
    await writeFile(
      join(dir, 'app.ts'),
      [
        "import { sdk } from './pkg/client.ts';",
        `import { ToolCallError } from ${JSON.stringify(new URL('../../src/runtime/execution/sdk.ts', import.meta.url).pathname)};`,
        "try { await sdk.invoke('env-validator', { env_content: 'A=1' }, { env: {} }); } catch (error) {",
        '  const e = error as ToolCallError;',
        '  console.log(JSON.stringify({ isToolCallError: error instanceof ToolCallError, code: e.code, retryable: e.retryable, message: e.message }));',
        '}',
      ].join('\n'),
    );
    await build({
      entryPoints: [join(dir, 'app.ts')],
      outfile: join(dir, 'out', 'app.mjs'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      logLevel: 'silent',
    });
    const child = spawn(process.execPath, [join(dir, 'out', 'app.mjs')], {
      cwd: new URL('../../', import.meta.url).pathname,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.resume();
    const [code] = await once(child, 'exit');
    assert.equal(code, 0, stdout);
    const seen = JSON.parse(stdout) as { isToolCallError: boolean; code: string; retryable: boolean; message: string };
    assert.deepEqual([seen.isToolCallError, seen.code, seen.retryable], [true, 'CONFIG_ERROR', false]);
    assert.ok(seen.message.includes(join(dir, 'out', 'data', 'catalogue.json')), seen.message);
    assert.match(seen.message, /external to the bundle/);
  } finally {
    await rm(dir, { recursive: true });
  }
});

test('an API key option or variable a header cannot carry is CONFIG_ERROR naming where it came from; keys are trimmed, blank is none', async () => {
  const http = await startHttp((_req, res) => sendJson(res, 200, { success: true, result: { valid: true } }));
  const file = await catalogueFile();
  try {
    const sdk = bindSdk({ names: testNames, catalogueUrl: file.url });
    const call = (options: CallOptions) => sdk.invoke('env-validator', { env_content: 'A=1' }, options);
    for (const key of ['ключ-123', 'abc\r\ndef']) {
      for (const [options, where] of [
        [{ apiUrl: http.url, apiKey: key, env: {} }, /^options\.apiKey cannot be sent/],
        [{ env: { NEXUSBLOOM_API_URL: http.url, NEXUSBLOOM_API_KEY: key } }, /NEXUSBLOOM_API_KEY cannot be sent/],
      ] as const) {
        await assert.rejects(call(options), (error: unknown) => {
          assert.ok(error instanceof ToolCallError);
          assert.equal(error.code, 'CONFIG_ERROR');
          assert.equal(error.retryable, false);
          assert.match(error.message, where);
          assert.ok(!error.message.includes('ключ') && !error.message.includes('abc'), error.message);
          return true;
        });
      }
    }
    assert.equal(http.requests.length, 0);
    await call({ apiUrl: http.url, apiKey: '  sk-pasted\n', env: { NEXUSBLOOM_API_KEY: 'sk-env' } });
    assert.equal(http.requests[0]?.headers.authorization, 'Bearer sk-pasted');
    await call({ apiUrl: http.url, apiKey: '   ', env: { NEXUSBLOOM_API_KEY: 'sk-env' } });
    assert.equal(http.requests[1]?.headers.authorization, undefined, 'a blank key option means no key');
  } finally {
    await http.close();
    await rm(file.dir, { recursive: true });
  }
});

test('API URL problems are CONFIG_ERROR from the option and the variable alike; a blank variable never falls back', async () => {
  const fallback = await startHttp((_req, res) => sendJson(res, 200, { success: true, result: { valid: true } }));
  const file = await catalogueFile();
  try {
    const sdk = bindSdk({ names: { ...testNames, defaultApiUrl: fallback.url }, catalogueUrl: file.url });
    const call = (options: CallOptions) => sdk.invoke('env-validator', { env_content: 'A=1' }, options);
    const cases: [CallOptions, RegExp][] = [
      [{ apiUrl: 'ftp://u:hunter2@example.test', env: {} }, /^options\.apiUrl "ftp:\/\/\*\*\*@example\.test" is not an http\(s\) URL/],
      [{ apiUrl: '  ', env: {} }, /^options\.apiUrl is empty/],
      [{ env: { NEXUSBLOOM_API_URL: 'ftp://example.test' } }, /NEXUSBLOOM_API_URL="ftp:\/\/example\.test" is not an http\(s\) URL/],
      [{ env: { NEXUSBLOOM_API_URL: '' } }, /NEXUSBLOOM_API_URL is set but empty.*Unset NEXUSBLOOM_API_URL to use the default/],
      [{ env: { NEXUSBLOOM_API_URL: '   ', NEXUSBLOOM_API_KEY: 'sk-1' } }, /NEXUSBLOOM_API_URL is set but empty/],
    ];
    for (const [options, message] of cases) {
      await assert.rejects(call(options), (error: unknown) => {
        assert.ok(error instanceof ToolCallError);
        assert.equal(error.code, 'CONFIG_ERROR', error.message);
        assert.equal(error.retryable, false);
        assert.match(error.message, message);
        assert.ok(!error.message.includes('hunter2'));
        return true;
      });
    }
    assert.equal(fallback.requests.length, 0);
  } finally {
    await fallback.close();
    await rm(file.dir, { recursive: true });
  }
});

test('options set to undefined are not set', async () => {
  const http = await startHttp((_req, res) => sendJson(res, 200, { success: true, result: { valid: true } }));
  const file = await catalogueFile();
  try {
    const sdk = bindSdk({ names: testNames, catalogueUrl: file.url });
    const options: CallOptions = { apiUrl: undefined, apiKey: undefined, timeoutMs: undefined, signal: undefined, env: undefined };
    const saved = { url: process.env.NEXUSBLOOM_API_URL, key: process.env.NEXUSBLOOM_API_KEY };
    process.env.NEXUSBLOOM_API_URL = http.url;
    process.env.NEXUSBLOOM_API_KEY = 'sk-from-env';
    try {
      assert.deepEqual(await sdk.invoke('env-validator', { env_content: 'A=1' }, options), { valid: true });
    } finally {
      for (const [name, value] of [
        ['NEXUSBLOOM_API_URL', saved.url],
        ['NEXUSBLOOM_API_KEY', saved.key],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
    assert.equal(http.requests[0]?.headers.authorization, 'Bearer sk-from-env');
  } finally {
    await http.close();
    await rm(file.dir, { recursive: true });
  }
});
