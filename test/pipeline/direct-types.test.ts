// The direct printer of simple schema shapes against json-schema-to-typescript: for every schema it covers, the same
// declarations byte for byte (raw, and as laid out in the tool module); for every other shape, no answer at all.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { directDeclarations } from '../../src/pipeline/emit/direct-types.js';
import { cleanSchema, indentDeclarations, libraryDeclarations } from '../../src/pipeline/emit/schema-types.js';
import { prettierDeclarations } from '../../src/pipeline/emit/type-printer.js';
import { readSource } from '../../src/pipeline/source/read-source.js';
import { pointerToken } from '../../src/runtime/shared/json-values.js';
import { syntheticCatalogue } from '../bench/catalogue.js';
import { hostileBundle } from '../fixtures/catalogues.js';
import { NASTY_MANIFESTS } from '../fixtures/nasty-schemas.js';

/** A name for every definition, as the plan gives one (its own names do not matter here, only that they are names). */
function definitionNames(schema: unknown): Map<string, string> {
  const names = new Map<string, string>();
  const walk = (node: unknown, pointer: string): void => {
    if (Array.isArray(node)) node.forEach((item, index) => walk(item, `${pointer}/${index}`));
    else if (node && typeof node === 'object')
      for (const [key, value] of Object.entries(node)) {
        const here = `${pointer}/${pointerToken(key)}`;
        if ((key === '$defs' || key === 'definitions') && value && typeof value === 'object' && !Array.isArray(value))
          for (const [name, definition] of Object.entries(value)) {
            const at = `${here}/${pointerToken(name)}`;
            names.set(at, `Named${names.size + 1}`);
            walk(definition, at);
          }
        else walk(value, here);
      }
  };
  walk(schema, '');
  return names;
}

const laidOut = (code: string): string => prettierDeclarations(code) ?? indentDeclarations(code);

interface Comparison {
  direct: boolean;
}

/** Both printers on one schema; asserts the same text whenever the direct one answers. */
async function compare(schema: unknown, isOutput: boolean, label: string): Promise<Comparison> {
  const cleaned = cleanSchema(schema, definitionNames(schema), isOutput);
  const direct = directDeclarations(structuredClone(cleaned), 'RootType', isOutput);
  let library: string | Error;
  try {
    library = await libraryDeclarations(cleaned, 'RootType', isOutput);
  } catch (error) {
    library = error as Error;
  }
  if (direct === null) return { direct: false };
  assert.ok(typeof library === 'string', `${label}: the library refused a schema the direct printer took: ${String(library)}`);
  assert.equal(direct, library, `${label}: raw declarations differ`);
  assert.equal(laidOut(direct), laidOut(library), `${label}: laid-out declarations differ`);
  return { direct: true };
}

async function compareAll(schemas: Array<{ schema: unknown; isOutput: boolean; label: string }>): Promise<number> {
  let direct = 0;
  for (const { schema, isOutput, label } of schemas) if ((await compare(schema, isOutput, label)).direct) direct += 1;
  return direct;
}

interface ManifestLike {
  slug?: unknown;
  input_schema?: unknown;
  output_schema?: unknown;
}

function manifestSchemas(manifests: readonly ManifestLike[], from: string): Array<{ schema: unknown; isOutput: boolean; label: string }> {
  return manifests.flatMap((manifest) =>
    (['input_schema', 'output_schema'] as const).flatMap((field) => {
      const schema = manifest[field];
      return schema && typeof schema === 'object'
        ? [{ schema, isOutput: field === 'output_schema', label: `${from} ${String(manifest.slug)} ${field}` }]
        : [];
    }),
  );
}

/** Small seeded PRNG (mulberry32), so that a failure names a schema that can be made again. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const AWKWARD_KEYS = [
  'plain',
  'with-dash',
  '1leading',
  '',
  'with space',
  "it's",
  'say "hi"',
  'ünï',
  '$dollar',
  '_under',
  'a.b',
  'constructor',
  'toString',
  'hasOwnProperty',
  'k\\slash',
  '東京',
];
const DESCRIPTIONS = [
  'A plain description.',
  'Ends a comment */ too early',
  'Two\nlines',
  '  indented and trailing  ',
  'Mentions @deprecated here',
  '',
  'Quotes \' and " and `ticks`',
  `A long description ${'word '.repeat(40)}`,
];
const LITERALS: unknown[] = ['a', "it's", 'say "hi"', '*/', 'x'.repeat(60), 'ünï', '', 0, -1, 2.5, 1e21, true, false, null, 'a'];

