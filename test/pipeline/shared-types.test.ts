// Definitions several tool schemas hold are checked and typed once: one shared type each, aliased by every tool under
// its own name, named from content and key in any order, with each tool's advertised schema and check unchanged.

import assert from 'node:assert/strict';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Manifest } from '../../src/runtime/shared/contracts.js';
import { checkCatalogue } from '../../src/pipeline/check/check-in-thread.js';
import { planPackage, type PackagePlan } from '../../src/pipeline/plan/plan-package.js';
import { bundle, tool } from '../fixtures/catalogues.js';
import { REPO_ROOT, runCli } from '../helpers/cli.js';
import { typeErrors } from '../helpers/typecheck.js';

const MONEY = {
  type: 'object',
  description: 'Minor units.',
  properties: { amount_minor: { type: 'integer' }, currency: { type: 'string', pattern: '^[A-Z]{3}$' } },
  required: ['amount_minor', 'currency'],
  additionalProperties: false,
};
const NODE = {
  type: 'object',
  properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } },
  required: ['name'],
};

function priced(slug: string, extra: Record<string, unknown> = {}, examples: Manifest['examples'] = []): Manifest {
  return tool(slug, {
    input_schema: {
      type: 'object',
      properties: { price: { $ref: '#/$defs/money' }, tree: { $ref: '#/$defs/node' } },
      required: ['price'],
      $defs: { money: MONEY, node: NODE, ...extra },
    },
    output_schema: { type: 'object', properties: { total: { $ref: '#/$defs/money' } }, $defs: { money: MONEY } },
    examples,
  });
}

const planOf = (tools: Manifest[]): PackagePlan => planPackage(checkCatalogue(bundle(tools)).tools);
const sharedOf = (plan: PackagePlan, slug: string) => plan.tools.find((t) => t.slug === slug)!.sharedTypeNames;

