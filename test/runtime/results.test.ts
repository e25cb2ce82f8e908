import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toolFailure } from '../../src/runtime/shared/contracts.js';
import { checkOutput, failureResult, outcomeResult, structuredResult, successResult } from '../../src/runtime/history/results.js';
import { ajvValidator, servedTools } from './surface-fixtures.js';

const tools = servedTools();
const tool = (slug: string) => {
  const found = tools.find((candidate) => candidate.slug === slug);
  assert.ok(found, slug);
  return found;
};

describe('successResult', () => {
  const table: [string, unknown, Record<string, unknown>, string][] = [
    ['plain object as is', { a: 1 }, { a: 1 }, '{"a":1}'],
    ['array wrapped', [1, 2], { result: [1, 2] }, '[1,2]'],
    ['string wrapped', 'hi', { result: 'hi' }, '"hi"'],
    ['null wrapped', null, { result: null }, 'null'],
    ['undefined as null', undefined, { result: null }, 'null'],
  ];
  for (const [name, value, structured, text] of table) {
    it(name, () => {
      const result = successResult(value);
      assert.deepEqual(result.structuredContent, structured);
      assert.deepEqual(result.content, [{ type: 'text', text }]);
      assert.equal(result.isError, undefined);
    });
  }
  it('structuredResult matches successResult', () => assert.deepEqual(structuredResult(3), { result: 3 }));
});

describe('failureResult', () => {
  it('carries the envelope as text and structuredContent with isError', () => {
    const failure = toolFailure('RATE_LIMITED', 'slow down', { retry_after: 3 });
    const result = failureResult(failure);
    assert.equal(result.isError, true);
    assert.deepEqual(result.structuredContent, {
      success: false,
      error: 'slow down',
      code: 'RATE_LIMITED',
      retryable: true,
      details: { retry_after: 3 },
    });
    assert.deepEqual(JSON.parse((result.content[0] as { text: string }).text), result.structuredContent);
  });
});

describe('checkOutput', () => {
  const validator = ajvValidator();
  it('passes a result that matches the output schema', () => {
    const outcome = checkOutput(tool('hash-generator'), { ok: true, result: { digest: 'ab' }, durationMs: 2 }, validator);
    assert.deepEqual(outcome, { ok: true, result: { digest: 'ab' }, durationMs: 2 });
  });
  it('turns a mismatch into OUTPUT_MISMATCH carrying the payload', () => {
    const outcome = checkOutput(tool('http-status'), { ok: true, result: 'status 200', durationMs: 2 }, validator);
    assert.equal(outcome.ok, false);
    assert.ok(!outcome.ok);
    assert.equal(outcome.failure.code, 'OUTPUT_MISMATCH');
    assert.equal(outcome.failure.retryable, false);
    assert.equal(outcome.failure.details?.result, 'status 200');
    const result = outcomeResult(outcome);
    assert.equal(result.isError, true);
  });
  it('leaves tools without an output schema and failures alone', () => {
    const failed = { ok: false as const, failure: toolFailure('TIMEOUT', 't'), durationMs: 1 };
    assert.equal(checkOutput(tool('http-status'), failed, validator), failed);
    assert.equal(checkOutput(tool('data-generator'), { ok: true, result: 7, durationMs: 1 }, validator).ok, true);
  });
});
