import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createDeferredLocalExecutor, localExecutionWarning } from '../../src/runtime/execution/local-exec-gate.js';
import { manifest, servedTool, testNames } from './core-fixtures.js';

function toolWithCode(slug: string, code: string) {
  return servedTool(manifest({ slug, source: { runtime: 'node', code } }));
}

test('the deferred executor runs a tool locally on its first run, and keeps working after', async () => {
  const executor = createDeferredLocalExecutor({ timeoutMs: 10_000, log: () => {} });
  const tool = toolWithCode('sum', 'exports.run = (p) => ({ total: p.a + p.b });');
  const [first, second] = await Promise.all([executor.run(tool, { a: 2, b: 3 }), executor.run(tool, { a: 1, b: 1 })]);
  assert.deepEqual(first.ok && first.result, { total: 5 });
  assert.deepEqual(second.ok && second.result, { total: 2 });
});

test('the deferred executor reports a tool without source like the real one', async () => {
  const executor = createDeferredLocalExecutor({ timeoutMs: 10_000, log: () => {}, executionVar: 'NEXUSBLOOM_MCP_EXECUTION' });
  const outcome = await executor.run(servedTool(manifest({ slug: 'remote-only' })), {});
  assert.equal(outcome.ok ? 'ok' : outcome.failure.code, 'NO_LOCAL_SOURCE');
  if (!outcome.ok) assert.match(outcome.failure.error, /NEXUSBLOOM_MCP_EXECUTION/);
});

test('killAll before any run is a no-op; during a run it kills the child', async () => {
  const executor = createDeferredLocalExecutor({ timeoutMs: 30_000, log: () => {} });
  executor.killAll();
  const spinning = executor.run(toolWithCode('spin', 'exports.run = () => { for (;;) {} };'), {});
  // Give the child time to start, then kill it: the run ends well before its 30 s deadline.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const started = Date.now();
  executor.killAll();
  const outcome = await spinning;
  assert.equal(outcome.ok, false);
  assert.ok(Date.now() - started < 5000);
});

test('the start-up warning names the mode and its variable', () => {
  const warning = localExecutionWarning(testNames, 'auto');
  assert.match(warning, new RegExp(`${testNames.envPrefix}MCP_EXECUTION=auto`));
  assert.match(warning, /not a security sandbox/);
});
