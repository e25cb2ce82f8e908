import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { JsonObject, Manifest } from '../../src/runtime/shared/contracts.js';
import {
  namedBooleanSubschemasAsObjects,
  NAMED_SCHEMA_KEYWORDS,
  forEachSchema,
  inlineRefs,
  mapSubschemas,
  DEFAULT_RECURSION_DEPTH,
} from '../../src/runtime/schema/schema-transform.js';
import { isJsonObject, pointerToken } from '../../src/runtime/shared/json-values.js';
import { DEEP_TREE, NASTY_MANIFESTS } from '../fixtures/nasty-schemas.js';
import { compileSchema } from '../fixtures/schema-mutations.js';

const exampleCatalogue = JSON.parse(readFileSync(new URL('../../examples/catalogue.json', import.meta.url), 'utf8')) as {
  tools: Manifest[];
};
const allManifests = [...exampleCatalogue.tools, ...NASTY_MANIFESTS];

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

function refKeywordsIn(schema: JsonObject): string[] {
  const found: string[] = [];
  forEachSchema(schema, (node, pointer) => {
    if (!isJsonObject(node)) return;
    for (const keyword of ['$ref', '$defs', 'definitions', '$anchor', '$id']) if (keyword in node) found.push(`${pointer}/${keyword}`);
  });
  return found;
}

function validators(original: JsonObject, advertised: JsonObject) {
  return { original: compileSchema(original), advertised: compileSchema(advertised) };
}

test('a schema without refs or definitions comes back as the same object', () => {
  const schema = deepFreeze({
    type: 'object',
    properties: { $ref: { type: 'string' }, definitions: { type: 'number' } },
    default: { $ref: '#/not/a/schema' },
    examples: [{ $defs: 1 }],
  });
  const result = inlineRefs(schema);
  assert.equal(result.schema, schema, 'property names and data keywords are not taken for refs');
  assert.deepEqual(result.cutRefs, []);
});

test('every ref in the example catalogue and the nasty schemas is inlined; inputs are not mutated', () => {
  for (const tool of allManifests) {
    for (const schema of [tool.input_schema, tool.output_schema]) {
      if (!isJsonObject(schema)) continue;
      const before = JSON.stringify(schema);
      const frozen = deepFreeze(structuredClone(schema));
      const result = inlineRefs(frozen);
      assert.deepEqual(refKeywordsIn(result.schema), [], tool.slug);
      assert.deepEqual(result.unresolvedRefs, [], tool.slug);
      assert.equal(JSON.stringify(schema), before, tool.slug);
      assert.deepEqual(inlineRefs(frozen), result, `${tool.slug}: the same input gives the same output`);
    }
  }
});

test('a $ref with validating siblings keeps both; annotation siblings merge into the target', () => {
  const chain = NASTY_MANIFESTS.find((tool) => tool.slug === 'defs-chain')?.input_schema as JsonObject;
  const { schema } = inlineRefs(chain);
  const properties = schema.properties as Record<string, JsonObject>;
  assert.deepEqual(properties.z, { minLength: 3, allOf: [{ type: 'string', maxLength: 5 }] });
  assert.equal(properties.a?.description, 'Start of the chain.');
  assert.equal(properties.a?.type, 'object');
  const check = validators(chain, schema);
  for (const value of [
    { a: { c: ['x'] }, z: 'abc' },
    { a: { c: ['x'] }, z: 'ab' },
    { a: { c: ['x'] }, z: 'abcdef' },
    { a: { c: [] } },
    { a: { c: ['toolong'] } },
  ]) {
    assert.equal(check.advertised(value), check.original(value), JSON.stringify(value));
  }
});

test('recursion is spelled out to a fixed depth, said so in the description, and accepts anything below it', () => {
  const tree = NASTY_MANIFESTS.find((tool) => tool.slug === 'recursive-tree')?.input_schema as JsonObject;
  const result = inlineRefs(tree);
  assert.deepEqual(result.cutRefs, ['#/$defs/node']);
  assert.equal(result.depth, DEFAULT_RECURSION_DEPTH);
  assert.match(String(result.schema.description), new RegExp(`spelled out ${DEFAULT_RECURSION_DEPTH} levels deep`));
  const check = validators(tree, result.schema);
  const broken = (depth: number) => {
    const value = structuredClone(DEEP_TREE) as { root: JsonObject };
    let node: JsonObject = value.root;
    for (let level = 1; level < depth; level += 1) node = (node.kids as JsonObject[])[0] as JsonObject;
    node.unexpected = true;
    return value;
  };
  assert.equal(check.original(DEEP_TREE), true);
  assert.equal(check.advertised(DEEP_TREE), true);
  for (let depth = 1; depth <= DEFAULT_RECURSION_DEPTH; depth += 1) {
    assert.equal(check.original(broken(depth)), false, `depth ${depth}`);
    assert.equal(check.advertised(broken(depth)), false, `an error at depth ${depth} is inside the spelled-out part`);
  }
  // The documented difference: below the spelled-out depth only the server (which validates against the original) catches it.
  assert.equal(check.original(broken(DEFAULT_RECURSION_DEPTH + 1)), false);
  assert.equal(check.advertised(broken(DEFAULT_RECURSION_DEPTH + 1)), true);
});

