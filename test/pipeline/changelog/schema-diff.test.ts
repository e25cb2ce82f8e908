import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifySchemaChange, type AudienceImpact } from '../../../src/pipeline/changelog/classify.js';
import { diffSchemas, type SchemaChange } from '../../../src/pipeline/changelog/schema-diff.js';

interface Case {
  name: string;
  before: unknown;
  after: unknown;
  /** The changes expected, in order (only the listed fields are compared). */
  want: Array<Partial<SchemaChange>>;
  /** How the single expected change is classified when the schemas are a tool's input, and its output. */
  input?: AudienceImpact;
  output?: AudienceImpact;
}

const obj = (properties: Record<string, unknown>, required: string[] = [], extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  required,
  ...extra,
});
const both = (impact: AudienceImpact['sdk']): AudienceImpact => ({ sdk: impact, mcp: impact });

const cases: Case[] = [
  {
    name: 'new required field',
    before: obj({ a: { type: 'string' } }),
    after: obj({ a: { type: 'string' }, b: { type: 'string' } }, ['b']),
    want: [{ kind: 'property-added', pointer: '/properties/b', required: true }],
    input: both('breaking'),
    output: both('minor'),
  },
  {
    name: 'new optional field',
    before: obj({ a: { type: 'string' } }),
    after: obj({ a: { type: 'string' }, b: { type: 'integer' } }),
    want: [{ kind: 'property-added', pointer: '/properties/b', required: false }],
    input: both('minor'),
    output: both('minor'),
  },
  {
    name: 'removed field',
    before: obj({ a: { type: 'string' }, b: { type: 'string' } }, ['b']),
    after: obj({ a: { type: 'string' } }),
    want: [{ kind: 'property-removed', pointer: '/properties/b', required: true }],
    input: both('breaking'),
    output: both('breaking'),
  },
  {
    name: 'type changed',
    before: obj({ a: { type: 'string' } }),
    after: obj({ a: { type: 'number' } }),
    want: [{ kind: 'type-changed', pointer: '/properties/a', effect: 'changed', before: 'string', after: 'number' }],
    input: both('breaking'),
    output: both('breaking'),
  },
  {
    name: 'type widened to nullable',
    before: obj({ a: { type: 'string' } }),
    after: obj({ a: { type: ['string', 'null'] } }),
    want: [{ kind: 'type-changed', pointer: '/properties/a', effect: 'loosened' }],
    input: both('minor'),
    output: both('breaking'),
  },
  {
    name: 'number narrowed to integer (integer is a kind of number)',
    before: { type: 'number' },
    after: { type: 'integer' },
    want: [{ kind: 'type-changed', pointer: '', effect: 'tightened' }],
    input: both('breaking'),
    output: both('patch'),
  },
  {
    name: 'type no longer constrained',
    before: obj({ a: { type: 'string' } }),
    after: obj({ a: {} }),
    want: [{ kind: 'type-changed', pointer: '/properties/a', effect: 'loosened', before: 'string', after: undefined }],
  },
  {
    name: 'enum narrowed',
    before: obj({ mode: { type: 'string', enum: ['fast', 'slow'] } }),
    after: obj({ mode: { type: 'string', enum: ['fast'] } }),
    want: [{ kind: 'enum-values-removed', pointer: '/properties/mode', keyword: 'enum', effect: 'tightened', before: ['slow'] }],
    input: both('breaking'),
    output: both('patch'),
  },
  {
    name: 'enum widened',
    before: obj({ level: { enum: ['info', 'warn'] } }),
    after: obj({ level: { enum: ['info', 'warn', 'fatal'] } }),
    want: [{ kind: 'enum-values-added', pointer: '/properties/level', effect: 'loosened', after: ['fatal'] }],
    input: both('minor'),
    output: { sdk: 'breaking', mcp: 'minor' },
  },
  {
    name: 'enum values compared as JSON values, not by identity',
    before: { enum: [{ a: 1 }, [1, 2], null] },
    after: { enum: [null, [1, 2], { a: 1 }] },
    want: [],
  },
  {
    name: 'enum introduced',
    before: { type: 'string' },
    after: { type: 'string', enum: ['x'] },
    want: [{ kind: 'enum-added', effect: 'tightened', after: ['x'] }],
    input: both('breaking'),
    output: both('patch'),
  },
  {
    name: 'enum dropped',
    before: { type: 'string', enum: ['x'] },
    after: { type: 'string' },
    want: [{ kind: 'enum-removed', effect: 'loosened', before: ['x'] }],
    input: both('minor'),
    output: { sdk: 'breaking', mcp: 'minor' },
  },
  {
    name: 'const changed is one value removed and one added',
    before: { const: 'v1' },
    after: { const: 'v2' },
    want: [
      { kind: 'enum-values-added', keyword: 'const', after: ['v2'] },
      { kind: 'enum-values-removed', keyword: 'const', before: ['v1'] },
    ],
  },
  {
    name: 'field became required',
    before: obj({ a: { type: 'string' } }),
    after: obj({ a: { type: 'string' } }, ['a']),
    want: [{ kind: 'required-added', pointer: '/properties/a', keyword: 'required' }],
    input: both('breaking'),
    output: both('patch'),
  },
  {
    name: 'field became optional',
    before: obj({ a: { type: 'string' } }, ['a']),
    after: obj({ a: { type: 'string' } }),
    want: [{ kind: 'required-removed', pointer: '/properties/a' }],
    input: both('minor'),
    output: both('breaking'),
  },
  {
    name: 'format added',
    before: { type: 'string' },
    after: { type: 'string', format: 'email' },
    want: [{ kind: 'format-changed', effect: 'tightened', after: 'email' }],
    input: both('breaking'),
    output: both('patch'),
  },
  {
    name: 'format changed',
    before: { type: 'string', format: 'date' },
    after: { type: 'string', format: 'date-time' },
    want: [{ kind: 'format-changed', effect: 'changed', before: 'date', after: 'date-time' }],
    input: both('breaking'),
    output: both('breaking'),
  },
  {
    name: 'pattern removed',
    before: { type: 'string', pattern: '^[a-z]+$' },
    after: { type: 'string' },
    want: [{ kind: 'pattern-changed', effect: 'loosened' }],
    input: both('minor'),
    output: both('minor'),
  },
  {
    name: 'maximum lowered',
    before: { type: 'integer', minimum: 0, maximum: 100 },
    after: { type: 'integer', minimum: 0, maximum: 10 },
    want: [{ kind: 'constraint-changed', keyword: 'maximum', effect: 'tightened', before: 100, after: 10 }],
    input: both('breaking'),
    output: both('patch'),
  },
  {
    name: 'minLength lowered',
    before: { type: 'string', minLength: 3 },
    after: { type: 'string', minLength: 1 },
    want: [{ kind: 'constraint-changed', keyword: 'minLength', effect: 'loosened' }],
    input: both('minor'),
    output: both('minor'),
  },
  {
    name: 'maxItems added and uniqueItems dropped',
    before: { type: 'array', uniqueItems: true },
    after: { type: 'array', maxItems: 5 },
    want: [
      { kind: 'constraint-changed', keyword: 'maxItems', effect: 'tightened', after: 5 },
      { kind: 'constraint-changed', keyword: 'uniqueItems', effect: 'loosened' },
    ],
  },
  {
    name: 'multipleOf to a multiple of itself is tighter',
    before: { type: 'number', multipleOf: 2 },
    after: { type: 'number', multipleOf: 6 },
    want: [{ kind: 'constraint-changed', keyword: 'multipleOf', effect: 'tightened' }],
  },
  {
    name: 'additionalProperties tightened',
    before: obj({ a: { type: 'string' } }),
    after: obj({ a: { type: 'string' } }, [], { additionalProperties: false }),
    want: [
      {
        kind: 'additional-properties-changed',
        pointer: '',
        keyword: 'additionalProperties',
        effect: 'tightened',
        before: undefined,
        after: false,
      },
    ],
    input: both('breaking'),
    output: both('patch'),
  },
  {
    name: 'additionalProperties loosened from false to a schema',
    before: { type: 'object', additionalProperties: false },
    after: { type: 'object', additionalProperties: { type: 'string' } },
    want: [{ kind: 'additional-properties-changed', effect: 'loosened' }],
    input: both('minor'),
    output: both('minor'),
  },
  {
    name: 'additionalProperties schemas compared field by field',
    before: { type: 'object', additionalProperties: { type: 'string' } },
    after: { type: 'object', additionalProperties: { type: 'integer' } },
    want: [{ kind: 'type-changed', pointer: '/additionalProperties' }],
  },
  {
    name: 'default changed',
    before: obj({ n: { type: 'integer', default: 3 } }),
    after: obj({ n: { type: 'integer', default: 5 } }),
    want: [{ kind: 'default-changed', pointer: '/properties/n', before: 3, after: 5, effect: 'annotation' }],
    input: both('minor'),
    output: both('patch'),
  },
  {
    name: 'description changed is only documentation',
    before: obj({ n: { type: 'integer', description: 'How many.' } }),
    after: obj({ n: { type: 'integer', description: 'How many items.' } }),
    want: [{ kind: 'description-changed', pointer: '/properties/n', keyword: 'description', effect: 'annotation' }],
    input: both('patch'),
    output: both('patch'),
  },
  {
    name: 'deprecated added',
    before: obj({ old: { type: 'string' } }),
    after: obj({ old: { type: 'string', deprecated: true } }),
    want: [{ kind: 'deprecated-added', pointer: '/properties/old' }],
    input: both('minor'),
    output: both('minor'),
  },
  {
    name: 'nested array items: pointer of the property',
    before: obj({ tasks: { type: 'array', items: obj({ cli: { enum: ['claude', 'codex', 'gemini'] } }) } }),
    after: obj({ tasks: { type: 'array', items: obj({ cli: { enum: ['claude', 'codex', 'opencode'] } }) } }),
    want: [
      { kind: 'enum-values-added', pointer: '/properties/tasks/items/properties/cli', after: ['opencode'] },
      { kind: 'enum-values-removed', pointer: '/properties/tasks/items/properties/cli', before: ['gemini'] },
    ],
  },
  {
    name: 'property names are escaped in pointers (RFC 6901)',
    before: obj({ 'a/b~c': { type: 'string' } }),
    after: obj({ 'a/b~c': { type: 'boolean' } }),
    want: [{ kind: 'type-changed', pointer: '/properties/a~1b~0c' }],
  },
  {
    name: '$ref resolved on each side (renamed definition, changed type)',
    before: { type: 'object', properties: { a: { $ref: '#/$defs/Old' } }, $defs: { Old: { type: 'string' } } },
    after: { type: 'object', properties: { a: { $ref: '#/definitions/New' } }, definitions: { New: { type: 'string', maxLength: 9 } } },
    want: [{ kind: 'constraint-changed', pointer: '/properties/a', keyword: 'maxLength', effect: 'tightened' }],
  },
  {
    name: '$ref on one side, the same schema inline on the other: no change',
    before: { type: 'object', properties: { a: { $ref: '#/$defs/A' } }, $defs: { A: { type: 'string', enum: ['x'] } } },
    after: { type: 'object', properties: { a: { type: 'string', enum: ['x'] } } },
    want: [],
  },
  {
    name: 'recursive $ref: compared once per path, terminates',
    before: {
      $ref: '#/$defs/node',
      $defs: {
        node: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } } },
      },
    },
    after: {
      $ref: '#/$defs/node',
      $defs: {
        node: { type: 'object', properties: { name: { type: 'number' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } } },
      },
    },
    want: [{ kind: 'type-changed', pointer: '/properties/name' }],
  },
  {
    name: 'a ref-to-ref cycle does not hang',
    before: { $ref: '#/$defs/a', $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } } },
    after: { $ref: '#/$defs/a', $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } } },
    want: [],
  },
  {
    name: 'unresolvable $ref compared as text',
    before: obj({ a: { $ref: '#/$defs/missing' } }),
    after: obj({ a: { $ref: '#/$defs/other' } }),
    want: [{ kind: 'keyword-changed', pointer: '/properties/a', keyword: '$ref', effect: 'changed' }],
    input: both('breaking'),
    output: both('breaking'),
  },
  {
    name: 'anyOf variant added (nullable)',
    before: obj({ cli: { anyOf: [{ type: 'string', minLength: 1 }] } }),
    after: obj({ cli: { anyOf: [{ type: 'string', minLength: 1 }, { type: 'null' }] } }),
    want: [{ kind: 'variant-added', pointer: '/properties/cli/anyOf/1', effect: 'loosened', after: { type: 'null' } }],
    input: both('minor'),
    output: both('breaking'),
  },
  {
    name: 'anyOf variants matched by content before order',
    before: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
    after: { anyOf: [{ type: 'integer' }, { type: 'string', maxLength: 3 }] },
    want: [{ kind: 'constraint-changed', pointer: '/anyOf/1', keyword: 'maxLength' }],
  },
  {
    name: 'boolean schemas: true to false accepts nothing',
    before: obj({ a: true }),
    after: obj({ a: false }),
    want: [{ kind: 'type-changed', pointer: '/properties/a', effect: 'tightened' }],
  },
  {
    name: 'validation keyword without a finer rule',
    before: { type: 'string', not: { const: 'x' } },
    after: { type: 'string', not: { const: 'y' } },
    want: [{ kind: 'keyword-changed', keyword: 'not', effect: 'changed' }],
  },
  {
    name: 'a changed definition behind the same $ref in a oneOf variant',
    before: { ...obj({ a: { oneOf: [{ $ref: '#/$defs/A' }, { type: 'null' }] } }), $defs: { A: { type: 'string' } } },
    after: { ...obj({ a: { oneOf: [{ $ref: '#/$defs/A' }, { type: 'null' }] } }), $defs: { A: { type: 'integer' } } },
    want: [{ kind: 'type-changed', pointer: '/properties/a/oneOf/0', effect: 'changed', before: 'string', after: 'integer' }],
    input: both('breaking'),
    output: both('breaking'),
  },
  {
    name: 'anyOf variant spelled through a $ref on one side: no change',
    before: { anyOf: [{ $ref: '#/$defs/S' }, { type: 'integer' }], $defs: { S: { type: 'string', minLength: 1 } } },
    after: { anyOf: [{ type: 'integer' }, { type: 'string', minLength: 1 }] },
    want: [],
  },
  {
    name: 'a changed definition behind the same $ref in `not`',
    before: { type: 'string', not: { $ref: '#/$defs/X' }, $defs: { X: { const: 'x' } } },
    after: { type: 'string', not: { $ref: '#/$defs/X' }, $defs: { X: { const: 'y' } } },
    want: [{ kind: 'keyword-changed', keyword: 'not', effect: 'changed' }],
  },
  {
    name: 'draft-07 tuple (items array, additionalItems) and 2020-12 tuple (prefixItems, items): no change',
    before: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'array',
      items: [{ type: 'string' }, { type: 'integer' }],
      additionalItems: false,
    },
    after: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false },
    want: [],
  },
  {
    name: 'draft-07 tuple to 2020-12 tuple: a change in an item is found at its 2020-12 pointer',
    before: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }] },
    after: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer', maximum: 9 }] },
    want: [{ kind: 'constraint-changed', pointer: '/prefixItems/1', keyword: 'maximum', effect: 'tightened' }],
  },
  {
    name: 'draft-07 tuple to 2020-12 tuple: rest items closed',
    before: { type: 'array', items: [{ type: 'string' }] },
    after: { type: 'array', prefixItems: [{ type: 'string' }], items: false },
    want: [{ kind: 'type-changed', pointer: '/items', effect: 'tightened' }],
    input: both('breaking'),
  },
  {
    name: 'draft-07 dependencies and 2020-12 dependentRequired/dependentSchemas: no change',
    before: { type: 'object', dependencies: { a: ['c', 'b'], d: { required: ['e'] } } },
    after: { type: 'object', dependentRequired: { a: ['b', 'c'] }, dependentSchemas: { d: { required: ['e'] } } },
    want: [],
  },
  {
    name: 'draft-07 dependencies to dependentRequired with one more name',
    before: { type: 'object', dependencies: { a: ['b'] } },
    after: { type: 'object', dependentRequired: { a: ['b', 'c'] } },
    want: [{ kind: 'keyword-changed', keyword: 'dependentRequired', effect: 'changed', before: { a: ['b'] }, after: { a: ['b', 'c'] } }],
  },
  {
    name: 'an enum of strings with or without type: "string" accepts the same values: no change',
    before: obj({ a: { type: 'string', enum: ['x', 'y'] }, n: { type: 'number', const: 3 } }),
    after: obj({ a: { enum: ['x', 'y'] }, n: { type: 'integer', const: 3 } }),
    want: [],
  },
  {
    name: 'an enum gaining a value of another type is the enum change alone',
    before: obj({ a: { enum: ['x'] } }),
    after: obj({ a: { enum: ['x', 1] } }),
    want: [{ kind: 'enum-values-added', pointer: '/properties/a', after: [1] }],
    output: { sdk: 'breaking', mcp: 'minor' },
  },
  {
    name: 'type dropped from an enum that allows null too: widened',
    before: obj({ a: { type: 'string', enum: ['x', null] } }),
    after: obj({ a: { type: ['string', 'null'], enum: ['x', null] } }),
    want: [{ kind: 'type-changed', pointer: '/properties/a', effect: 'loosened' }],
    output: both('breaking'),
  },
  {
    name: 'exclusiveMinimum 0 to minimum 0 lets 0 in: loosened, both keywords',
    before: obj({ n: { type: 'number', exclusiveMinimum: 0 } }),
    after: obj({ n: { type: 'number', minimum: 0 } }),
    want: [
      { kind: 'constraint-changed', pointer: '/properties/n', keyword: 'minimum', effect: 'loosened', before: undefined, after: 0 },
      {
        kind: 'constraint-changed',
        pointer: '/properties/n',
        keyword: 'exclusiveMinimum',
        effect: 'loosened',
        before: 0,
        after: undefined,
      },
    ],
    input: both('minor'),
  },
  {
    name: 'maximum 10 to exclusiveMaximum 10 keeps 10 out: tightened',
    before: obj({ n: { type: 'number', maximum: 10 } }),
    after: obj({ n: { type: 'number', exclusiveMaximum: 10 } }),
    want: [
      { kind: 'constraint-changed', keyword: 'maximum', effect: 'tightened' },
      { kind: 'constraint-changed', keyword: 'exclusiveMaximum', effect: 'tightened' },
    ],
    input: both('breaking'),
  },
  {
    name: 'a weaker bound beside the stricter one dropped: no change',
    before: obj({ n: { type: 'number', minimum: 5, exclusiveMinimum: 0 }, m: { type: 'number', minimum: 0, exclusiveMinimum: 0 } }),
    after: obj({ n: { type: 'number', minimum: 5 }, m: { type: 'number', exclusiveMinimum: 0 } }),
    want: [],
  },
  {
    name: 'multipleOf 2 to 3: neither accepts all the other does',
    before: obj({ n: { type: 'integer', multipleOf: 2 } }),
    after: obj({ n: { type: 'integer', multipleOf: 3 } }),
    want: [{ kind: 'constraint-changed', keyword: 'multipleOf', effect: 'changed' }],
    input: both('breaking'),
    output: both('breaking'),
  },
  {
    name: 'multipleOf 4 to 2 accepts more; 2 to 4 fewer',
    before: obj({ n: { type: 'integer', multipleOf: 4 }, m: { type: 'integer', multipleOf: 2 } }),
    after: obj({ n: { type: 'integer', multipleOf: 2 }, m: { type: 'integer', multipleOf: 4 } }),
    want: [
      { kind: 'constraint-changed', pointer: '/properties/n', effect: 'loosened' },
      { kind: 'constraint-changed', pointer: '/properties/m', effect: 'tightened' },
    ],
  },
  {
    name: 'a tuple item dropped before open rest items: that position accepts anything now',
    before: obj({ pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }] } }),
    after: obj({ pair: { type: 'array', prefixItems: [{ type: 'string' }] } }),
    want: [{ kind: 'type-changed', pointer: '/properties/pair/prefixItems/1', effect: 'loosened', before: 'integer', after: undefined }],
    input: both('minor'),
    output: both('breaking'),
  },
  {
    name: 'a tuple item added after open rest items narrows that position',
    before: obj({ pair: { type: 'array', items: [{ type: 'string' }] } }),
    after: obj({ pair: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }] } }),
    want: [{ kind: 'type-changed', pointer: '/properties/pair/items/1', effect: 'tightened' }],
    input: both('breaking'),
    output: both('patch'),
  },
  {
    name: 'a tuple whose first item repeats the rest schema: no change',
    before: { type: 'array', items: { type: 'string' } },
    after: { type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'string' } },
    want: [],
  },
  {
    name: 'key order and examples/$comment do not count',
    before: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } }, required: ['a', 'b'], examples: [{}] },
    after: { required: ['b', 'a'], $comment: 'x', properties: { b: { type: 'integer' }, a: { type: 'string' } }, type: 'object' },
    want: [],
  },
];

