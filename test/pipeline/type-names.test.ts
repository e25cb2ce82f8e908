// The plan names every exported type: tool roots, `$defs` and titled branches, unique across the package, in any order.

import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { describe, it } from 'node:test';
import type { Manifest } from '../../src/runtime/shared/contracts.js';
import { checkCatalogue } from '../../src/pipeline/check/check-in-thread.js';
import { slugHash, typeNameOf } from '../../src/pipeline/plan/naming.js';
import { planPackage, type PackagePlan } from '../../src/pipeline/plan/plan-package.js';
import { schemaOutline, type SchemaOutline } from '../../src/pipeline/plan/type-names.js';
import { bundle, tool } from '../fixtures/catalogues.js';
import { REPO_ROOT, runCli } from '../helpers/cli.js';

const planOf = (tools: Manifest[]): PackagePlan => planPackage(checkCatalogue(bundle(tools)).tools);
const namesOf = (plan: PackagePlan, slug: string): Record<string, string> => plan.tools.find((t) => t.slug === slug)!.typeNames;
const hashed = (base: string, slug: string, pointer: string): string => typeNameOf(`${base}_${slugHash(`${slug}\u0000${pointer}`)}`);

const withDefs = (slug: string, defs: Record<string, unknown>, extra: Record<string, unknown> = {}): Manifest =>
  tool(slug, {
    input_schema: {
      type: 'object',
      properties: Object.fromEntries(Object.keys(defs).map((key) => [key.replace(/\W/g, '_'), { $ref: `#/$defs/${key}` }])),
      $defs: defs,
      ...extra,
    },
    examples: [],
  });

describe('plan stage: type names', () => {
  it('names the roots, every $defs entry and every titled oneOf/anyOf branch from the slug and the pointer', () => {
    const plan = planOf([
      tool('create-order', {
        input_schema: {
          type: 'object',
          properties: {
            discount: {
              oneOf: [
                { title: 'PercentDiscount', type: 'object', properties: { percent: { type: 'number' } } },
                { title: 'Fixed amount', type: 'object', properties: { amount: { type: 'number' } } },
                { $ref: '#/$defs/none', title: 'Ignored' },
              ],
            },
            line: { $ref: '#/$defs/line-item' },
          },
          $defs: {
            'line-item': { type: 'object', properties: { sku: { type: 'string' } }, $defs: { money: { type: 'number' } } },
            none: { type: 'null' },
          },
        },
        examples: [],
      }),
    ]);
    assert.deepEqual(namesOf(plan, 'create-order'), {
      '/input_schema': 'CreateOrderInput',
      '/input_schema/properties/discount/oneOf/0': 'CreateOrderInputPercentDiscount',
      '/input_schema/properties/discount/oneOf/1': 'CreateOrderInputFixedAmount',
      '/input_schema/$defs/line-item': 'CreateOrderInputLineItem',
      '/input_schema/$defs/line-item/$defs/money': 'CreateOrderInputLineItemMoney',
      '/input_schema/$defs/none': 'CreateOrderInputNone',
      '/output_schema': 'CreateOrderOutput',
    });
  });

  it('tells `item-x` and `itemX` apart by a hash of each pointer, whichever comes first', () => {
    const defs = { 'item-x': { type: 'string' }, itemX: { type: 'number' } };
    const want = {
      '/input_schema/$defs/item-x': hashed('FooInputItemX', 'foo', '/input_schema/$defs/item-x'),
      '/input_schema/$defs/itemX': hashed('FooInputItemX', 'foo', '/input_schema/$defs/itemX'),
    };
    const one = namesOf(planOf([withDefs('foo', defs)]), 'foo');
    const two = namesOf(planOf([withDefs('foo', { itemX: defs.itemX, 'item-x': defs['item-x'] })]), 'foo');
    for (const names of [one, two]) {
      assert.equal(names['/input_schema/$defs/item-x'], want['/input_schema/$defs/item-x']);
      assert.equal(names['/input_schema/$defs/itemX'], want['/input_schema/$defs/itemX']);
    }
    assert.notEqual(want['/input_schema/$defs/item-x'], want['/input_schema/$defs/itemX']);
  });

  it("keeps names unique across tools: a definition never takes another tool's root or definition name", () => {
    // `foo` + `barInput` and `foo-input-bar`'s own input type would both be FooInputBarInput.
    const plan = planOf([
      withDefs('foo', { 'bar-input-baz': { type: 'string' }, barInput: { type: 'string' } }),
      withDefs('foo-input-bar', { baz: { type: 'string' } }),
    ]);
    assert.equal(namesOf(plan, 'foo-input-bar')['/input_schema'], 'FooInputBarInput');
    assert.equal(namesOf(plan, 'foo')['/input_schema/$defs/barInput'], hashed('FooInputBarInput', 'foo', '/input_schema/$defs/barInput'));
    assert.equal(
      namesOf(plan, 'foo')['/input_schema/$defs/bar-input-baz'],
      hashed('FooInputBarInputBaz', 'foo', '/input_schema/$defs/bar-input-baz'),
    );
    assert.equal(
      namesOf(plan, 'foo-input-bar')['/input_schema/$defs/baz'],
      hashed('FooInputBarInputBaz', 'foo-input-bar', '/input_schema/$defs/baz'),
    );
    const all = plan.tools.flatMap((t) => Object.values(t.typeNames).map((name) => name.toLowerCase()));
    assert.equal(new Set(all).size, all.length);
  });

  it('decides the same names whatever the order of tools, properties and $defs', () => {
    const defs: Record<string, unknown> = {
      'item-x': { type: 'string' },
      itemX: { type: 'number' },
      node: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/$defs/node' } } } },
      'Node Item': {
        anyOf: [
          { title: 'A', type: 'string' },
          { title: 'a', type: 'number' },
        ],
      },
    };
    const tools = [withDefs('alpha', defs), withDefs('alpha-input', defs), withDefs('beta', { x: { type: 'string' } })];
    const reversedDefs = Object.fromEntries(Object.entries(defs).reverse());
    const shuffled = [withDefs('beta', { x: { type: 'string' } }), withDefs('alpha-input', reversedDefs), withDefs('alpha', reversedDefs)];
    const names = (plan: PackagePlan) => plan.tools.map((t) => [t.slug, Object.entries(t.typeNames).sort(([a], [b]) => (a < b ? -1 : 1))]);
    assert.deepEqual(names(planOf(shuffled)), names(planOf(tools)));
  });

  it("plans the same names and shared types from schema outlines a build cache kept for other tools' equal schemas", () => {
    // The outline is kept by the schemas' content alone: another slug, another type name, the same outline serves.
    const defs: Record<string, unknown> = {
      money: { type: 'object', properties: { amount: { type: 'integer' } } },
      'Line Item': { anyOf: [{ title: 'Product line', type: 'string' }, { type: 'number' }] },
      order: { type: 'object', properties: { total: { $ref: '#/$defs/money' } } },
    };
    const checked = checkCatalogue(bundle([withDefs('create-order', defs), withDefs('refund-order', defs), withDefs('ping', {})])).tools;
    // Made from copies under other slugs, and through V8's serialization, as the cache file holds them.
    const twins = checked.map((t) => JSON.parse(JSON.stringify({ ...t.manifest, slug: `zz-${t.manifest.slug}` })) as Manifest);
    const kept = twins.map((manifest) => deserialize(serialize(schemaOutline(manifest))) as SchemaOutline);
    const fresh = planPackage(checked);
    const fromKept = planPackage(checked, null, { outlines: kept });
    assert.deepEqual(fromKept, fresh);
    assert.ok((fresh.sharedTypes ?? []).length > 0, 'the example shares definitions');
    assert.ok(Object.keys(namesOf(fresh, 'create-order')).includes('/input_schema/$defs/Line Item/anyOf/0'));
  });

  it('gives keys and titles without ASCII words a name all the same', () => {
    const names = namesOf(planOf([withDefs('foo', { 日本: { type: 'string' }, '': { type: 'number' } })]), 'foo');
    assert.equal(names['/input_schema/$defs/日本'], hashed('FooInputDef', 'foo', '/input_schema/$defs/日本'));
    assert.equal(names['/input_schema/$defs/'], hashed('FooInputDef', 'foo', '/input_schema/$defs/'));
  });
});

