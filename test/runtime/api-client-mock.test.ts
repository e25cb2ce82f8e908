// The API client against the project's mock API (catalogue-api.md) and every fault it can inject.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createApiClient } from '../../src/runtime/execution/api-client.js';
import { readSettings } from '../../src/runtime/settings/config.js';
import { createValidator } from '../../src/runtime/schema/validation.js';
import { manifestsFromBundle, startMockApi, type MockFault } from '../../src/runtime/dev/mock-api.js';
import { servedTool, testNames } from './core-fixtures.js';

const manifests = manifestsFromBundle(JSON.parse(await readFile(new URL('../../examples/catalogue.json', import.meta.url), 'utf8')));

function clientFor(url: string, env: Record<string, string> = {}) {
  const settings = readSettings(testNames, { NEXUSBLOOM_API_URL: url, NEXUSBLOOM_MCP_TIMEOUT_MS: '1000', ...env }, () => {});
  return createApiClient(testNames, settings, () => {});
}

test('lists every page, reads every manifest, and runs every example', async () => {
  const mock = await startMockApi({ manifests, apiKey: 'sk-mock' });
  try {
    const api = clientFor(mock.url, { NEXUSBLOOM_API_KEY: 'sk-mock' });
    const listed = await api.listCatalogue();
    assert.ok(listed.ok, JSON.stringify(listed));
    if (!listed.ok) return;
    assert.deepEqual(listed.value.map((e) => e.slug).sort(), manifests.map((m) => m.slug).sort());
    const validator = createValidator(() => {});
    for (const m of manifests) {
      const got = await api.getManifest(m.slug);
      assert.ok(got.ok, `${m.slug}: ${JSON.stringify(got)}`);
      for (const example of m.examples ?? []) {
        const tool = servedTool(m);
        assert.equal(validator.validateInput(tool, example.params), null, `${m.slug} example should validate`);
        const ran = await api.runTool(m.slug, example.params);
        assert.ok(ran.ok, `${m.slug}: ${JSON.stringify(ran)}`);
        if (ran.ok) assert.equal(validator.validateOutput(tool, ran.value), null, `${m.slug} result should match its output schema`);
      }
    }
    assert.ok(mock.requests.every((r) => r.authorization === 'Bearer sk-mock'));
  } finally {
    await mock.close();
  }
});

const faults: { fault: MockFault; code: string }[] = [
  { fault: { kind: 'hang' }, code: 'TIMEOUT' },
  { fault: { kind: 'status', status: 500 }, code: 'UPSTREAM_ERROR' },
  { fault: { kind: 'status', status: 503 }, code: 'UPSTREAM_ERROR' },
  { fault: { kind: 'status', status: 429, retryAfter: 12 }, code: 'RATE_LIMITED' },
  { fault: { kind: 'status', status: 401 }, code: 'AUTH_ERROR' },
  { fault: { kind: 'status', status: 403 }, code: 'AUTH_ERROR' },
  { fault: { kind: 'status', status: 404 }, code: 'TOOL_NOT_FOUND' },
  { fault: { kind: 'garbage' }, code: 'BAD_RESPONSE' },
  { fault: { kind: 'wrong-shape' }, code: 'BAD_RESPONSE' },
  { fault: { kind: 'truncated' }, code: 'BAD_RESPONSE' },
  // The API read the request and closed the connection: it was reached, and its answer was lost (a refused connection is API_UNREACHABLE).
  { fault: { kind: 'reset' }, code: 'BAD_RESPONSE' },
];

for (const { fault, code } of faults) {
  test(`mock fault ${JSON.stringify(fault)} → ${code} on run, list and manifest`, async () => {
    const mock = await startMockApi({ manifests, faults: { run: { '*': fault }, list: fault, manifest: { '*': fault } } });
    try {
      const api = clientFor(mock.url);
      const ran = await api.runTool('env-validator', { env_content: 'A=1' });
      assert.equal(ran.ok ? 'ok' : ran.failure.code, code);
      if (!ran.ok && code === 'RATE_LIMITED') assert.equal(ran.failure.details?.retry_after_s, 12);
      const listed = await api.listCatalogue();
      assert.equal(listed.ok ? 'ok' : listed.failure.code, code);
      const got = await api.getManifest('env-validator');
      assert.equal(got.ok ? 'ok' : got.failure.code, code);
    } finally {
      await mock.close();
    }
  });
}

test("the mock's own 400 message comes through a VALIDATION_ERROR", async () => {
  const mock = await startMockApi({ manifests });
  try {
    const ran = await clientFor(mock.url).runTool('env-validator', { env_content: 5 });
    assert.equal(ran.ok ? 'ok' : ran.failure.code, 'VALIDATION_ERROR');
    if (!ran.ok) assert.match(ran.failure.error, /env_content/);
  } finally {
    await mock.close();
  }
});

test('slugs that are dot segments (".", "..") are sent as %2E, not collapsed by URL parsing, and reach their own tools', async () => {
  const echo = (slug: string) => ({
    ...manifests[0]!,
    slug,
    name: slug,
    input_schema: null,
    output_schema: null,
    examples: [],
    source: { runtime: 'node' as const, code: `exports.run = () => ({ slug: ${JSON.stringify(slug)} });` },
  });
  const slugs = ['.', '..', '...', 'a.b', 'run'];
  const mock = await startMockApi({ manifests: slugs.map(echo) });
  try {
    const api = clientFor(mock.url);
    for (const slug of slugs) {
      const manifest = await api.getManifest(slug);
      assert.ok(manifest.ok && manifest.value.slug === slug, `${slug}: ${JSON.stringify(manifest)}`);
      assert.deepEqual(await api.runTool(slug, {}), { ok: true, value: { slug } }, slug);
    }
    const paths = mock.requests.map((r) => r.path);
    for (const path of ['/api/tools/%2E', '/api/tools/%2E/run', '/api/tools/%2E%2E', '/api/tools/%2E%2E/run', '/api/tools/.../run']) {
      assert.ok(paths.includes(path), `${path} in ${paths.join(' ')}`);
    }
  } finally {
    await mock.close();
  }
});
