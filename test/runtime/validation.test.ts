import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createValidator } from '../../src/runtime/schema/validation.js';
import { captureLog, manifest, servedTool } from './core-fixtures.js';

const envValidator = servedTool(
  manifest({
    slug: 'env-validator',
    input_schema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      required: ['env_content'],
      additionalProperties: false,
      properties: {
        env_content: { type: 'string', minLength: 1 },
        count: { type: 'integer' },
        mode: { enum: ['strict', 'loose'] },
        contact: { type: 'string', format: 'email' },
      },
    },
  }),
);

test('valid draft-07 input passes', () => {
  const validator = createValidator(() => {});
  assert.equal(validator.validateInput(envValidator, { env_content: 'A=1', count: 2, contact: 'a@b.co' }), null);
});

test('a missing field is named with its pointer', () => {
  const failure = createValidator(() => {}).validateInput(envValidator, {});
  assert.equal(failure?.code, 'VALIDATION_ERROR');
  assert.equal(failure?.retryable, false);
  assert.match(failure?.error ?? '', /"env-validator"/);
  assert.match(failure?.error ?? '', /missing required field `env_content` \(at \/\)/);
  assert.deepEqual(failure?.details, {
    slug: 'env-validator',
    errors: [{ pointer: '/env_content', message: 'missing required field `env_content` (at /)', keyword: 'required' }],
  });
});

test('every error is listed, each naming its pointer', () => {
  const failure = createValidator(() => {}).validateInput(envValidator, {
    env_content: '',
    count: 'three',
    mode: 'fast',
    contact: 'not-mail',
    extra: 1,
  });
  const message = failure?.error ?? '';
  assert.match(message, /`\/count` must be integer, got string/);
  assert.match(message, /`\/env_content` must NOT have fewer than 1 characters/);
  assert.match(message, /`\/mode` must be one of "strict", "loose"/);
  assert.match(message, /`\/contact` must be a valid email/);
  assert.match(message, /unexpected field `extra` \(at \/\)/);
  const pointers = (failure?.details?.errors as { pointer: string }[]).map((e) => e.pointer).sort();
  assert.deepEqual(pointers, ['/contact', '/count', '/env_content', '/extra', '/mode']);
});

test('params must be an object', () => {
  const validator = createValidator(() => {});
  for (const [value, type] of [
    [[], 'array'],
    [null, 'null'],
    ['x', 'string'],
    [undefined, 'nothing'],
  ] as const) {
    const failure = validator.validateInput(envValidator, value);
    assert.equal(failure?.code, 'VALIDATION_ERROR');
    assert.match(failure?.error ?? '', new RegExp(`must be a JSON object, got ${type}`));
  }
});

test('a null input schema accepts any object', () => {
  const tool = servedTool(manifest({ slug: 'free', input_schema: null }));
  const validator = createValidator(() => {});
  assert.equal(validator.validateInput(tool, { anything: [1, 2] }), null);
  assert.equal(validator.validateInput(tool, 'nope')?.code, 'VALIDATION_ERROR');
});

const tree = servedTool(
  manifest({
    slug: 'tree-walker',
    input_schema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      required: ['root'],
      properties: { root: { $ref: '#/$defs/node' }, when: { type: 'string', format: 'date-time' } },
      $defs: {
        node: {
          type: 'object',
          required: ['name'],
          properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } },
          unevaluatedProperties: false,
        },
      },
    },
  }),
);

test('2020-12 with a recursive $ref points deep into the input', () => {
  const validator = createValidator(() => {});
  assert.equal(validator.validateInput(tree, { root: { name: 'a', children: [{ name: 'b', children: [] }] } }), null);
  const failure = validator.validateInput(tree, { root: { name: 'a', children: [{ name: 'b' }, { children: [{ name: 5 }] }] } });
  assert.match(failure?.error ?? '', /missing required field `name` \(at \/root\/children\/1\)/);
  assert.match(failure?.error ?? '', /`\/root\/children\/1\/children\/0\/name` must be string, got integer/);
});

