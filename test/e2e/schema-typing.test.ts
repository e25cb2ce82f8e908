// Schemas that ajv accepts but json-schema-to-typescript reads badly or not at all: each still builds, compiles and
// serves; the types are precise where the schema can be rewritten for it, and an open type with a warning where not.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { manifestsFromBundle, startMockApi, type MockApi } from '../../src/runtime/dev/mock-api.js';
import { slugHash, typeNameOf } from '../../src/pipeline/plan/naming.js';
import { bundle, tool } from '../fixtures/catalogues.js';
import { runCli } from '../helpers/cli.js';
import { builtPackage, call, connectServer, dataOf, textOf, type ServerSession } from '../helpers/mcp.js';

const schemas: Record<string, Record<string, unknown>> = {
  // A `$ref` to an `$anchor`: json-schema-to-typescript resolves JSON pointers only.
  'anchor-ref': { type: 'object', required: ['a'], $defs: { x: { $anchor: 'xa', type: 'string' } }, properties: { a: { $ref: '#xa' } } },
  // Both definition keywords, and a name in both: it refuses either pair.
  'both-definitions': {
    type: 'object',
    definitions: { d: { type: 'string' }, only: { type: 'boolean' } },
    $defs: { d: { type: 'integer' } },
    properties: { a: { $ref: '#/definitions/d' }, b: { $ref: '#/$defs/d' }, c: { $ref: '#/definitions/only' } },
  },
  // A property and a definition named like the method it calls on every object it walks.
  'has-own-property': {
    type: 'object',
    required: ['hasOwnProperty'],
    properties: { hasOwnProperty: { type: 'number' }, nested: { $ref: '#/$defs/hasOwnProperty' } },
    $defs: { hasOwnProperty: { type: 'object', properties: { hasOwnProperty: { type: 'string' } } } },
  },
  // A `$ref` into a 2020-12 tuple (`prefixItems`): beyond it, so the type falls back and the build warns. (Properties
  // that are each other, the case this used to be, are now a check error: a $ref cycle with no base case.)
  'prefix-items-ref': {
    type: 'object',
    properties: { a: { type: 'array', prefixItems: [{ type: 'string' }] }, b: { $ref: '#/properties/a/prefixItems/0' } },
  },
};

const document = bundle(Object.entries(schemas).map(([slug, input_schema]) => tool(slug, { input_schema, examples: [] })));

describe('schemas beyond json-schema-to-typescript, built and served', () => {
  let packageDir: string;
  let api: MockApi;
  let session: ServerSession;

  before(async () => {
    packageDir = await builtPackage('schema-typing', JSON.stringify(document));
    api = await startMockApi({ manifests: manifestsFromBundle(document) });
    session = await connectServer(packageDir, { NEXUSBLOOM_API_URL: api.url });
  });
  after(async () => {
    await session?.close();
    await api?.close();
  });

  const moduleText = (name: string): string => readFileSync(join(packageDir, 'src', 'tools', `${name}.ts`), 'utf8');

  it('types an $anchor reference, merged definition keywords and method-named keys precisely', () => {
    assert.match(moduleText('anchor-ref'), /\ba: AnchorRefInputX\b/);
    assert.match(moduleText('anchor-ref'), /export type AnchorRefInputX = string/);
    const both = moduleText('both-definitions');
    // `d` in both keywords: each name carries the hash of its own pointer (type-names.ts), whichever comes first.
    const fromDefinitions = typeNameOf(`BothDefinitionsInputD_${slugHash('both-definitions\u0000/input_schema/definitions/d')}`);
    const fromDefs = typeNameOf(`BothDefinitionsInputD_${slugHash('both-definitions\u0000/input_schema/$defs/d')}`);
    assert.match(both, new RegExp(`export type ${fromDefinitions} = string`));
    assert.match(both, new RegExp(`export type ${fromDefs} = number`));
    assert.match(both, new RegExp(`a\\?: ${fromDefinitions}\\b`));
    assert.match(both, new RegExp(`b\\?: ${fromDefs}\\b`));
    assert.match(both, /c\?: BothDefinitionsInputOnly\b/);
    const own = moduleText('has-own-property');
    assert.match(own, /\bhasOwnProperty: number\b/);
    assert.match(own, /nested\?: HasOwnPropertyInputHasOwnProperty\b/);
    assert.match(own, /\bhasOwnProperty\?: string\b/);
    assert.doesNotMatch(own, /nbgenKey/);
  });

  it('falls back to an open type, marked, for a schema it cannot type', () => {
    assert.match(
      moduleText('prefix-items-ref'),
      /^\/\/ loose type for input_schema: .+\nexport type PrefixItemsRefInput = \{ \[key: string\]: unknown \};$/m,
    );
  });

  it('serves every one of them, validating against the full schema', async () => {
    const cases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
      ['anchor-ref', { a: 'text' }, { a: 5 }],
      ['both-definitions', { a: 'x', b: 2, c: true }, { a: 2 }],
      ['has-own-property', { hasOwnProperty: 1, nested: { hasOwnProperty: 'x' } }, { hasOwnProperty: 'one' }],
    ];
    for (const [slug, good, bad] of cases) {
      const ok = await call(session, slug, good);
      assert.equal(ok.isError, undefined, `${slug}: ${textOf(ok)}`);
      const refused = await call(session, slug, bad);
      assert.equal(refused.isError, true, slug);
      assert.equal(dataOf(refused).code, 'VALIDATION_ERROR', slug);
    }
  });
});

describe('build warnings for open types', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'schema-typing-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('names the tool and the schema whose type fell back, and nothing else', async () => {
    const source = join(dir, 'bundle.json');
    await writeFile(source, JSON.stringify(document));
    const result = await runCli(['build', '--no-compile', '--json', '--source', source, '--out', join(dir, 'out')]);
    assert.equal(result.code, 0, result.stderr);
    const { warnings } = JSON.parse(result.stdout) as { warnings: Array<{ slug: string; pointer: string; message: string; hint: string }> };
    assert.deepEqual(
      warnings.map((w) => [w.slug, w.pointer]),
      [['prefix-items-ref', '/input_schema']],
    );
    assert.match(warnings[0]!.message, /cannot type this schema/);
    assert.match(warnings[0]!.hint, /validates against the full schema/);
    assert.match(result.stderr, /prefix-items-ref/);
  });
});