function pick(change: SchemaChange, fields: Partial<SchemaChange>): Partial<SchemaChange> {
  return Object.fromEntries(Object.keys(fields).map((key) => [key, change[key as keyof SchemaChange]]));
}

describe('schema diff', () => {
  for (const c of cases) {
    it(c.name, () => {
      const before = structuredClone(c.before);
      const after = structuredClone(c.after);
      const changes = diffSchemas(before, after);
      assert.deepEqual(
        changes.map((change, i) => pick(change, c.want[i] ?? {})),
        c.want,
        JSON.stringify(changes),
      );
      assert.equal(changes.length, c.want.length, JSON.stringify(changes));
      // The schemas are data: never changed by the comparison.
      assert.deepEqual(before, c.before);
      assert.deepEqual(after, c.after);
      if (c.input) assert.deepEqual(classifySchemaChange('input', changes[0]!), c.input, 'as input');
      if (c.output) assert.deepEqual(classifySchemaChange('output', changes[0]!), c.output, 'as output');
    });
  }

  it('identical schemas have no changes, even with recursion', () => {
    const tree = { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#' } } } };
    assert.deepEqual(diffSchemas(tree, structuredClone(tree)), []);
    // A change under a self-referencing root is found at each level once, then the recursion stops.
    const changed = { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#' } }, tag: { type: 'string' } } };
    assert.deepEqual(
      diffSchemas(tree, changed).map((c) => c.pointer),
      ['/properties/kids/items/properties/tag', '/properties/tag'],
    );
  });
});