test('2020-12 formats are checked', () => {
  const failure = createValidator(() => {}).validateInput(tree, { root: { name: 'a' }, when: 'yesterday' });
  assert.match(failure?.error ?? '', /`\/when` must be a valid date-time/);
});

test('no $schema means 2020-12; draft-07 definitions work too', () => {
  const validator = createValidator(() => {});
  const noDialect = servedTool(
    manifest({ slug: 'n', input_schema: { type: 'object', properties: { a: { type: 'array', prefixItems: [{ type: 'string' }] } } } }),
  );
  assert.match(validator.validateInput(noDialect, { a: [1] })?.error ?? '', /`\/a\/0` must be string/);
  const draft7 = servedTool(
    manifest({
      slug: 'd',
      input_schema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { list: { $ref: '#/definitions/list' } },
        definitions: { list: { type: 'array', items: { $ref: '#/definitions/list' } } },
      },
    }),
  );
  assert.equal(validator.validateInput(draft7, { list: [[], [[]]] }), null);
  assert.match(validator.validateInput(draft7, { list: [[], [1]] })?.error ?? '', /`\/list\/1\/0` must be array, got integer/);
});

test('pointer segments are escaped', () => {
  const tool = servedTool(manifest({ slug: 'esc', input_schema: { type: 'object', required: ['a/b~c'] } }));
  const failure = createValidator(() => {}).validateInput(tool, {});
  assert.equal((failure?.details?.errors as { pointer: string }[])[0]?.pointer, '/a~1b~0c');
});

test('a schema that does not compile is logged once and the API judges', () => {
  const { log, lines } = captureLog();
  const validator = createValidator(log);
  const broken = servedTool(manifest({ slug: 'broken', input_schema: { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } } }));
  assert.equal(validator.validateInput(broken, { a: 1 }), null);
  assert.equal(validator.validateInput(broken, { a: 2 }), null);
  assert.equal(lines.length, 1);
  assert.match(lines[0] ?? '', /"broken"/);
});

test('same $id in two tools does not clash', () => {
  const validator = createValidator(() => {});
  const a = servedTool(manifest({ slug: 'a', input_schema: { $id: 'https://x.test/s', type: 'object', required: ['a'] } }));
  const b = servedTool(manifest({ slug: 'b', input_schema: { $id: 'https://x.test/s', type: 'object', required: ['b'] } }));
  assert.match(validator.validateInput(a, {})?.error ?? '', /`a`/);
  assert.match(validator.validateInput(b, {})?.error ?? '', /`b`/);
});

test('validateOutput reports OUTPUT_MISMATCH', () => {
  const tool = servedTool(
    manifest({ slug: 'out', output_schema: { type: 'object', required: ['valid'], properties: { valid: { type: 'boolean' } } } }),
  );
  const validator = createValidator(() => {});
  assert.equal(validator.validateOutput(tool, { valid: true }), null);
  const failure = validator.validateOutput(tool, { valid: 'yes' });
  assert.equal(failure?.code, 'OUTPUT_MISMATCH');
  assert.match(failure?.error ?? '', /`\/valid` must be boolean, got string/);
  assert.equal(validator.validateOutput(servedTool(manifest({ slug: 'none' })), 42), null);
});

test('root references ($ref "#") resolve, and tools sharing a schema $id do not collide', () => {
  const logged: string[] = [];
  const validator = createValidator((line) => logged.push(line));
  const tree = {
    $id: 'https://example.com/tree.json',
    type: 'object',
    properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } },
  };
  const one = servedTool(manifest({ slug: 'tree-one', input_schema: tree }));
  const two = servedTool(manifest({ slug: 'tree-two', input_schema: { ...tree } }));
  assert.equal(validator.validateInput(one, { name: 'a', children: [{ name: 'b' }] }), null);
  const failure = validator.validateInput(two, { children: [{ children: [{ name: 7 }] }] });
  assert.equal(failure?.code, 'VALIDATION_ERROR');
  assert.match(failure!.error, /\/children\/0\/children\/0\/name/);
  assert.deepEqual(logged, [], 'both schemas compiled');
});
