// Checks the example catalogue: up to date with its script, valid against the manifest schema, and every
// example really produces its documented result when run through the mock API.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { catalogueText, CATALOGUE_PATH } from '../../examples/make-catalogue.js';
import type { JsonObject, Manifest } from '../../src/runtime/shared/contracts.js';
import { manifestsFromBundle, startMockApi, type MockApi } from '../../src/runtime/dev/mock-api.js';

const MCP_TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

const catalogueFileText = readFileSync(CATALOGUE_PATH, 'utf8');
const bundle = JSON.parse(catalogueFileText) as { format: string; tools: Manifest[] };

// Strict mode catches misspelt keywords in the catalogue's own schemas.
const strictOptions = { strict: true, strictRequired: false, allowUnionTypes: true, allErrors: true } as const;
const ajv2020 = new Ajv2020(strictOptions);
addFormats.default(ajv2020);
const ajv07 = new Ajv(strictOptions);
addFormats.default(ajv07);

function compile(schema: JsonObject): ValidateFunction {
  return schema.$schema === DRAFT_07 ? ajv07.compile(schema) : ajv2020.compile(schema);
}

function errorsOf(validate: ValidateFunction): string {
  return JSON.stringify(validate.errors, null, 2);
}

describe('examples/catalogue.json', () => {
  it('is exactly what examples/make-catalogue.ts writes', () => {
    assert.equal(catalogueFileText, catalogueText(), 'run `npx tsx examples/make-catalogue.ts` to regenerate it');
    assert.ok(catalogueFileText.endsWith('}\n') && !catalogueFileText.includes('\r'));
  });

  it('validates against the manifest schema', () => {
    const schema = JSON.parse(readFileSync(new URL('../../src/schemas/manifest.schema.json', import.meta.url), 'utf8')) as JsonObject;
    const validate = new Ajv2020({ strict: false }).compile(schema);
    assert.ok(validate(bundle), errorsOf(validate));
    assert.equal(manifestsFromBundle(bundle).length, bundle.tools.length);
  });

  it('has tools sorted by slug (code unit order) and unique', () => {
    const slugs = bundle.tools.map((tool) => tool.slug);
    const sorted = [...slugs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    assert.deepEqual(slugs, sorted);
    assert.equal(new Set(slugs).size, slugs.length);
    assert.ok(slugs.length >= 30, `only ${slugs.length} tools`);
  });

  it('covers the cases the generator must handle', () => {
    const bySlug = new Map(bundle.tools.map((tool) => [tool.slug, tool]));
    const envValidator = bySlug.get('env-validator')?.input_schema as JsonObject | undefined;
    assert.deepEqual(envValidator?.required, ['env_content']);
    assert.deepEqual((envValidator?.properties as JsonObject).required_keys, {
      type: 'array',
      items: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
      uniqueItems: true,
      description: 'Keys that must be present, e.g. ["DATABASE_URL", "PORT"].',
    });
    const dataGenerator = bySlug.get('data-generator')?.input_schema as JsonObject | undefined;
    assert.equal(((dataGenerator?.properties as JsonObject).count as JsonObject).type, 'integer');

    const invalidNames = bundle.tools.map((tool) => tool.slug).filter((slug) => !MCP_TOOL_NAME.test(slug));
    assert.ok(
      invalidNames.some((slug) => slug.includes(' ')),
      'a slug with a space',
    );
    assert.ok(
      invalidNames.some((slug) => slug.includes('/')),
      'a slug with a slash',
    );
    assert.ok(
      invalidNames.some((slug) => /[^\p{ASCII}]/u.test(slug) || slug.length > 64),
      'a non-ASCII or long slug',
    );

    const draft07 = bundle.tools.filter((tool) => tool.input_schema?.$schema === DRAFT_07 && tool.input_schema.definitions !== undefined);
    assert.ok(draft07.length >= 2, 'two draft-07 input schemas with definitions');
    assert.equal(bundle.tools.filter((tool) => tool.input_schema === null).length, 1);
    assert.ok(bundle.tools.some((tool) => typeof tool.deprecated === 'string' && tool.deprecated.length > 0));
    const schemasText = JSON.stringify(bundle.tools.map((tool) => tool.input_schema));
    assert.match(schemasText, /"\$ref":"#\/\$defs\//);
    assert.match(schemasText, /"oneOf":/);
    // json-schema-validator-lite's schemaNode refers to itself.
    const lite = bySlug.get('json-schema-validator-lite')?.input_schema as { $defs: { schemaNode: unknown } };
    assert.match(JSON.stringify(lite.$defs.schemaNode), /"\$ref":"#\/\$defs\/schemaNode"/);
  });

  for (const tool of bundle.tools) {
    it(`${JSON.stringify(tool.slug)}: complete manifest with compiling schemas and valid examples`, () => {
      assert.ok(tool.description.length >= 80, 'a description in prose');
      assert.match(tool.version, /^\d+\.\d+\.\d+$/);
      assert.ok(tool.category.length > 0 && tool.tags.length > 0);
      assert.ok(tool.annotations && typeof tool.annotations.readOnlyHint === 'boolean');
      assert.equal(tool.source?.runtime, 'node');
      assert.equal(tool.output_schema?.type, 'object');
      compile(tool.output_schema!);
      assert.ok(tool.examples && tool.examples.length >= 1 && tool.examples.length <= 2);
      if (tool.input_schema === null) return;
      assert.equal(tool.input_schema.type, 'object');
      const validateInput = compile(tool.input_schema);
      for (const example of tool.examples) assert.ok(validateInput(example.params), `${example.title}: ${errorsOf(validateInput)}`);
    });
  }
});

describe('examples run through the mock API', () => {
  let api: MockApi;
  before(async () => {
    api = await startMockApi({ manifests: manifestsFromBundle(bundle) });
  });
  after(() => api.close());

  for (const tool of bundle.tools) {
    it(`${JSON.stringify(tool.slug)}: each example returns a result matching output_schema`, async () => {
      const validateOutput = compile(tool.output_schema!);
      for (const example of tool.examples ?? []) {
        const response = await fetch(`${api.url}/tools/${encodeURIComponent(tool.slug)}/run`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ params: example.params }),
        });
        const body = (await response.json()) as { success: boolean; result: unknown; duration_ms: number };
        assert.equal(response.status, 200, `${example.title}: ${JSON.stringify(body)}`);
        assert.equal(body.success, true);
        assert.equal(typeof body.duration_ms, 'number');
        assert.ok(validateOutput(body.result), `${example.title}: ${errorsOf(validateOutput)}`);
        if ('result' in example) assert.deepEqual(body.result, example.result, example.title);
      }
    });
  }
});