test('a recursive root reference ("#") counts the root as the first level', () => {
  const draft07 = NASTY_MANIFESTS.find((tool) => tool.slug === 'draft07-definitions')?.input_schema as JsonObject;
  const result = inlineRefs(draft07, { depth: 2 });
  assert.deepEqual(result.cutRefs, ['#']);
  assert.equal(result.schema.$schema, 'http://json-schema.org/draft-07/schema#', 'the dialect stays at the root');
  let nestedDialects = 0;
  forEachSchema(result.schema, (node, pointer) => {
    if (pointer !== '' && isJsonObject(node) && '$schema' in node) nestedDialects += 1;
  });
  assert.equal(nestedDialects, 0);
  const check = validators(draft07, result.schema);
  const p = { x: 1, y: 2 };
  assert.equal(check.advertised({ point: p, next: { point: p } }), true);
  assert.equal(check.advertised({ point: p, next: { point: { x: 1 } } }), false, 'level 2 is spelled out');
  const brokenAtLevel3 = { point: p, next: { point: p, next: { point: { x: 1 } } } };
  assert.equal(check.original(brokenAtLevel3), false);
  assert.equal(check.advertised(brokenAtLevel3), true, 'level 3 is not');
});

test('branching recursion is spelled out less deeply when it would be too large', () => {
  const expr = NASTY_MANIFESTS.find((tool) => tool.slug === 'mutual-recursion')?.input_schema as JsonObject;
  const full = inlineRefs(expr);
  const small = inlineRefs(expr, { maxChars: JSON.stringify(full.schema).length - 1 });
  assert.ok(small.depth < full.depth);
  assert.ok(JSON.stringify(small.schema).length < JSON.stringify(full.schema).length);
  assert.match(String(small.schema.description), new RegExp(`spelled out ${small.depth} level`));
});

test('unresolvable references are reported and accept anything', () => {
  const result = inlineRefs({ type: 'object', properties: { a: { $ref: '#/$defs/missing' }, b: { $ref: 'https://example.com/x.json' } } });
  assert.deepEqual(result.unresolvedRefs, ['#/$defs/missing', 'https://example.com/x.json']);
  assert.deepEqual(result.schema, { type: 'object', properties: { a: {}, b: {} } });
});

test('mapSubschemas returns the same object when the mapping changes nothing', () => {
  const schema = deepFreeze({ type: 'object', properties: { a: { type: 'string' } }, items: [{ type: 'number' }], anyOf: [true] });
  assert.equal(
    mapSubschemas(schema, (sub) => sub),
    schema,
  );
  const seen: string[] = [];
  forEachSchema(schema, (_node, pointer) => seen.push(pointer));
  assert.deepEqual(seen, ['', '/properties/a', '/items/0', '/anyOf/0'], 'in the order the keys are written');
});

test('boolean subschemas a name maps to become {} and {"not":{}}; others, data keywords and schemas without any are left alone', () => {
  const schema = deepFreeze({
    type: 'object',
    properties: { t: true, f: false, deep: { type: 'array', items: false, prefixItems: [true], properties: { inner: false } } },
    dependencies: { t: ['f'], deep: false },
    allOf: [true, { not: false }],
    additionalProperties: false,
    const: { flag: true },
    default: false,
  });
  assert.deepEqual(namedBooleanSubschemasAsObjects(schema), {
    type: 'object',
    properties: { t: {}, f: { not: {} }, deep: { type: 'array', items: false, prefixItems: [true], properties: { inner: { not: {} } } } },
    dependencies: { t: ['f'], deep: { not: {} } },
    allOf: [true, { not: false }],
    additionalProperties: false,
    const: { flag: true },
    default: false,
  });
  for (const manifest of allManifests) {
    const input = manifest.input_schema ?? {};
    let hasNamedBoolean = false;
    forEachSchema(input, (node, pointer) => {
      hasNamedBoolean ||= typeof node === 'boolean' && NAMED_SCHEMA_KEYWORDS.has(pointer.split('/').at(-2) ?? '');
    });
    if (!hasNamedBoolean) assert.equal(namedBooleanSubschemasAsObjects(input), input, manifest.slug);
  }
});

test('a key becomes a JSON pointer token as RFC 6901 says: ~ as ~0, then / as ~1, every other key as it is', () => {
  assert.equal(pointerToken('plain-key'), 'plain-key');
  assert.equal(pointerToken('a/b'), 'a~1b');
  assert.equal(pointerToken('a~b'), 'a~0b');
  // ~ first: "~1" as a key is "~01", never "/" on the way back.
  assert.equal(pointerToken('~1/'), '~01~1');
  assert.equal(pointerToken(''), '');
});