describe('plan stage: type names compile', () => {
  it('builds and type-checks a package whose tools share $defs names and hold `item-x` beside `itemX`', async () => {
    const out = join(REPO_ROOT, '.tmp', 'type-names');
    await mkdir(out, { recursive: true });
    const shared = {
      'secret-scanning-custom-pattern': { type: 'object', properties: { name: { type: 'string' } } },
      'item-x': { type: 'string' },
      itemX: { type: 'integer' },
    };
    const catalogue = bundle([
      withDefs('secret-scanning-update-org-custom-pattern', shared),
      withDefs('secret-scanning-update-repo-custom-pattern', shared),
      // This definition would be named as the next tool's input type.
      withDefs('secret-scanning', { 'update-org-custom-pattern-input': { type: 'boolean' } }),
      withDefs('secret-scanning-input-update-org-custom-pattern', { x: { type: 'string' } }),
      tool('pricing', {
        input_schema: {
          type: 'object',
          required: ['discount'],
          properties: {
            discount: {
              oneOf: [
                {
                  title: 'PercentDiscount',
                  type: 'object',
                  required: ['percent'],
                  properties: { percent: { type: 'number' } },
                  additionalProperties: false,
                },
                {
                  title: 'FixedDiscount',
                  type: 'object',
                  required: ['amount'],
                  properties: { amount: { type: 'number' } },
                  additionalProperties: false,
                },
              ],
            },
          },
        },
        examples: [{ params: { discount: { percent: 5 } } }],
      }),
    ]);
    const source = join(out, 'catalogue.json');
    await writeFile(source, JSON.stringify(catalogue));
    const built = await runCli(['build', '--source', source, '--out', out, '--json']);
    // The build type-checks the whole package, `src/types.ts` re-exporting every tool module's types included.
    assert.equal(built.code, 0, built.stdout + built.stderr);
    const pricing = await readFile(join(out, 'src', 'tools', 'pricing.ts'), 'utf8');
    assert.match(pricing, /export interface PricingInputPercentDiscount \{/);
    assert.match(pricing, /export interface PricingInputFixedDiscount \{/);
    const org = await readFile(join(out, 'src', 'tools', 'secret-scanning-update-org-custom-pattern.ts'), 'utf8');
    const declared = [...org.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]);
    const plan = planOf(catalogue.tools as Manifest[]);
    assert.deepEqual(declared.sort(), Object.values(namesOf(plan, 'secret-scanning-update-org-custom-pattern')).sort());
    const types = await readFile(join(out, 'src', 'types.ts'), 'utf8');
    assert.match(types, /export type \* from '\.\/tools\/secret-scanning-update-repo-custom-pattern\.js';/);
    assert.match(
      await readFile(join(out, 'src', 'tools', 'secret-scanning.ts'), 'utf8'),
      new RegExp(
        `export type ${hashed('SecretScanningInputUpdateOrgCustomPatternInput', 'secret-scanning', '/input_schema/$defs/update-org-custom-pattern-input')} = boolean`,
      ),
    );
  });
});
