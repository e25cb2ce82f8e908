import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ux } from '@oclif/core';
import { plainJson } from '../../src/cli/base-command.js';

describe('--json output', () => {
  it('prints, uncoloured, the very text oclif prints with no theme', () => {
    const value = {
      source: '/tmp/catalogue "quoted" \\ back',
      tools: 3000,
      written: ['src/tools/a.ts', 'data/ümlaut-☃.json'],
      withheld: [],
      nested: { ratio: -1.5e-7, ok: true, none: null, empty: {} },
      text: 'line\nbreak\ttab %s %d',
    };
    assert.equal(plainJson(value), `${ux.colorizeJson(value, { pretty: true })}\n`);
  });
});
