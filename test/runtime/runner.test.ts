import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createApiClient } from '../../src/runtime/execution/api-client.js';
import { readSettings } from '../../src/runtime/settings/config.js';
import { createLocalExecutor } from '../../src/runtime/execution/local-exec.js';
import { createRunner } from '../../src/runtime/execution/runner.js';
import { manifest, sendJson, servedTool, startHttp, testNames } from './core-fixtures.js';

const withSource = servedTool(manifest({ slug: 'has-source', source: { runtime: 'node', code: 'exports.run = () => "local";' } }));
const withoutSource = servedTool(manifest({ slug: 'no-source' }));

for (const { mode, tool, where, code } of [
  { mode: 'remote', tool: withSource, where: 'api', code: null },
  { mode: 'remote', tool: withoutSource, where: 'api', code: null },
  { mode: 'local', tool: withSource, where: 'local', code: null },
  { mode: 'local', tool: withoutSource, where: 'nowhere', code: 'NO_LOCAL_SOURCE' },
  { mode: 'auto', tool: withSource, where: 'local', code: null },
  { mode: 'auto', tool: withoutSource, where: 'api', code: null },
] as const) {
  test(`${mode} mode runs ${tool.slug} ${where === 'nowhere' ? 'nowhere' : `via ${where}`}`, async () => {
    const http = await startHttp((_req, res) => sendJson(res, 200, { success: true, result: 'api', duration_ms: 1 }));
    try {
      const settings = readSettings(testNames, { NEXUSBLOOM_API_URL: http.url, NEXUSBLOOM_MCP_EXECUTION: mode }, () => {});
      const runner = createRunner(
        settings,
        createApiClient(testNames, settings, () => {}),
        createLocalExecutor({ timeoutMs: 10_000, log: () => {} }),
        () => {},
      );
      const outcome = await runner.run(tool, {});
      assert.equal(http.requests.length, where === 'api' ? 1 : 0);
      if (code === null) {
        assert.deepEqual(outcome.ok && outcome.result, where);
        assert.ok(outcome.durationMs >= 0);
      } else {
        assert.equal(outcome.ok ? 'ok' : outcome.failure.code, code);
      }
    } finally {
      await http.close();
    }
  });
}

test('remote failures become failed outcomes with a duration', async () => {
  const http = await startHttp((_req, res) =>
    sendJson(res, 503, { success: false, error: 'maintenance', code: 'UPSTREAM_ERROR', retryable: true }),
  );
  try {
    const settings = readSettings(testNames, { NEXUSBLOOM_API_URL: http.url }, () => {});
    const runner = createRunner(
      settings,
      createApiClient(testNames, settings, () => {}),
      createLocalExecutor({ timeoutMs: 1000, log: () => {} }),
      () => {},
    );
    const outcome = await runner.run(withoutSource, { a: 1 });
    assert.equal(outcome.ok, false);
    if (!outcome.ok) {
      assert.equal(outcome.failure.code, 'UPSTREAM_ERROR');
      assert.match(outcome.failure.error, /maintenance/);
    }
  } finally {
    await http.close();
  }
});