/** Simple shapes, mostly inside the direct printer's cover, with a few outside it mixed in. */
function randomSchema(next: () => number, depth: number, defs: string[]): Record<string, unknown> {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const maybe = (p: number): boolean => next() < p;
  const described = (schema: Record<string, unknown>): Record<string, unknown> =>
    maybe(0.5) ? { ...schema, description: pick(DESCRIPTIONS) } : schema;
  const kind =
    depth <= 0
      ? pick(['primitive', 'enum', 'union'])
      : pick(['primitive', 'enum', 'union', 'array', 'object', 'object', 'ref', 'alternatives', 'nullable', 'odd']);
  switch (kind) {
    case 'primitive':
      return described({
        type: pick(['string', 'number', 'integer', 'boolean', 'null']),
        ...(maybe(0.3) ? { minimum: 1, format: 'date' } : {}),
      });
    case 'enum': {
      const count = 1 + Math.floor(next() * (maybe(0.2) ? 30 : 5));
      const values = Array.from({ length: count }, () => pick(LITERALS));
      if (maybe(0.2)) return described({ const: values[0] });
      // A type beside it, or a type list (OpenAPI's nullable enum, converted, holds null among its values).
      const type = pick([undefined, 'string', ['string', 'null'], ['null', 'string'], ['string']]);
      return described({ ...(type === undefined ? {} : { type }), enum: maybe(0.5) ? [...values, null] : values });
    }
    case 'union':
      return described({
        type: Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(['string', 'number', 'integer', 'boolean', 'null'])),
      });
    case 'nullable': {
      // OpenAPI's nullable object or array, as a type list.
      if (maybe(0.5))
        return described({
          type: pick([
            ['array', 'null'],
            ['null', 'array'],
          ]),
          items: randomSchema(next, depth - 1, defs),
        });
      const keys = [...new Set(Array.from({ length: Math.floor(next() * 4) }, () => pick(AWKWARD_KEYS)))];
      return described({
        type: pick([
          ['object', 'null'],
          ['null', 'object'],
          ['object', 'string', 'null'],
        ]),
        properties: Object.fromEntries(keys.map((key) => [key, randomSchema(next, depth - 1, defs)])),
        ...(keys.length > 0 && maybe(0.5) ? { required: [keys[0]] } : {}),
        ...(maybe(0.5) ? { additionalProperties: pick([true, false]) } : {}),
      });
    }
    case 'array': {
      const counts = maybe(0.3)
        ? { minItems: Math.floor(next() * 3), maxItems: 3 + Math.floor(next() * 5) }
        : maybe(0.2)
          ? { maxItems: 1 }
          : {};
      return described({ type: 'array', ...(maybe(0.9) ? { items: randomSchema(next, depth - 1, defs) } : {}), ...counts });
    }
    case 'object': {
      const keys = [...new Set(Array.from({ length: Math.floor(next() * 6) }, () => pick(AWKWARD_KEYS)))];
      const properties = Object.fromEntries(keys.map((key) => [key, randomSchema(next, depth - 1, defs)]));
      const required = keys.filter(() => maybe(0.4));
      const open = pick([true, false, undefined]);
      return described({
        type: 'object',
        properties,
        ...(required.length > 0 ? { required } : {}),
        ...(open === undefined ? {} : { additionalProperties: open }),
      });
    }
    case 'alternatives': {
      // Branches alike but for a name, or alike outright, are what the library's optimizer folds.
      const branches = Array.from({ length: 1 + Math.floor(next() * 3) }, () => randomSchema(next, depth - 1, defs));
      if (maybe(0.3)) branches.push(structuredClone(branches[0]!));
      return described({ [maybe(0.5) ? 'oneOf' : 'anyOf']: branches });
    }
    case 'ref':
      if (defs.length === 0) return { type: 'string' };
      // A bare reference, or one in an allOf of its own (the shape a root reference is typed in).
      return maybe(0.7) ? { $ref: `#/$defs/${pick(defs)}` } : described({ allOf: [{ $ref: `#/$defs/${pick(defs)}` }] });
    default:
      // Outside the cover: the direct printer must give no answer, and the comparison skips them.
      return pick([
        { type: 'string', oneOf: [{ minLength: 1 }, { format: 'date' }] },
        { allOf: [{ type: 'object' }] },
        { type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'number' } },
        { type: 'object', patternProperties: { '^x': { type: 'string' } } },
        { type: 'object', additionalProperties: { type: 'string' } },
        { type: ['object', 'null'], properties: { a: { type: 'string' } } },
        { type: 'string', nullable: true },
        { type: 'array', minItems: 5, maxItems: 2 },
        {},
        { description: 'no type at all' },
      ]);
  }
}

