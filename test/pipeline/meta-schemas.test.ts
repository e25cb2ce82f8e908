// The meta-schema validators compiled at the generator's build (draft-07 and 2020-12): each is for the meta-schema a
// schema without `$schema` is held to, and gives ajv's verdict on every schema and subschema of our catalogues, of
// hostile ones and of schemas broken against the meta-schema; code stamped by another ajv is not used; and check
// reports the same problems with them as without them.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { schemaProblems } from '../../src/pipeline/check/check-catalogue.js';
import {
  DRAFTS,
  loadCompiledMetaSchemas,
  metaSchemaFile,
  metaSchemaInstance,
  namesMetaSchema,
} from '../../src/pipeline/check/meta-schemas.js';
import { createSchemaCompiler, type SchemaCompiler } from '../../src/pipeline/check/schema-compiler.js';
import type { Manifest } from '../../src/runtime/shared/contracts.js';
import { syntheticCatalogue } from '../bench/catalogue.js';
import { hostileBundle } from '../fixtures/catalogues.js';
import { NASTY_MANIFESTS } from '../fixtures/nasty-schemas.js';

/** Where the generator's build leaves them. */
const BUILT = new URL('../../dist/check-compiled/', import.meta.url);

const EXAMPLE = JSON.parse(readFileSync(new URL('../../examples/catalogue.json', import.meta.url), 'utf8')) as {
  tools: Array<Record<string, unknown>>;
};

/** Schemas that break the meta-schemas in each way they name, and some they allow that look wrong. */
const BROKEN: unknown[] = [
  { type: 'strin' },
  { type: ['string', 'string'] },
  { type: 3 },
  { properties: { a: { minLength: -1 } } },
  { properties: [] },
  { required: 'a' },
  { required: ['a', 'a'] },
  { items: [1] },
  { enum: 'x' },
  { enum: [] },
  { $anchor: '1x' },
  { $dynamicAnchor: 'a b' },
  { $ref: 3 },
  { $defs: { a: 'x' } },
  { definitions: { a: 'x' } },
  { pattern: '[' },
  { patternProperties: { '(': {} } },
  { $id: 'not a uri ::' },
  { allOf: [] },
  { anyOf: {} },
  { not: [] },
  { multipleOf: 0 },
  { maximum: '3' },
  { dependentRequired: { a: [1] } },
  { additionalProperties: 'no' },
  { prefixItems: {} },
  { contains: 1 },
  { format: 7 },
  { const: undefined },
  { $comment: 1 },
  { unevaluatedProperties: [] },
];

/** Every object in `value`, itself first: each subschema is a schema to hold against a meta-schema too. */
function objectsIn(value: unknown, found: Array<Record<string, unknown>> = []): Array<Record<string, unknown>> {
  if (Array.isArray(value)) for (const item of value) objectsIn(item, found);
  else if (value !== null && typeof value === 'object') {
    found.push(value as Record<string, unknown>);
    for (const item of Object.values(value)) objectsIn(item, found);
  }
  return found;
}

function schemasOf(tools: ReadonlyArray<Record<string, unknown>>): unknown[] {
  return tools.flatMap((tool) => [tool.input_schema, tool.output_schema].flatMap((schema) => objectsIn(schema)));
}

const CORPUS: unknown[] = [
  ...BROKEN,
  ...schemasOf(EXAMPLE.tools),
  ...schemasOf(NASTY_MANIFESTS as unknown as Array<Record<string, unknown>>),
  ...schemasOf(hostileBundle().tools as Array<Record<string, unknown>>),
  ...schemasOf(syntheticCatalogue(40).tools as unknown as Array<Record<string, unknown>>),
];

