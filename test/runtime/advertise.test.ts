import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ToolSchema } from '@modelcontextprotocol/sdk/types.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  advertisedForm,
  advertisedTool,
  createToolAdvertiser,
  FAILURE_ENVELOPE_SCHEMA,
  offerAdvertisedForms,
  outputSchemaOf,
  readAdvertisedListFileSync,
  withheldReasonFor,
  type PreparedForms,
} from '../../src/runtime/catalogue/advertise.js';
import { advertisedListFileText, advertisedListLine, advertisedListParts } from '../../src/pipeline/emit/advertised-list.js';
import { DEFAULT_HOST_PROFILE } from '../../src/runtime/schema/host-profiles.js';
import { toolFailure } from '../../src/runtime/shared/contracts.js';
import { manifest, servedTool } from './core-fixtures.js';
import { toolList } from '../../src/runtime/catalogue/slug-index.js';

test('slug, title, verbatim description, schema unchanged', () => {
  const inputSchema = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    required: ['env_content'],
    properties: { env_content: { type: 'string' } },
  };
  const description = 'Validates a `.env` file.\nQuotes: "it\'s" */ \u2028 done';
  const tool = advertisedTool(
    servedTool(
      manifest({
        slug: 'env-validator',
        name: 'Env Validator',
        description,
        input_schema: inputSchema,
        output_schema: { type: 'object', properties: { valid: { type: 'boolean' } } },
        annotations: { readOnlyHint: true, openWorldHint: false },
      }),
    ),
  );
  assert.deepEqual(tool, {
    name: 'env-validator',
    title: 'Env Validator',
    description,
    inputSchema,
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
  const tool = advertisedTool(
    servedTool(manifest({ slug: 'old', description: 'Does the old thing.', deprecated: 'use new-tool instead' })),
  );
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
    $defs: {
      node: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/$defs/node' } } }, additionalProperties: false },
    },
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

// Prepared forms (data/tools-list.json): what the generator writes is what the server would compute, and the server
// uses the file only for the very tool objects it was offered for, and only while it still describes them.

const preparedTools = () => [
  servedTool(
    manifest({
      slug: 'alpha',
      name: 'Alpha',
      description: 'First.',
      input_schema: { type: 'object', properties: { a: { $ref: '#/$defs/a' } }, $defs: { a: { type: 'string' } } },
    }),
  ),
  servedTool(
    manifest({
      slug: 'beta',
      name: 'Beta',
      description: 'Second.',
      deprecated: 'use alpha',
      input_schema: { type: 'object', properties: { constructor: { type: 'number' } } },
    }),
  ),
  { ...servedTool(manifest({ slug: 'bad slug', description: 'Withheld.' })), withheldReason: 'contains white space' },
];

async function writePrepared(text: string): Promise<URL> {
  const dir = await mkdtemp(join(tmpdir(), 'nb-prepared-'));
  const path = join(dir, 'tools-list.json');
  await writeFile(path, text);
  return pathToFileURL(path);
}

const lister = (prepared?: PreparedForms) =>
  createToolAdvertiser({
    profile: DEFAULT_HOST_PROFILE,
    mode: 'all',
    threshold: Infinity,
    pinned: [],
    metaToolName: 'nexusbloom',
    prepared,
  });
const META = { name: 'nexusbloom', inputSchema: { type: 'object' as const, properties: {} } };

test('the prepared list holds exactly the forms the server computes, for advertisable tools only', async () => {
  const tools = preparedTools();
  const forms = readAdvertisedListFileSync(await writePrepared(advertisedListFileText(tools)));
  assert.deepEqual(
    forms,
    tools.slice(0, 2).map((tool) => JSON.parse(JSON.stringify(advertisedForm(tool)))),
  );
});

test('a line of the prepared list is its form as JSON; its tool part is the tools/list entry as JSON', () => {
  const aliased = servedTool(
    manifest({
      slug: 'gamma',
      input_schema: {
        type: 'object',
        properties: { constructor: { type: 'string' }, aliases: { type: 'string', description: ',"aliases":{}}' } },
      },
    }),
  );
  for (const tool of [...preparedTools().slice(0, 2), aliased]) {
    const form = advertisedForm(tool);
    assert.equal(advertisedListLine(tool), JSON.stringify(form), tool.slug);
    assert.equal(advertisedListParts(tool).tool, JSON.stringify(advertisedTool(tool)), tool.slug);
  }
  assert.notDeepEqual(advertisedForm(aliased).aliases, {}, 'the aliases part is not always empty');
});

test('a server lists the prepared forms for the tools they were offered for, and computes the rest', async () => {
  const tools = preparedTools();
  // Marked, to tell a prepared form from a computed one.
  const url = await writePrepared(advertisedListFileText(tools).replaceAll('"inputSchema":{', '"inputSchema":{"x-prepared":true,'));
  const offered = preparedTools();
  let loads = 0;
  const prepared = offerAdvertisedForms(offered, () => {
    loads += 1;
    return readAdvertisedListFileSync(url);
  });
  // A direct call maps its arguments back without loading the prepared forms of every tool.
  assert.deepEqual(lister(prepared).argumentsFor(toolList(offered), 'beta', { constructor: 1 }), { constructor: 1 });
  assert.equal(loads, 0);
  const listed = lister(prepared).list(offered, META);
  assert.equal(loads, 1);
  assert.deepEqual(
    listed.slice(0, 2).map((tool) => tool.inputSchema['x-prepared']),
    [true, true],
  );
  assert.deepEqual(
    listed.map((tool) => tool.name),
    ['alpha', 'beta', 'nexusbloom'],
  );
  // Tools that were not offered (a live refresh) are computed and never read the file.
  const refreshed = lister(prepared).list(preparedTools(), META);
  assert.equal(loads, 1);
  assert.deepEqual(
    refreshed.slice(0, 2),
    tools.slice(0, 2).map((tool) => advertisedTool(tool)),
  );
});

test('a prepared form that no longer describes its tool, or a broken file, falls back to computing', async () => {
  const tools = preparedTools();
  const stale = advertisedListFileText(tools).replace('"Second."', '"Second, as it was."');
  for (const text of [
    stale,
    '{"format":"nexusbloom-tools-list/1","profile":"spec","tools":[{"tool":{}}]}',
    'not json',
    '{"format":"other"}',
  ]) {
    const url = await writePrepared(text);
    const offered = preparedTools();
    const listed = lister(offerAdvertisedForms(offered, () => readAdvertisedListFileSync(url))).list(offered, META);
    assert.deepEqual(
      listed.slice(0, 2),
      offered.slice(0, 2).map((tool) => advertisedTool(tool)),
      text.slice(0, 40),
    );
    assert.equal(listed[1]!.description, 'Deprecated: use alpha.\nSecond.');
  }
});
