// Validation throughput of ordinary tool schemas with `pattern`s: the server's ajv options (linear-time engine, see
// src/runtime/schema/linear-regexp.ts) against the same ajv with the native RegExp engine, measured in turns.

import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ServedTool } from '../../src/runtime/shared/contracts.js';
import { SCHEMA_AJV_OPTIONS, withFormats } from '../../src/runtime/schema/ajv-options.js';
import { createValidator } from '../../src/runtime/schema/validation.js';

interface Case {
  label: string;
  schema: Record<string, unknown>;
  params: Record<string, unknown>;
}

const CASES: Case[] = [
  {
    label: 'patterns proved linear (run natively)',
    schema: {
      type: 'object',
      properties: {
        slug: { type: 'string', pattern: '^[a-z0-9-]+$' },
        date: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
        version: { type: 'string', pattern: '^v?(\\d+)\\.(\\d+)\\.(\\d+)$' },
      },
    },
    params: { slug: 'env-validator-2', date: '2026-12-01', version: 'v1.22.333' },
  },
  {
    label: 'other patterns (run by re2js)',
    schema: {
      type: 'object',
      properties: {
        email: { type: 'string', pattern: '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$' },
        url: { type: 'string', pattern: 'https?://' },
        tag: { type: 'string', pattern: '[A-Z]{2,}-\\d+' },
      },
    },
    params: { email: 'someone@example.com', url: 'see https://example.com/x', tag: 'see ABC-123 here' },
  },
  {
    label: 'no patterns',
    schema: {
      type: 'object',
      properties: { text: { type: 'string', maxLength: 100 }, count: { type: 'integer', minimum: 0 } },
      required: ['text'],
    },
    params: { text: 'hello', count: 3 },
  },
];

function rate(check: () => unknown, ms = 400): number {
  let runs = 0;
  const started = performance.now();
  while (performance.now() - started < ms) {
    for (let i = 0; i < 1000; i += 1) check();
    runs += 1000;
  }
  return runs / ((performance.now() - started) / 1000);
}

/** One line per case: validations per second with each engine, best of three turns each. */
export function measurePatternEngine(): string[] {
  const lines = ["Argument validation (validations/s, best of 3 turns; the server's ajv options vs. the same with native RegExp):"];
  for (const { label, schema, params } of CASES) {
    const tool = { slug: 'bench', manifest: { slug: 'bench', input_schema: schema } } as unknown as ServedTool;
    const server = createValidator(() => {});
    // The server's ajv options, and the same with ajv's default engine (new RegExp) in place of the linear one.
    const linear = withFormats(new Ajv2020({ ...SCHEMA_AJV_OPTIONS, allErrors: true, verbose: true })).compile(schema);
    const native = withFormats(new Ajv2020({ ...SCHEMA_AJV_OPTIONS, code: {}, allErrors: true, verbose: true })).compile(schema);
    if (server.validateInput(tool, params) !== null || !native(params) || !linear(params))
      throw new Error(`bench case ${label} is not valid`);
    let best = { linear: 0, native: 0 };
    for (let turn = 0; turn < 3; turn += 1) {
      best = {
        linear: Math.max(
          best.linear,
          rate(() => linear(params)),
        ),
        native: Math.max(
          best.native,
          rate(() => native(params)),
        ),
      };
    }
    lines.push(
      `  ${label}: ${Math.round(best.linear).toLocaleString('en')} vs ${Math.round(best.native).toLocaleString('en')} native (${(best.linear / best.native).toFixed(2)}x)`,
    );
  }
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) process.stdout.write(`${measurePatternEngine().join('\n')}\n`);
