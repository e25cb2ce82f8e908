// The check stage against hostile schemas: patterns that backtrack forever, schemas nested thousands of levels or
// thousands of properties wide, types that are only themselves. Each answers quickly with a problem naming the tool
// and the exact pointer, or passes, and never hangs or overflows the stack.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkCatalogue } from '../../src/pipeline/check/check-in-thread.js';
import { createValidator } from '../../src/runtime/schema/validation.js';
import { isProvablyLinear, linearRegExp } from '../../src/runtime/schema/linear-regexp.js';
import { bundle, tool } from '../fixtures/catalogues.js';
import { manifest, servedTool } from '../runtime/core-fixtures.js';

const EVIL = '^(a+)+$';
const EVIL_INPUT = `${'a'.repeat(32)}!`;
const errorsOf = (document: unknown) => checkCatalogue(document).problems.filter((p) => p.severity === 'error');

function nested(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < levels; i += 1) schema = { type: 'object', properties: { a: schema } };
  return schema;
}

describe('ReDoS: patterns run in linear time', () => {
  it('check validates an example against ^(a+)+$ at once (it never matches, it never hangs)', () => {
    const started = Date.now();
    const problems = errorsOf(
      bundle([
        tool('evil', {
          input_schema: { type: 'object', properties: { text: { type: 'string', pattern: EVIL } } },
          examples: [{ params: { text: EVIL_INPUT } }],
        }),
      ]),
    );
    assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms`);
    assert.deepEqual(
      problems.map((p) => [p.slug, p.pointer]),
      [['evil', '/examples/0/params/text']],
    );
    assert.match(problems[0]?.message ?? '', /must match pattern/);
  });

  it('patternProperties are evaluated by the same engine', () => {
    const started = Date.now();
    const problems = errorsOf(
      bundle([
        tool('evil-keys', {
          input_schema: { type: 'object', patternProperties: { [EVIL]: { type: 'integer' } } },
          examples: [{ params: { [EVIL_INPUT]: 'x', aaaa: 'not an integer' } }],
        }),
      ]),
    );
    assert.ok(Date.now() - started < 2000);
    assert.deepEqual(
      problems.map((p) => p.pointer),
      ['/examples/0/params/aaaa'],
    );
  });

  it('the server refuses the same arguments as fast, and accepts a matching value', () => {
    const validator = createValidator(() => {});
    const served = servedTool(
      manifest({ slug: 'evil', input_schema: { type: 'object', properties: { text: { type: 'string', pattern: EVIL } } } }),
    );
    const started = Date.now();
    assert.equal(validator.validateInput(served, { text: EVIL_INPUT })?.code, 'VALIDATION_ERROR');
    assert.equal(validator.validateInput(served, { text: `${'a'.repeat(100_000)}!` })?.code, 'VALIDATION_ERROR');
    assert.equal(validator.validateInput(served, { text: 'aaaa' }), null);
    assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms`);
  });

  for (const [what, pattern] of [
    ['a backreference', '^(a)\\1$'],
    ['a lookahead', '^(?=a)a$'],
    ['a lookbehind', '(?<!x)a'],
  ] as const) {
    it(`a pattern with ${what} is a check problem naming the slug and the pointer`, () => {
      const problems = errorsOf(
        bundle([
          tool('backtracking', {
            input_schema: {
              type: 'object',
              properties: { text: { type: 'string', pattern } },
              $defs: { k: { patternProperties: { [pattern]: {} } } },
            },
            examples: [],
          }),
        ]),
      );
      assert.deepEqual(
        problems.map((p) => [p.slug, p.pointer]),
        [
          ['backtracking', '/input_schema/$defs/k/patternProperties/' + pattern.replace(/~/g, '~0').replace(/\//g, '~1')],
          ['backtracking', '/input_schema/properties/text/pattern'],
        ],
      );
      assert.match(problems[0]?.message ?? '', /cannot be matched in linear time/);
    });
  }

  it('only simple anchored patterns take the native engine; both engines agree on them', () => {
    const linear = ['^[a-z0-9-]+$', '^\\d{4}-\\d{2}-\\d{2}$', '^https?://', '^[a-z]+-[a-z]+$', '^v?(\\d+)\\.(\\d+)\\.(\\d+)$', '^[^@]+@x$'];
    for (const pattern of linear) assert.equal(isProvablyLinear(pattern), true, pattern);
    const backtracking = [
      EVIL,
      'a+b',
      '^a?a?a?a?aaaa$',
      '^(ab)*$',
      '^a|b$',
      '^\\w+\\d+$',
      '^.*.*$',
      '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$',
      '^(a)\\1$',
    ];
    for (const pattern of backtracking) assert.equal(isProvablyLinear(pattern), false, pattern);
    const inputs = ['abc-1', 'ABC', '', 'ab-cd', 'v1.2.3', '1.22.333', 'x@x', '@x', '2024-01-31', 'https://a', 'aaaa!', 'ab\n-cd'];
    for (const pattern of [...linear, ...backtracking.filter((p) => !p.includes('\\1'))]) {
      for (const input of inputs)
        assert.equal(linearRegExp(pattern, 'u').test(input), new RegExp(pattern, 'u').test(input), `${pattern} ${input}`);
    }
    for (const [pattern, inputs] of [
      ['^[a-z0-9-]+$', ['abc-1', 'ABC', '']],
      ['^\\d{4}-\\d{2}$', ['2024-01', '2024-1']],
    ] as const) {
      for (const input of inputs)
        assert.equal(linearRegExp(pattern, 'u').test(input), new RegExp(pattern, 'u').test(input), `${pattern} ${input}`);
    }
  });
});

describe('schema size and depth', () => {
  it('a schema nested 2,000 levels is a problem naming the slug and the pointer where it passes the limit', () => {
    const problems = errorsOf(bundle([tool('deep', { input_schema: nested(2000), examples: [] })]));
    assert.equal(problems.length, 1);
    assert.equal(problems[0]?.slug, 'deep');
    assert.equal(problems[0]?.pointer, `/input_schema${'/properties/a'.repeat(65)}`);
    assert.match(problems[0]?.message ?? '', /nested deeper than 64 levels/);
  });

  it('a schema with 3,000 properties checks, and its examples are validated', () => {
    const properties = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`p${i}`, { type: 'string' }]));
    const problems = errorsOf(
      bundle([tool('wide', { input_schema: { type: 'object', properties }, examples: [{ params: { p2999: 7 } }] })]),
    );
    assert.deepEqual(
      problems.map((p) => [p.slug, p.pointer]),
      [['wide', '/examples/0/params/p2999']],
    );
  });
});

