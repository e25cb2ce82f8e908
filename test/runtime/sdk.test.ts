import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bindSdk, ToolCallError } from '../../src/runtime/sdk.js';
import type { ServedCatalogueFile } from '../../src/runtime/contracts.js';
import { manifest, sendJson, servedTool, startHttp, testNames } from './core-fixtures.js';

const catalogue: ServedCatalogueFile = {
  format: 'nexusbloom-served-catalogue/1',
  tools: [
    servedTool(manifest({
      slug: 'env-validator',
      input_schema: { type: 'object', required: ['env_content'], properties: { env_content: { type: 'string' } } },
      output_schema: { type: 'object', required: ['valid'], properties: { valid: { type: 'boolean' } } },
      source: { runtime: 'node', code: 'exports.run = (p) => ({ valid: p.env_content.includes("="), where: "local" });' },
    })),
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
    const result = await sdk.invoke<{ valid: boolean }>('env-validator', { env_content: 'A=1' }, { apiUrl: http.url, apiKey: 'sk-1', env: {} });
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
  let answer: [number, unknown, Record<string, string>?] = [429, { success: false, error: 'slow down', code: 'RATE_LIMITED', retryable: true }, { 'retry-after': '9' }];
  const http = await startHttp((_req, res) => sendJson(res, answer[0], answer[1], answer[2]));
  const file = await catalogueFile();
  try {
    const sdk = bindSdk({ names: testNames, catalogueUrl: file.url });
    const call = () => sdk.invoke('env-validator', { env_content: 'A=1' }, { apiUrl: http.url, env: {} });
    await assert.rejects(call(), (error: unknown) => error instanceof ToolCallError && error.code === 'RATE_LIMITED'
      && error.retryable && error.details?.retry_after_s === 9);
    answer = [200, { success: true, result: { valid: 'maybe' } }];
    await assert.rejects(call(), (error: unknown) => error instanceof ToolCallError && error.code === 'OUTPUT_MISMATCH');
    await assert.rejects(sdk.invoke('nope', {}, { env: {} }), (error: unknown) => error instanceof ToolCallError && error.code === 'TOOL_NOT_FOUND');
    await assert.rejects(sdk.invoke('env-validator', { env_content: 'x' }, { timeoutMs: 0, env: {} }),
      (error: unknown) => error instanceof ToolCallError && error.code === 'VALIDATION_ERROR');
  } finally {
    await http.close();
    await rm(file.dir, { recursive: true });
  }
});

test('local execution through the SDK', async () => {
  const file = await catalogueFile();
  try {
    const sdk = bindSdk({ names: testNames, catalogueUrl: file.url });
    const result = await sdk.invoke('env-validator', { env_content: 'A=1' }, { env: { ...process.env, NEXUSBLOOM_MCP_EXECUTION: 'local', NEXUSBLOOM_API_URL: 'http://127.0.0.1:9' } });
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
