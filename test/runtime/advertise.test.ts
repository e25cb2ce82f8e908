import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ToolSchema } from '@modelcontextprotocol/sdk/types.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { advertisedTool, FAILURE_ENVELOPE_SCHEMA, outputSchemaOf, withheldReasonFor } from '../../src/runtime/advertise.js';
import { toolFailure } from '../../src/runtime/contracts.js';
import { manifest, servedTool } from './core-fixtures.js';

test('slug, title, verbatim description, schema unchanged', () => {
  const inputSchema = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', required: ['env_content'], properties: { env_content: { type: 'string' } } };
  const description = 'Validates a `.env` file.\nQuotes: "it\'s" */ \u2028 done';
  const tool = advertisedTool(servedTool(manifest({
    slug: 'env-validator', name: 'Env Validator', description, input_schema: inputSchema,
    output_schema: { type: 'object', properties: { valid: { type: 'boolean' } } },
    annotations: { readOnlyHint: true, openWorldHint: false },
  })));
  assert.deepEqual(tool, {
    name: 'env-validator', title: 'Env Validator', description, inputSchema,
    outputSchema: { type: 'object', anyOf: [{ type: 'object', properties: { valid: { type: 'boolean' } } }, FAILURE_ENVELOPE_SCHEMA] },
    annotations: { readOnlyHint: true, openWorldHint: false },
  });
  assert.equal(tool.inputSchema, inputSchema);
  assert.ok(ToolSchema.safeParse(tool).success);
});

test('null and type-less schemas become objects; non-object outputs are not advertised', () => {
  const bare = advertisedTool(servedTool(manifest({ slug: 'bare', input_schema: null, output_schema: { type: 'string' } })));
  assert.deepEqual(bare.inputSchema, { type: 'object', properties: {} });
  assert.equal('outputSchema' in bare, false);
  assert.equal('annotations' in bare, false);
  const untyped = { properties: { a: { type: 'number' } } };
  const tool = advertisedTool(servedTool(manifest({ slug: 'untyped', input_schema: untyped })));
  assert.deepEqual(tool.inputSchema, { type: 'object', properties: { a: { type: 'number' } } });
  assert.deepEqual(untyped, { properties: { a: { type: 'number' } } });
});

test('deprecated tools lead with a Deprecated line', () => {
  const tool = advertisedTool(servedTool(manifest({ slug: 'old', description: 'Does the old thing.', deprecated: 'use new-tool instead' })));
  assert.equal(tool.description, 'Deprecated: use new-tool instead.\nDoes the old thing.');
  const dotted = advertisedTool(servedTool(manifest({ slug: 'old2', description: 'x', deprecated: 'Use y.' })));
  assert.equal(dotted.description, 'Deprecated: Use y.\nx');
});

test('withheldReasonFor explains the grammar failure', () => {
  assert.equal(withheldReasonFor('env-validator_2'), null);
  assert.match(withheldReasonFor('env validator') ?? '', /" "/);
  assert.match(withheldReasonFor('a/b') ?? '', /"\/"/);
  assert.match(withheldReasonFor('x'.repeat(65)) ?? '', /longer than 64/);
  assert.match(withheldReasonFor('café') ?? '', /"é"/);
});

test('outputSchema accepts exactly the results the tool schema accepts, plus the failure envelope', () => {
  const output = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    required: ['tree'],
    properties: { tree: { $ref: '#/$defs/node' } },
    $defs: { node: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/$defs/node' } } }, additionalProperties: false } },
  };
  const before = JSON.stringify(output);
  const ajv = new Ajv2020({ strict: false });
  const original = ajv.compile(output);
  const advertised = ajv.compile(outputSchemaOf(output));
  assert.equal(JSON.stringify(output), before, 'the manifest schema is not mutated');
  const samples = [{ tree: { kids: [{ kids: [] }] } }, { tree: { kids: [{ other: 1 }] } }, {}, { tree: 'x' }];
  for (const sample of samples) assert.equal(advertised(sample), original(sample), JSON.stringify(sample));
  assert.equal(advertised(toolFailure('VALIDATION_ERROR', 'missing field')), true);
  assert.equal(advertised({ success: false }), false);
});