describe('$ref cycles', () => {
  it('a $ref cycle with no base case is a problem naming the cycle', () => {
    const problems = errorsOf(
      bundle([
        tool('loop', {
          input_schema: { type: 'object', properties: { x: { $ref: '#/$defs/a' } }, $defs: { a: { allOf: [{ $ref: '#/$defs/a' }] } } },
          examples: [],
        }),
      ]),
    );
    assert.deepEqual(
      problems.map((p) => [p.slug, p.pointer]),
      [['loop', '/input_schema/$defs/a/allOf/0/$ref']],
    );
    assert.match(
      problems[0]?.message ?? '',
      /cycle with no base case: \/input_schema\/\$defs\/a\/allOf\/0\/\$ref → \/input_schema\/\$defs\/a/,
    );
  });

  it('names every step of a longer cycle', () => {
    const problems = errorsOf(
      bundle([
        tool('loop2', {
          input_schema: {
            type: 'object',
            $defs: { a: { anyOf: [{ $ref: '#/$defs/b' }] }, b: { oneOf: [{ $ref: '#/$defs/a' }] } },
            allOf: [{ $ref: '#/$defs/a' }],
          },
          examples: [],
        }),
      ]),
    );
    assert.equal(problems.length, 1);
    assert.match(
      problems[0]?.message ?? '',
      /\/\$defs\/a\/anyOf\/0\/\$ref → \/input_schema\/\$defs\/b, \/input_schema\/\$defs\/b\/oneOf\/0\/\$ref → \/input_schema\/\$defs\/a/,
    );
  });

  it('a $ref to itself under properties is that cycle alone, not also a compiler stack overflow', () => {
    const problems = errorsOf(
      bundle([
        tool('self', {
          input_schema: {
            type: 'object',
            properties: { a: { type: 'object', properties: { b: { $ref: '#/properties/a/properties/b' } } } },
          },
          examples: [],
        }),
      ]),
    );
    assert.deepEqual(
      problems.map((p) => p.pointer),
      ['/input_schema/properties/a/properties/b/$ref'],
    );
    assert.doesNotMatch(problems[0]?.message ?? '', /call stack/);
  });

  it('recursion through properties or items has its base case and passes', () => {
    const problems = errorsOf(
      bundle([
        tool('tree', {
          input_schema: {
            type: 'object',
            properties: { node: { $ref: '#/$defs/node' } },
            $defs: {
              node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/$defs/node' } }, parent: { $ref: '#' } } },
            },
          },
          examples: [{ params: { node: { children: [{ children: [] }] } } }],
        }),
      ]),
    );
    assert.deepEqual(problems, []);
  });
});