function randomToolSchema(seed: number): Record<string, unknown> {
  const next = random(seed);
  const defNames = next() < 0.4 ? ['node', 'item', 'code'].slice(0, 1 + Math.floor(next() * 3)) : [];
  const $defs = Object.fromEntries(defNames.map((name) => [name, randomSchema(next, 2, defNames)]));
  // A root that is one reference, now and then: an output schema naming a definition, as OpenAPI responses do.
  if (defNames.length > 0 && next() < 0.2)
    return { $ref: `#/$defs/${defNames[0]!}`, ...(next() < 0.5 ? { description: DESCRIPTIONS[seed % DESCRIPTIONS.length] } : {}), $defs };
  const root = randomSchema(next, 3, defNames);
  const object = root.type === 'object' ? root : { type: 'object', properties: { value: root } };
  return defNames.length > 0 ? { ...object, $defs } : object;
}

describe('direct type declarations', () => {
  it('fold a oneOf whose branches are one definition and its copy into the named one, as the library does', async () => {
    const schema = {
      type: 'object',
      properties: { a: { oneOf: [{ $ref: '#/$defs/s' }, { type: 'string' }, { $ref: '#/$defs/s' }] } },
      $defs: { s: { type: 'string' } },
    };
    assert.ok((await compare(schema, false, 'folded oneOf')).direct);
    assert.match(directDeclarations(cleanSchema(schema, definitionNames(schema)), 'RootType', false)!, /a\?: Named1\n/);
  });

  it('match json-schema-to-typescript over every schema of the example and fixture catalogues', async () => {
    const example = JSON.parse(readFileSync(new URL('../../examples/catalogue.json', import.meta.url), 'utf8')) as {
      tools: ManifestLike[];
    };
    const billing = JSON.parse(readFileSync(new URL('../fixtures/billing-catalogue.json', import.meta.url), 'utf8')) as {
      tools: ManifestLike[];
    };
    const schemas = [
      ...manifestSchemas(example.tools, 'examples/catalogue.json'),
      ...manifestSchemas(billing.tools, 'billing-catalogue.json'),
      ...manifestSchemas(NASTY_MANIFESTS, 'nasty-schemas'),
      ...manifestSchemas(hostileBundle().tools as ManifestLike[], 'hostile bundle'),
    ];
    const direct = await compareAll(schemas);
    // Most catalogue schemas are simple shapes; a cover that quietly shrank to nothing would pass the comparison.
    assert.ok(direct >= schemas.length / 2, `${direct} of ${schemas.length} printed directly`);
  });

  it('match it over the tools of the committed OpenAPI corpus sample', async () => {
    const dir = new URL('../fixtures/openapi-corpus/', import.meta.url);
    const schemas = [];
    for (const file of readdirSync(dir).filter((name) => /\.(json|ya?ml)$/.test(name))) {
      const { document } = await readSource(fileURLToPath(new URL(file, dir)), {});
      // A document with no operation the source can turn into a tool has no tools.
      schemas.push(...manifestSchemas((document as { tools?: ManifestLike[] }).tools ?? [], file));
    }
    const direct = await compareAll(schemas);
    assert.ok(schemas.length > 100 && direct >= schemas.length / 2, `${direct} of ${schemas.length} printed directly`);
  });

  it('match it over the synthetic benchmark catalogue', async () => {
    const schemas = manifestSchemas(syntheticCatalogue(120).tools, 'synthetic');
    const direct = await compareAll(schemas);
    assert.ok(direct >= schemas.length / 2, `${direct} of ${schemas.length} printed directly`);
  });

  it('match it over random simple schemas: awkward keys, comment ends, long unions, empty and nested objects, refs', async () => {
    const schemas = Array.from({ length: 400 }, (_, seed) => ({
      schema: randomToolSchema(seed),
      isOutput: seed % 2 === 1,
      label: `random seed ${seed}`,
    }));
    const direct = await compareAll(schemas);
    assert.ok(direct >= schemas.length / 4, `${direct} of ${schemas.length} printed directly`);
  });

  it('prints a long union past the print width the way the library does, broken one member a line', async () => {
    const values = Array.from({ length: 20 }, (_, i) => `value-number-${i}`);
    const schema = { type: 'object', properties: { mode: { type: 'string', enum: values } }, required: ['mode'] };
    assert.ok((await compare(schema, false, 'long union')).direct);
    const printed = laidOut(directDeclarations(cleanSchema(schema), 'RootType', false)!);
    assert.match(printed, /\n {4}\| 'value-number-0'\n/);
  });

  it('gives no answer for shapes outside its cover, which the library then types', () => {
    const outsideCover: Array<Record<string, unknown>> = [
      { type: 'object', properties: { a: { type: 'string', oneOf: [{ minLength: 1 }, { format: 'date' }] } } },
      { type: 'object', properties: { a: { anyOf: [{ type: 'string' }], oneOf: [{ type: 'null' }] } } },
      { type: 'object', allOf: [{ type: 'object', properties: { a: { type: 'string' } } }] },
      { type: 'object', properties: { a: { type: 'array', items: { type: 'string' }, contains: { const: 'x' } } } },
      { type: 'object', patternProperties: { '^x-': { type: 'string' } } },
      { type: 'object', additionalProperties: { type: 'string' } },
      { type: 'object', properties: { a: { type: ['object', 'array', 'null'], properties: { b: { type: 'string' } } } } },
      { type: 'object', properties: { a: { type: ['array', 'null'], items: { type: 'string' }, minItems: 1 } } },
      { type: 'object', properties: { a: { type: ['string', 'null'], enum: ['x', 'y'] } } },
      { type: 'object', properties: { a: { type: ['string', 'integer', 'null'], enum: ['x', 1, null] } } },
      { type: 'object', properties: { a: { type: 'string', nullable: true } } },
      { type: 'object', properties: { a: { $ref: '#/$defs/b', description: 'beside a ref' } }, $defs: { b: { type: 'string' } } },
      { type: 'object', properties: { a: { type: 'array', minItems: 3, maxItems: 1 } } },
      { type: 'object', properties: { a: { enum: [{ an: 'object' }] } } },
      { type: 'object', properties: { a: { not: { type: 'string' } } } },
      { description: 'an input root with no type' },
    ];
    for (const schema of outsideCover)
      assert.equal(directDeclarations(cleanSchema(schema, definitionNames(schema)), 'RootType', false), null, JSON.stringify(schema));
    // A branch the plan named (its title in the catalogue) is declared on its own by the library.
    const titled = { type: 'object', properties: { a: { oneOf: [{ title: 'Titled', type: 'string' }, { type: 'null' }] } } };
    assert.equal(directDeclarations(cleanSchema(titled, new Map([['/properties/a/oneOf/0', 'Titled']])), 'RootType', false), null);
  });

  it('types a root that is one reference as an alias of its definition, or of the shared type it names, as the library does', async () => {
    const definitions = { thing: { type: 'object', description: 'A thing.', properties: { id: { type: 'integer' } }, required: ['id'] } };
    const toDefinition = { $ref: '#/$defs/thing', $defs: definitions };
    for (const [schema, label] of [
      [toDefinition, 'root reference'],
      [{ ...toDefinition, description: 'What comes back.' }, 'root reference with a description'],
      [
        { type: 'object', properties: { a: { allOf: [{ $ref: '#/$defs/thing' }], description: 'One.' } }, $defs: definitions },
        'allOf of one',
      ],
    ] as const)
      for (const isOutput of [false, true]) assert.ok((await compare(schema, isOutput, label)).direct, `${label} printed directly`);
    assert.match(
      directDeclarations(cleanSchema(toDefinition, definitionNames(toDefinition), true), 'RootType', true)!,
      /^export type RootType = Named1\n/,
    );
    // A definition the plan typed in the shared module is named there: the cleaned root aliases that name.
    const shared = { $defs: {}, allOf: [{ tsType: 'SharedThing' }], description: 'What comes back.' };
    const direct = directDeclarations(structuredClone(shared), 'RootType', true);
    assert.equal(direct, await libraryDeclarations(shared, 'RootType', true));
    assert.equal(direct, '/**\n * What comes back.\n */\nexport type RootType = SharedThing\n');
  });

  it('declares a recursive definition once and refers to it by name', async () => {
    const schema = {
      type: 'object',
      properties: { tree: { $ref: '#/$defs/node' } },
      $defs: { node: { type: 'object', description: 'A node.', properties: { kids: { type: 'array', items: { $ref: '#/$defs/node' } } } } },
    };
    assert.ok((await compare(schema, false, 'recursive')).direct);
    const printed = laidOut(directDeclarations(cleanSchema(schema, definitionNames(schema)), 'RootType', false)!);
    assert.equal((printed.match(/export interface Named1 /g) ?? []).length, 1);
    assert.match(printed, /kids\?: Named1\[\];/);
  });
});
