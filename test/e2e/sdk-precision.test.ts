// The wrappers' types say what the schemas mean, where json-schema-to-typescript alone would not, and the package
// README's example call compiles as written even when no tool has examples.

import assert from 'node:assert/strict';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { bundle, tool } from '../fixtures/catalogues.js';
import { REPO_ROOT, runCli } from '../helpers/cli.js';
import { typeErrors } from '../helpers/typecheck.js';

const OUT = join(REPO_ROOT, '.tmp', 'sdk-precision');

const catalogue = bundle(
  [
    tool('allof-required', { input_schema: { type: 'object', allOf: [{ properties: { q: { type: 'string' } } }, { required: ['q'] }] } }),
    tool('any-value', { input_schema: { type: 'object', required: ['data'], properties: { data: { description: 'Any JSON value.' } } } }),
    tool('ghost-required', { input_schema: { type: 'object', required: ['ghost'] } }),
    tool('needs-args', {
      input_schema: {
        type: 'object',
        required: ['n', 'mode'],
        properties: { n: { type: 'integer', minimum: 1 }, mode: { enum: ['a', 'b'] } },
      },
    }),
    tool('open-object', {
      input_schema: { type: 'object', properties: { meta: { type: 'object' }, row: { type: ['object', 'array'] } } },
      output_schema: { type: 'object', required: ['rows'], properties: { rows: { type: 'array', items: { type: ['object', 'array'] } } } },
    }),
    tool('no-schema', { input_schema: null }),
    tool('root-ref', {
      input_schema: {
        type: 'object',
        $ref: '#/$defs/base',
        $defs: { base: { type: 'object', required: ['a'], properties: { a: { type: 'string' } } } },
      },
      output_schema: { $ref: '#/$defs/r', $defs: { r: { type: 'object', properties: { v: { type: 'number' } } } } },
    }),
    tool('shapes', {
      input_schema: {
        type: 'object',
        properties: {
          date: { format: 'date' },
          low: { minimum: 3 },
          pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false },
          sub: { $ref: '#/$defs/base', properties: { extra: { type: 'number' } } },
          tagged: { type: 'object', properties: { n: { type: 'number' } }, patternProperties: { '^x_': { type: 'string' } } },
        },
        $defs: { base: { type: 'object', required: ['a'], properties: { a: { type: 'string' } } } },
      },
      output_schema: { type: 'object', required: ['id'], properties: { id: { type: 'number' }, any: {} } },
    }),
    tool('untyped-output', { output_schema: {} }),
    tool('draft7-tuple', {
      input_schema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { old: { type: 'array', items: [{ type: 'string' }], additionalItems: { type: 'boolean' } } },
      },
    }),
  ].map((manifest) => ({ ...manifest, examples: [] })),
);

const CONSUMER = `
import { allofRequired, anyValue, draft7Tuple, ghostRequired, needsArgs, noSchema, openObject, rootRef, shapes, untypedOutput } from '../src/tools/index.js';

export async function uses(): Promise<void> {
  await anyValue({ data: 42 });
  await anyValue({ data: null });
  await anyValue({ data: [1, 'x'] });
  // @ts-expect-error data is required, whatever it may hold
  await anyValue({});
  await openObject();
  await noSchema();
  const out = await openObject({ meta: { anything: true }, row: { k: 'v' } });
  await openObject({ row: [1, 2] });
  const row = out.rows[0];
  if (row !== undefined && !Array.isArray(row)) {
    const cell: unknown = row['a'];
    void cell;
  }
  // @ts-expect-error ghost is required, though no property describes it
  await ghostRequired({});
  await ghostRequired({ ghost: 1 });
  // @ts-expect-error q is required by a member of allOf
  await allofRequired({});
  await allofRequired({ q: 'x' });
  // @ts-expect-error a tool with required input cannot be called without it
  await needsArgs();
  // A root $ref is the type of its target, for an input and for an output.
  const referred = await rootRef({ a: 'x' });
  const v: number | undefined = referred.v;
  // @ts-expect-error the target requires a
  await rootRef({});
  // Subschemas without a type admit any value; tuples admit their members; a ref's siblings join its target; pattern
  // properties leave other keys open.
  const shaped = await shapes({ date: '2020-01-01', low: null, pair: ['a', 1], sub: { a: 's', extra: 1 }, tagged: { n: 1, x_a: 's', other: true } });
  await shapes({ pair: ['a'] });
  await draft7Tuple({ old: ['a', true] });
  await draft7Tuple({ old: [] });
  // @ts-expect-error the ref's target still requires a
  await shapes({ sub: { extra: 1 } });
  // @ts-expect-error a tuple member is a string or a number
  await shapes({ pair: [true] });
  // A result may carry fields its schema does not name; an untyped field or result is unknown.
  const id: number = shaped.id;
  const more: unknown = shaped['createdAt'];
  const anything: unknown = shaped.any;
  const result: unknown = await untypedOutput({ text: 'x' });
  // @ts-expect-error an unknown result is not a string until checked
  const text: string = result;
  void v, id, more, anything, text;
}
`;

describe('typed wrappers say what the schemas mean', () => {
  before(async () => {
    await rm(OUT, { recursive: true, force: true });
    await mkdir(OUT, { recursive: true });
    const source = join(OUT, 'catalogue.json');
    await writeFile(source, JSON.stringify(catalogue));
    const built = await runCli(['build', '--source', source, '--out', OUT, '--json']);
    assert.equal(built.code, 0, built.stderr);
  });

  it('any-value fields, open objects, required names without properties, allOf requirements, optional input', async () => {
    const file = join(OUT, 'consumer', 'uses.ts');
    await mkdir(join(OUT, 'consumer'), { recursive: true });
    await writeFile(file, CONSUMER);
    // Every @ts-expect-error must meet an error (else TS2578), and nothing else may fail.
    assert.deepEqual(typeErrors(file), []);
  });

  it('the README example call compiles as written, though no tool has examples', async () => {
    const readme = await readFile(join(OUT, 'README.md'), 'utf8');
    const snippet = /```ts\n(import [^\n]*\/tools';\n\nconst result = await [^\n]*\n)```/.exec(readme)?.[1];
    assert.ok(snippet, 'the README has the example call');
    // The first tools by slug take input no plain value can stand for (allOf, any value); the next needs none, and is
    // called without an argument (emit.test.ts covers plain values for required input).
    assert.match(snippet, /await draft7Tuple\(\)/);
    const file = join(OUT, 'consumer', 'readme.ts');
    // Inside the package, its own name resolves to itself (through package.json "exports" and the compiled dist/).
    await writeFile(file, `${snippet}void result;\n`);
    assert.deepEqual(typeErrors(file), []);
    const clientSnippet = /```ts\n(import \{ createClient[\s\S]*?)```/.exec(readme)?.[1];
    assert.ok(clientSnippet, 'the README has the client example');
    const clientFile = join(OUT, 'consumer', 'readme-client.ts');
    await writeFile(clientFile, clientSnippet);
    assert.deepEqual(typeErrors(clientFile), []);
  });
});
