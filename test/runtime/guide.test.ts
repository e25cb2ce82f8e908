import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ERROR_RETRYABLE, type ErrorCode } from '../../src/runtime/shared/contracts.js';
import { buildGuide, ERROR_ADVICE, errorCodeTable } from '../../src/runtime/surface/guide.js';
import { NAMES } from './surface-fixtures.js';

describe('guide', () => {
  it('covers every error code with its retryable flag', () => {
    const table = errorCodeTable();
    for (const code of Object.keys(ERROR_RETRYABLE) as ErrorCode[]) {
      assert.ok(ERROR_ADVICE[code], code);
      assert.ok(table.includes(`| ${code} | ${ERROR_RETRYABLE[code] ? 'yes' : 'no'} |`), code);
    }
  });
  it('uses the configured names and states the limits', () => {
    const guide = buildGuide({ ...NAMES, metaToolName: 'acme', uriScheme: 'acme', productName: 'Acme' });
    assert.match(guide, /^# Acme MCP server: usage guide/);
    assert.match(guide, /tool `acme`/);
    assert.match(guide, /acme:\/\/tools\/\{slug\}/);
    assert.doesNotMatch(guide, /nexusbloom/i);
    for (const limit of [
      'at most 10 runs',
      'last 50 runs',
      '8,000 characters',
      'up to 6 levels deep',
      '[deep]',
      'per caller',
      'compares masked values as their masks',
    ])
      assert.ok(guide.includes(limit), limit);
  });
  it('is deterministic', () => assert.equal(buildGuide(NAMES), buildGuide(NAMES)));
});