describe('the meta-schema validators compiled at build', async () => {
  const compiled = await loadCompiledMetaSchemas(BUILT);

  it('are left in dist/ by the generator build, one per draft, made by this ajv', () => {
    assert.deepEqual([...compiled.keys()].sort(), [...DRAFTS].sort());
  });

  for (const draft of DRAFTS) {
    it(`${draft}: for the meta-schema ajv holds a schema without $schema to, and that one's names`, () => {
      const meta = compiled.get(draft)!;
      const instance = metaSchemaInstance(draft);
      assert.equal(meta.id, instance.defaultMeta());
      const own = instance.getSchema(meta.id);
      assert.ok(own);
      assert.equal(instance.getSchema(`${meta.id}#`), own);
      assert.ok(namesMetaSchema(undefined, meta) && namesMetaSchema(meta.id, meta) && namesMetaSchema(`${meta.id}#`, meta));
      assert.ok(!namesMetaSchema(`${meta.id}/`, meta) && !namesMetaSchema('', meta));
    });

    it(`${draft}: gives ajv's verdict on ${CORPUS.length} schemas and subschemas, broken and whole`, () => {
      const meta = compiled.get(draft)!;
      const instance = metaSchemaInstance(draft);
      let rejected = 0;
      for (const schema of CORPUS) {
        // Each as a schema of this draft: without its own `$schema`, which would name another meta-schema.
        const { $schema: _ignored, ...plain } = schema as Record<string, unknown>;
        const verdict = instance.validateSchema(plain) === true;
        assert.equal(meta.validate(plain), verdict, JSON.stringify(plain).slice(0, 300));
        if (!verdict) rejected += 1;
      }
      assert.ok(rejected >= 20, `the corpus breaks the ${draft} meta-schema ${rejected} times`);
    });
  }

  it('code stamped by another ajv is not used', async () => {
    // Beside the built folder, so that their imports of the pattern engine resolve as the built code's do. Two folders:
    // a module once imported is the one every later import of its URL gets.
    const stale = new URL(`../../dist/check-compiled-stale-${process.pid}/`, import.meta.url);
    const kept = new URL(`../../dist/check-compiled-kept-${process.pid}/`, import.meta.url);
    try {
      for (const dir of [stale, kept]) mkdirSync(dir, { recursive: true });
      for (const draft of DRAFTS) {
        const text = readFileSync(new URL(metaSchemaFile(draft), BUILT), 'utf8');
        writeFileSync(new URL(metaSchemaFile(draft), stale), text.replace(/"ajv":"[^"]+"/, '"ajv":"0.0.0"'));
        if (draft === '2020-12') writeFileSync(new URL(metaSchemaFile(draft), kept), text);
      }
      assert.equal((await loadCompiledMetaSchemas(stale)).size, 0);
      // The same code with its stamp intact is used, wherever it is; a draft without its file is compiled by ajv.
      assert.deepEqual([...(await loadCompiledMetaSchemas(kept)).keys()], ['2020-12']);
    } finally {
      for (const dir of [stale, kept]) rmSync(dir, { recursive: true, force: true });
    }
  });

  it('check reports the same problems with them as with ajv compiling the meta-schemas', async () => {
    const broken = BROKEN.map((schema, index) => ({
      ...(EXAMPLE.tools[0] as object),
      slug: `broken-${index}`,
      input_schema: { type: 'object', properties: { field: schema } },
    }));
    const declared = EXAMPLE.tools.slice(0, 5).map((tool, index) => ({
      ...tool,
      slug: `declared-${index}`,
      input_schema: {
        ...(tool.input_schema as object),
        $schema: index % 2 ? 'http://json-schema.org/draft-07/schema#' : 'https://json-schema.org/draft/2020-12/schema',
      },
    }));
    const manifests = [...EXAMPLE.tools, ...(hostileBundle().tools as Array<Record<string, unknown>>), ...broken, ...declared];
    const problems = (compiler: SchemaCompiler) =>
      manifests.flatMap((manifest) => schemaProblems(structuredClone(manifest) as Manifest, compiler));
    const fast = problems(createSchemaCompiler(compiled));
    assert.ok(fast.filter((problem) => problem.severity === 'error').length >= 20);
    assert.deepEqual(fast, problems(createSchemaCompiler()));
  });
});
