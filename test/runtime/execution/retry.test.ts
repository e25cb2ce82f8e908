// Which failures retry, for which tools, and how long each wait is: given/want over the policy and the backoff.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_RETRY, retryDelay, retryPolicy, retrySettingProblem, type AttemptFailure } from '../../../src/runtime/execution/retry.js';

const readOnly = { readOnlyHint: true };
const lost: AttemptFailure = { kind: 'lost' };
const status = (code: number, retryAfterS: number | null = null): AttemptFailure => ({ kind: 'status', status: code, retryAfterS });

describe('retry policy', () => {
  it('retries by default only tools annotated read-only or idempotent', () => {
    assert.equal(retryPolicy(undefined, undefined, readOnly).toolMayRepeat, true);
    assert.equal(retryPolicy(undefined, undefined, { idempotentHint: true }).toolMayRepeat, true);
    assert.equal(retryPolicy(undefined, undefined, { destructiveHint: true }).toolMayRepeat, false);
    assert.equal(retryPolicy(undefined, undefined, undefined).toolMayRepeat, false);
    assert.equal(retryPolicy({ tools: 'always' }, undefined, undefined).toolMayRepeat, true);
    assert.equal(retryPolicy({ tools: 'always' }, { tools: 'never' }, readOnly).toolMayRepeat, false);
  });

  it('takes each field from the call, else the client, else the default', () => {
    assert.deepEqual(retryPolicy({ maxRetries: 5, baseDelayMs: 10 }, { baseDelayMs: 99, maxDelayMs: undefined }, readOnly), {
      maxRetries: 5,
      baseDelayMs: 99,
      maxDelayMs: DEFAULT_RETRY.maxDelayMs,
      toolMayRepeat: true,
    });
    assert.equal(retryPolicy(4, undefined, readOnly).maxRetries, 4);
    assert.equal(retryPolicy(4, false, readOnly).maxRetries, 0);
    assert.equal(retryPolicy(false, true, readOnly).maxRetries, 0);
    assert.equal(retryPolicy(undefined, undefined, readOnly).maxRetries, DEFAULT_RETRY.maxRetries);
  });

  it('names the option of an unusable setting', () => {
    assert.equal(
      retrySettingProblem({ maxRetries: 1.5 }, 'options.retries'),
      'options.retries.maxRetries must be a whole number ≥ 0, got 1.5',
    );
    assert.equal(retrySettingProblem(-1, 'options.retries'), 'options.retries must be a whole number ≥ 0, got -1');
    assert.match(
      retrySettingProblem({ tools: 'sometimes' as never }, 'options.retries') ?? '',
      /options\.retries\.tools must be "safe", "always" or "never"/,
    );
    assert.equal(retrySettingProblem({ maxRetries: 0, baseDelayMs: 0 }, 'options.retries'), null);
  });
});

describe('retry delay', () => {
  const policy = retryPolicy({ baseDelayMs: 100, maxDelayMs: 1000 }, undefined, readOnly);
  const table: Array<[string, AttemptFailure, number, number | null]> = [
    // [what, failure, retry number, wait with the dice at their top (random() → 0.999…)]
    ['a 503, first retry: up to the base delay', status(503), 1, 99],
    ['a 500, second retry: up to twice the base', status(500), 2, 199],
    ['a lost answer (reset, timeout), third retry: up to four times the base', lost, 3, 399],
    ['fifth retry: never past maxDelayMs', lost, 5, 999],
    ['a 429 with retry-after: exactly that', status(429, 1), 1, 1000],
    ['a 429 with a retry-after past maxDelayMs: gives up', status(429, 2), 1, null],
    ['a 429 without retry-after: backoff', status(429), 1, 99],
    ['a 408: backoff', status(408), 1, 99],
    ['a 400: never', status(400), 1, null],
    ['a 401: never', status(401), 1, null],
    ['a final failure (cancelled, bad body): never', { kind: 'final' }, 1, null],
  ];
  for (const [what, failure, retry, want] of table) {
    it(what, () =>
      assert.equal(
        retryDelay({ ...policy, maxRetries: 10 }, retry, failure, () => 0.999),
        want,
      ),
    );
  }

  it('draws each wait at random below its bound (full jitter) and caps the bound at maxDelayMs', () => {
    assert.equal(
      retryDelay(policy, 1, lost, () => 0),
      0,
    );
    assert.equal(
      retryDelay(policy, 1, lost, () => 0.5),
      50,
    );
    assert.equal(
      retryDelay({ ...policy, maxRetries: 20 }, 20, lost, () => 0.5),
      500,
    );
  });

  it('stops after maxRetries, and never retries a tool that may not run twice', () => {
    assert.equal(
      retryDelay(policy, DEFAULT_RETRY.maxRetries + 1, lost, () => 0.5),
      null,
    );
    const unsafe = retryPolicy(undefined, undefined, { destructiveHint: true });
    for (const failure of [lost, status(503), status(429, 1)])
      assert.equal(
        retryDelay(unsafe, 1, failure, () => 0.5),
        null,
      );
  });
});
