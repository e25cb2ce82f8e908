import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JsonObject } from '../../src/runtime/shared/contracts.js';
import {
  callFor,
  inputFields,
  parameterCounts,
  plainValue,
  requiredFields,
  sampleValue,
  validExampleArguments,
} from '../../src/runtime/schema/call-shape.js';
import { ajvValidator, servedTools } from './surface-fixtures.js';

const tools = servedTools();
const validator = ajvValidator();
const tool = (slug: string) => {
  const found = tools.find((candidate) => candidate.slug === slug);
  assert.ok(found, slug);
  return found;
};

describe('validExampleArguments', () => {
  it('produces arguments that validate for every tool in the catalogue', () => {
    for (const candidate of tools) {
      const example = validExampleArguments(candidate, validator);
      assert.equal(example.valid, true, candidate.slug);
      assert.equal(validator.validateInput(candidate, example.arguments), null, candidate.slug);
    }
  });
  it("uses the manifest's first example when it validates", () => {
    assert.deepEqual(validExampleArguments(tool('env-validator'), validator), {
      arguments: { env_content: 'DEBUG=true', required_keys: ['DEBUG', 'PORT'] },
      source: 'manifest-example',
      valid: true,
    });
  });
  it('skips a manifest example that does not validate', () => {
    assert.deepEqual(validExampleArguments(tool('color-converter'), validator).arguments, { color: '#ff8800' });
  });
  it('synthesizes required fields, defaults, enums, formats and $refs', () => {
    const table: [string, JsonObject][] = [
      ['data-generator', { count: 1 }],
      ['base64-codec', { text: 'example', mode: 'encode' }],
      ['url-parser', { url: 'https://example.com' }],
      ['ip-info', { ip: '192.0.2.1' }],
      ['password-generator', { length: 8 }],
      ['ts-type-generator', { json: 'example', options: { root_name: 'Root' } }],
      ['gitignore-generator', { templates: ['example'] }],
      ['server-time', {}],
    ];
    for (const [slug, want] of table) {
      const example = validExampleArguments(tool(slug), validator);
      assert.equal(example.source, 'synthesized', slug);
      assert.deepEqual(example.arguments, want, slug);
    }
  });
  it('reports when no example can be made valid', () => {
    const [patterned] = servedTools([
      {
        slug: 'p',
        name: 'P',
        description: '',
        category: '',
        tags: [],
        version: '1',
        input_schema: { type: 'object', properties: { id: { type: 'string', pattern: '^[0-9]{4}$' } }, required: ['id'] },
      },
    ]);
    assert.ok(patterned);
    assert.equal(validExampleArguments(patterned, validator).valid, false);
  });
});

describe('sampleValue', () => {
  const table: [string, JsonObject, unknown][] = [
    ['const', { const: 7 }, 7],
    ['string minLength', { type: 'string', minLength: 10 }, 'examplexxx'],
    ['string maxLength', { type: 'string', maxLength: 3 }, 'exa'],
    ['exclusive minimum', { type: 'integer', exclusiveMinimum: 5 }, 6],
    ['multipleOf', { type: 'number', minimum: 7, multipleOf: 5 }, 10],
    ['nullable type list', { type: ['null', 'boolean'] }, false],
    ['oneOf first branch', { oneOf: [{ type: 'integer' }, { type: 'string' }] }, 1],
    ['allOf merged', { allOf: [{ type: 'object', required: ['a'] }, { properties: { a: { enum: ['x'] } } }] }, { a: 'x' }],
    ['date-time', { type: 'string', format: 'date-time' }, '2024-01-01T00:00:00Z'],
    ['unique items', { type: 'array', minItems: 2, uniqueItems: true, items: { type: 'integer' } }, [1, 2]],
  ];
  for (const [name, schema, want] of table) it(name, () => assert.deepEqual(sampleValue(schema, schema), want));
  it('stops on recursive required refs', () => {
    const schema: JsonObject = {
      $defs: { node: { type: 'object', properties: { next: { $ref: '#/$defs/node' } }, required: ['next'] } },
      $ref: '#/$defs/node',
    };
    const value = sampleValue(schema, schema);
    assert.equal(typeof value, 'object');
  });
});

describe('plainValue', () => {
  const answered: [string, unknown, unknown][] = [
    ['const before default', { const: 'c', default: 'd' }, 'c'],
    ['default before enum', { enum: ['x', 'y'], default: 'y' }, 'y'],
    ['first enum value', { enum: ['x', 'y'] }, 'x'],
    ['first example', { type: 'string', examples: ['e'] }, 'e'],
    ['integer minimum', { type: 'integer', minimum: 2.5 }, 3],
    ['string format', { type: 'string', format: 'email' }, 'user@example.com'],
    ['boolean', { type: 'boolean' }, false],
    ['null', { type: 'null' }, null],
  ];
  for (const [name, schema, want] of answered) it(name, () => assert.deepEqual(plainValue(schema), want));

  const unanswered: [string, unknown][] = [
    ['a reference', { $ref: '#/$defs/x' }],
    ['a composition', { type: 'string', anyOf: [{ minLength: 1 }] }],
    ['an object', { type: 'object', properties: {} }],
    ['an array', { type: 'array', items: { type: 'string' } }],
    ['a list of types', { type: ['string', 'null'] }],
    ['no type', { description: 'anything' }],
    ['not a schema', true],
  ];
  for (const [name, schema] of unanswered) it(`nothing for ${name}`, () => assert.equal(plainValue(schema), undefined));

  it('is what sampleValue gives for the nodes it answers', () => {
    for (const [, schema] of answered) assert.deepEqual(sampleValue({}, schema), plainValue(schema), JSON.stringify(schema));
  });
});

describe('parameter helpers', () => {
  it('counts required and total parameters', () => {
    assert.deepEqual(parameterCounts(tool('env-validator')), { required: 1, total: 3 });
    assert.deepEqual(parameterCounts(tool('server-time')), { required: 0, total: 0 });
    assert.deepEqual(requiredFields(tool('diff-checker')), ['original', 'modified']);
  });
  it('lists fields in schema order with $ref types resolved', () => {
    assert.deepEqual(
      inputFields(tool('ts-type-generator')).map((field) => [field.name, field.type, field.required]),
      [
        ['json', 'string', true],
        ['options', 'object', true],
      ],
    );
  });
  it('calls withheld tools through the meta-tool', () => {
    assert.deepEqual(callFor(tool('json/format'), { json: '{}' }, 'nexusbloom'), {
      name: 'nexusbloom',
      arguments: { command: 'run', slug: 'json/format', params: { json: '{}' } },
    });
    assert.deepEqual(callFor(tool('json-formatter'), { json: '{}' }, 'nexusbloom'), { name: 'json-formatter', arguments: { json: '{}' } });
  });
});
