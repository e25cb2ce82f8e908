import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkParams, executeRun, validateAndRun } from '../../src/runtime/history/runs.js';
import { functionRunner, harness } from './surface-fixtures.js';

const signal = new AbortController().signal;

describe('validateAndRun', () => {
  it('runs valid params, checks output and records the run', async () => {
    const { ctx, runner, tools } = harness();
    const tool = tools.find((candidate) => candidate.slug === 'word-counter');
    assert.ok(tool);
    const { outcome, record } = await validateAndRun(ctx, tool, { text: 'one two three' }, signal);
    assert.deepEqual(outcome.ok && outcome.result, { words: 3, characters: 13 });
    assert.equal(record?.id, 'r1');
    assert.equal(runner.calls.length, 1);
  });

  const invalidCases: [string, string, unknown, RegExp][] = [
    ['missing field', 'env-validator', {}, /missing required field "env_content"/],
    ['wrong type', 'data-generator', { count: 'two' }, /"\/count"/],
    ['array params', 'data-generator', [1], /must be a JSON object, not an array/],
    ['string params', 'data-generator', 'count=2', /not string/],
    ['unknown field', 'jwt-decoder', { token: 'abcdef', tokne: 'x' }, /unknown field "tokne"/],
  ];
  for (const [name, slug, params, message] of invalidCases) {
    it(`rejects ${name} with zero runner calls and no history`, async () => {
      const { ctx, runner, tools } = harness();
      const tool = tools.find((candidate) => candidate.slug === slug);
      assert.ok(tool);
      const { outcome, record } = await validateAndRun(ctx, tool, params, signal);
      assert.ok(!outcome.ok);
      assert.equal(outcome.failure.code, 'VALIDATION_ERROR');
      assert.equal(outcome.failure.retryable, false);
      assert.match(outcome.failure.error, message);
      assert.equal(record, undefined);
      assert.equal(runner.calls.length, 0);
      assert.equal(ctx.history.list().length, 0);
    });
  }

  it('treats absent params as {}', () => {
    const { ctx, tools } = harness();
    const tool = tools.find((candidate) => candidate.slug === 'server-time');
    assert.ok(tool);
    assert.deepEqual(checkParams(ctx.validator, tool, undefined), { ok: true, params: {} });
  });

  it('turns a throwing runner into an EXECUTION_ERROR outcome that is still recorded', async () => {
    const runner = functionRunner();
    runner.run = async () => {
      throw new Error('runner bug');
    };
    const { ctx, tools } = harness({ runner });
    const tool = tools[0];
    assert.ok(tool);
    const { outcome, record } = await executeRun(ctx, tool, {}, signal);
    assert.ok(!outcome.ok);
    assert.equal(outcome.failure.code, 'EXECUTION_ERROR');
    assert.match(outcome.failure.error, /runner bug/);
    assert.equal(record?.status, 'failed');
  });

  it('passes the abort signal to the runner', async () => {
    const seen: (AbortSignal | undefined)[] = [];
    const runner = {
      calls: [],
      run: async (_tool: unknown, _params: unknown, given?: AbortSignal) => {
        seen.push(given);
        return { ok: true as const, result: { words: 1, characters: 1 }, durationMs: 1 };
      },
    };
    const { ctx, tools } = harness({ runner });
    const tool = tools.find((candidate) => candidate.slug === 'word-counter');
    assert.ok(tool);
    const controller = new AbortController();
    await validateAndRun(ctx, tool, { text: 'x' }, controller.signal);
    assert.deepEqual(seen, [controller.signal]);
  });

  it('does not start, or record, a run whose call was already cancelled', async () => {
    const { ctx, runner, tools } = harness();
    const tool = tools.find((candidate) => candidate.slug === 'word-counter');
    assert.ok(tool);
    const controller = new AbortController();
    controller.abort();
    const { outcome, record } = await validateAndRun(ctx, tool, { text: 'x' }, controller.signal);
    assert.ok(!outcome.ok);
    assert.equal(outcome.failure.code, 'CANCELLED');
    assert.equal(outcome.failure.retryable, false);
    assert.equal(record, undefined);
    assert.equal(runner.calls.length, 0);
    assert.equal(ctx.history.totalRecorded, 0);
  });
});