describe('shared definitions', () => {
  it('are named once per side from their key, and mapped from every tool that holds them, in any order', () => {
    const tools = [priced('create-order'), priced('refund-order'), priced('quote')];
    const plan = planOf(tools);
    assert.deepEqual(
      plan.sharedTypes!.map((t) => [t.name, t.field, t.refs]),
      [
        ['MoneyIn', 'input_schema', {}],
        ['MoneyOut', 'output_schema', {}],
        ['NodeIn', 'input_schema', { '/$defs/node': 'NodeIn' }],
      ],
    );
    assert.deepEqual(sharedOf(plan, 'quote'), {
      '/input_schema/$defs/money': 'MoneyIn',
      '/input_schema/$defs/node': 'NodeIn',
      '/output_schema/$defs/money': 'MoneyOut',
    });
    // The tool keeps its own names for them, and its schema as the catalogue wrote it.
    assert.equal(plan.tools.find((t) => t.slug === 'quote')!.typeNames['/input_schema/$defs/money'], 'QuoteInputMoney');
    assert.deepEqual(plan.tools.find((t) => t.slug === 'quote')!.manifest.input_schema?.$defs, { money: MONEY, node: NODE });
    assert.deepEqual(planOf([...tools].reverse()), plan);
  });

  it('tell two different definitions of one key apart by a hash of their content, and share nothing held once', () => {
    const other = { ...MONEY, description: 'Major units.' };
    const tools = [
      priced('a-order'),
      priced('b-order'),
      tool('c-order', {
        input_schema: { type: 'object', properties: { price: { $ref: '#/$defs/money' } }, $defs: { money: other } },
        examples: [],
      }),
      tool('d-order', {
        input_schema: { type: 'object', properties: { price: { $ref: '#/$defs/money' } }, $defs: { money: other } },
        examples: [],
      }),
    ];
    const names = planOf(tools)
      .sharedTypes!.map((t) => t.name)
      .filter((name) => name.startsWith('MoneyIn'));
    assert.equal(names.length, 2);
    for (const name of names) assert.match(name, /^MoneyIn[0-9a-f]{6}$/i);
    assert.deepEqual(planOf([priced('only-one')]).sharedTypes, []);
    assert.equal(sharedOf(planOf([priced('only-one')]), 'only-one'), undefined);
  });

  it('leave a definition in its tool when its meaning depends on more than its text', () => {
    const anchored = { type: 'object', $anchor: 'here', properties: { x: { type: 'string' } } };
    const into = (slug: string): Manifest =>
      tool(slug, {
        input_schema: {
          type: 'object',
          properties: {
            price: { $ref: '#/$defs/money' },
            currency: { $ref: '#/$defs/money/properties/currency' },
            at: { $ref: '#/$defs/anchored' },
          },
          $defs: { money: MONEY, anchored },
        },
        examples: [],
      });
    const plan = planOf([into('a-tool'), into('b-tool')]);
    assert.deepEqual(plan.sharedTypes, []);
  });

  it('are checked apart with the same problems, at the same pointers, as written inline', () => {
    const bad = { params: { price: { amount_minor: 'x', currency: 'EUR' }, tree: { name: 'root', children: [{ children: [] }] } } };
    const { problems } = checkCatalogue(bundle([priced('create-order', {}, [bad]), priced('refund-order', {}, [bad])]));
    assert.deepEqual(
      problems.filter((p) => p.slug === 'create-order').map((p) => [p.pointer, p.message]),
      [
        ['/examples/0/params/price/amount_minor', 'example does not match input_schema: must be integer (got "x")'],
        ['/examples/0/params/tree/children/0', 'example does not match input_schema: missing required field "name"'],
      ],
    );
    const broken = tool('broken-order', {
      input_schema: { type: 'object', properties: { price: { $ref: '#/$defs/money' } }, $defs: { money: { ...MONEY, minProperties: -1 } } },
      examples: [],
    });
    const brokenProblems = checkCatalogue(bundle([broken, { ...broken, slug: 'broken-again' }])).problems;
    assert.deepEqual(
      brokenProblems.map((p) => [p.slug, p.pointer]),
      [
        ['broken-again', '/input_schema/$defs/money/minProperties'],
        ['broken-order', '/input_schema/$defs/money/minProperties'],
      ],
    );
  });

  it('check a subschema met in an earlier tool as it checked it there, whatever tool holds it next', () => {
    const address = {
      type: 'object',
      description: 'Where to ship the order, as the carrier needs it.',
      properties: { line1: { type: 'string', minLength: 1 }, country: { type: 'string', minLength: 2, maxLength: 2 } },
      required: ['line1', 'country'],
      additionalProperties: false,
    };
    const shipping = (slug: string, params: Record<string, unknown>): Manifest =>
      tool(slug, { input_schema: { type: 'object', properties: { to: address, from: address } }, examples: [{ params }] });
    const { problems } = checkCatalogue(
      bundle([
        shipping('a-ship', { to: { line1: 'x', country: 'GB' }, from: { line1: 'y', country: 'GB' } }),
        shipping('b-ship', { to: { line1: '', country: 'GBR' }, from: { country: 'GB', extra: 1 } }),
        shipping('c-ship', { to: { line1: 'x', country: 'GB' }, from: { line1: 'y', country: 'FR' } }),
      ]),
    );
    assert.deepEqual(
      problems.map((p) => [p.slug, p.pointer, p.message]),
      [
        ['b-ship', '/examples/0/params/from', 'example does not match input_schema: missing required field "line1"'],
        ['b-ship', '/examples/0/params/to/country', 'example does not match input_schema: must NOT have more than 2 characters'],
        ['b-ship', '/examples/0/params/to/line1', 'example does not match input_schema: must NOT have fewer than 1 characters'],
      ],
    );
  });

  it('are emitted once into the shared types module, which the tool modules alias and the package type-checks', async () => {
    const out = join(REPO_ROOT, '.tmp', 'shared-types');
    await rm(out, { recursive: true, force: true });
    await mkdir(out, { recursive: true });
    const source = join(out, 'catalogue.json');
    await writeFile(source, JSON.stringify(bundle([priced('create-order'), priced('refund-order')])));
    const built = await runCli(['build', '--source', source, '--out', join(out, 'pkg'), '--no-compile', '--json']);
    assert.equal(built.code, 0, built.stderr);
    const shared = await readFile(join(out, 'pkg', 'src', 'shared-types.ts'), 'utf8');
    assert.equal(shared.match(/^export interface MoneyIn \{/gm)?.length, 1);
    assert.match(shared, /children\?: NodeIn\[\]/);
    const module = await readFile(join(out, 'pkg', 'src', 'tools', 'create-order.ts'), 'utf8');
    assert.match(module, /^import type \{ MoneyIn, MoneyOut, NodeIn \} from '\.\.\/shared-types\.js';$/m);
    assert.match(module, /^export type CreateOrderInputMoney = MoneyIn;$/m);
    assert.doesNotMatch(module, /amount_minor/);
    assert.match(await readFile(join(out, 'pkg', 'src', 'types.ts'), 'utf8'), /^export type \* from '\.\/shared-types\.js';$/m);
    const consumer = join(out, 'pkg', 'consumer.ts');
    await writeFile(
      consumer,
      `
import type { CreateOrderInput, CreateOrderInputMoney, MoneyIn, RefundOrderOutput } from './src/types.js';
const price: CreateOrderInputMoney = { amount_minor: 199, currency: 'EUR' };
const same: MoneyIn = price;
const input: CreateOrderInput = { price: same, tree: { name: 'a', children: [{ name: 'b' }] } };
const out: RefundOrderOutput = { total: { amount_minor: 1, currency: 'EUR' }, more: 'results may carry fields their schema does not name' };
// @ts-expect-error inputs are closed objects, shared or not
const wrong: CreateOrderInputMoney = { amount_minor: 1, currency: 'EUR', extra: true };
// @ts-expect-error a tree node needs its name
const tree: CreateOrderInput = { price, tree: { children: [] } };
export { input, out, wrong, tree };
`,
    );
    assert.deepEqual(typeErrors(consumer), []);
  });
});