describe('__proto__ parameters', () => {
  it('a top-level input property named __proto__ is a warning: the server refuses such an argument', () => {
    const input = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"},"text":{"type":"string"}}}') as Record<
      string,
      unknown
    >;
    const problems = checkCatalogue(bundle([tool('proto', { input_schema: input, examples: [] })])).problems;
    assert.deepEqual(
      problems.map((p) => [p.severity, p.slug, p.pointer]),
      [['warning', 'proto', '/input_schema/properties/__proto__']],
    );
  });
});

describe('dialects the server cannot validate with', () => {
  it('a $schema outside the contract (draft-04, a typo, not a string) is an error at /…/$schema, never a crash', () => {
    for (const declared of ['http://json-schema.org/draft-04/schema#', 'https://json-schema.org/draft/2020-12/schemas', 7]) {
      const input = { $schema: declared, type: 'object', properties: { text: { type: 'string' } } };
      const output = { $schema: declared, type: 'object' };
      const problems = checkCatalogue(bundle([tool('dialect', { input_schema: input, output_schema: output, examples: [] })])).problems;
      assert.deepEqual(
        problems.map((p) => [p.severity, p.slug, p.pointer]),
        [
          ['error', 'dialect', '/input_schema/$schema'],
          ['error', 'dialect', '/output_schema/$schema'],
        ],
        String(declared),
      );
      assert.match(problems[0]!.message, /draft-07 and 2020-12/);
    }
  });

  it('the dialects of the contract check as before', () => {
    for (const declared of [
      'http://json-schema.org/draft-07/schema#',
      'http://json-schema.org/draft-07/schema',
      'https://json-schema.org/draft/2020-12/schema',
    ]) {
      const input = { $schema: declared, type: 'object', properties: { text: { type: 'string' } } };
      assert.deepEqual(errorsOf(bundle([tool('dialect', { input_schema: input, examples: [{ params: { text: 'a' } }] })])), [], declared);
    }
  });

  it('an $async schema is an error: its validation would be a promise, which reads as valid', () => {
    const input = { $async: true, type: 'object', properties: { n: { type: 'number' } } };
    const problems = errorsOf(bundle([tool('promise', { input_schema: input, examples: [{ params: { n: 'not a number' } }] })]));
    assert.deepEqual(
      problems.map((p) => [p.slug, p.pointer]),
      [['promise', '/input_schema/$async']],
    );
    // `$async: false` is ajv's default: the schema checks as it would without it, and its bad example is still caught.
    const sync = { ...input, $async: false };
    const caught = errorsOf(bundle([tool('sync', { input_schema: sync, examples: [{ params: { n: 'not a number' } }] })]));
    assert.deepEqual(
      caught.map((p) => p.slug),
      ['sync'],
    );
    assert.doesNotMatch(caught[0]!.pointer ?? '', /\$async/);
  });
});
