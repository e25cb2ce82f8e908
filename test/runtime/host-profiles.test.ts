import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ListToolsResultSchema, ToolSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { advertisedForm, createToolAdvertiser, listedCatalogueTools, withheldReasonFor } from '../../src/runtime/catalogue/advertise.js';
import type { JsonObject, Manifest, ServedCatalogueFile, ServedTool } from '../../src/runtime/shared/contracts.js';
import { validExampleArguments } from '../../src/runtime/schema/call-shape.js';
import {
  argumentsForHost,
  argumentsFromHost,
  HOST_PROFILE_NAMES,
  HOST_RULES,
  hostInputSchema,
  hostViolations,
  type HostProfileName,
} from '../../src/runtime/schema/host-profiles.js';
import { forEachSchema, inlineRefs, NAMED_SCHEMA_KEYWORDS } from '../../src/runtime/schema/schema-transform.js';
import { readSettings } from '../../src/runtime/settings/config.js';
import { createServer } from '../../src/runtime/transport/server.js';
import { createValidator } from '../../src/runtime/schema/validation.js';
import { NASTY_MANIFESTS } from '../fixtures/nasty-schemas.js';
import { compileSchema, mutations } from '../fixtures/schema-mutations.js';
import { captureLog, manifest, sendJson, servedTool, startHttp, testNames } from './core-fixtures.js';

const exampleCatalogue = JSON.parse(readFileSync(new URL('../../examples/catalogue.json', import.meta.url), 'utf8')) as {
  tools: Manifest[];
};
const allTools: ServedTool[] = [...exampleCatalogue.tools, ...NASTY_MANIFESTS].map((m) => servedTool(m, withheldReasonFor(m.slug)));

const isObject = (value: unknown): value is JsonObject => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Valid manifest-spelled arguments for a tool: every example plus the synthesized call, when they validate. */
function validArguments(tool: ServedTool): JsonObject[] {
  const validator = createValidator(() => {});
  const original = compileSchema(tool.manifest.input_schema ?? {});
  const candidates = [...(tool.manifest.examples ?? []).map((example) => example.params), validExampleArguments(tool, validator).arguments];
  return candidates.filter((args) => isObject(args) && original(args));
}

test("every advertised schema passes its profile's checker (example catalogue and nasty schemas)", () => {
  for (const profile of HOST_PROFILE_NAMES) {
    for (const tool of allTools) {
      const { tool: advertised } = advertisedForm(tool, profile);
      assert.deepEqual(hostViolations(advertised.inputSchema as JsonObject, profile), [], `${profile}: ${tool.slug}`);
      assert.ok(ToolSchema.safeParse(advertised).success, `${profile}: ${tool.slug} is a valid MCP Tool`);
      // Refs stay only where inlining would change the meaning (recursion), and only for the spec profile.
      const recursive = inlineRefs(tool.manifest.output_schema ?? {}).cutRefs.length > 0;
      if (advertised.outputSchema !== undefined && !(recursive && HOST_RULES[profile].keepsRecursiveRefs)) {
        assert.doesNotMatch(JSON.stringify(advertised.outputSchema), /"\$ref"|"\$defs"|"definitions"/, `${profile}: ${tool.slug} output`);
      }
    }
  }
});

test('the checkers catch what the hosts reject in the raw schemas', () => {
  const raw = (slug: string) => NASTY_MANIFESTS.find((m) => m.slug === slug)?.input_schema as JsonObject;
  assert.ok(hostViolations(raw('recursive-tree'), 'claude').some((line) => line.includes('$ref')));
  assert.deepEqual(hostViolations(raw('recursive-tree'), 'spec'), [], 'the spec resolves $ref (JSON Schema 2020-12)');
  assert.ok(hostViolations(raw('top-one-of'), 'claude').includes(': top-level oneOf'));
  assert.deepEqual(hostViolations(raw('top-one-of'), 'spec'), [], 'the spec allows top-level unions');
  const keys = hostViolations(raw('weird-keys'), 'claude');
  assert.equal(keys.filter((line) => line.includes('key outside')).length, 5, keys.join('\n'));
  const gemini = hostViolations(raw('formats-and-keywords'), 'gemini');
  for (const expected of [
    'format "uuid"',
    'format "hostname"',
    'additionalProperties',
    'const',
    'oneOf',
    'allOf',
    'type is not one name',
    'object without properties',
  ]) {
    assert.ok(
      gemini.some((line) => line.includes(expected)),
      `gemini: ${expected}\n${gemini.join('\n')}`,
    );
  }
  assert.ok(hostViolations(raw('formats-and-keywords'), 'openai').some((line) => line.includes('format "int32"')));
  assert.deepEqual(
    hostViolations(raw('formats-and-keywords'), 'claude').filter((line) => line.includes('format')).length,
    1,
    'claude keeps uuid, hostname, email; int32 goes',
  );
});

test('a call built for each profile is accepted against the original after the server maps it back', () => {
  for (const profile of HOST_PROFILE_NAMES) {
    for (const tool of allTools) {
      const form = advertisedForm(tool, profile);
      const advertised = compileSchema(form.tool.inputSchema as JsonObject);
      const original = compileSchema(tool.manifest.input_schema ?? {});
      const calls = validArguments(tool);
      assert.ok(calls.length > 0, `${tool.slug} has a valid call to try`);
      for (const args of calls) {
        const sent = argumentsForHost(args, form.aliases);
        assert.equal(advertised(sent), true, `${profile}: ${tool.slug}: the host's schema admits ${JSON.stringify(sent)}`);
        const received = argumentsFromHost(sent, form.aliases);
        assert.deepEqual(received, args, `${profile}: ${tool.slug}`);
        assert.equal(original(received), true, `${profile}: ${tool.slug}`);
      }
    }
  }
});

test('spec: the advertised schema accepts and rejects exactly what the original does, recursion included', () => {
  let compared = 0;
  let recursive = 0;
  for (const tool of allTools) {
    const input = tool.manifest.input_schema ?? {};
    const form = advertisedForm(tool, 'spec');
    const original = compileSchema(input);
    const advertisedValidator = compileSchema(form.tool.inputSchema as JsonObject);
    // Keys spec aliases (SDK_UNSAFE_KEYS) are compared as the host would send them.
    const advertised = (value: unknown) => advertisedValidator(isObject(value) ? argumentsForHost(value, form.aliases) : value);
    if (inlineRefs(input).cutRefs.length > 0) recursive += 1;
    const corpus = validArguments(tool).flatMap((args) => [args, ...mutations(args)]);
    for (const value of corpus) {
      compared += 1;
      assert.equal(advertised(value), original(value), `${tool.slug}: ${JSON.stringify(value)}`);
    }
  }
  assert.ok(compared > 1000, `compared ${compared} values`);
  assert.ok(recursive > 0, 'recursive schemas are among those compared');
});

test('spec: a recursive schema keeps its refs, so a value wrong below any depth is refused as the manifest refuses it', () => {
  const tree = NASTY_MANIFESTS.find((m) => m.slug === 'recursive-tree')!;
  const advertised = compileSchema(advertisedForm(servedTool(tree, null), 'spec').tool.inputSchema as JsonObject);
  const original = compileSchema(tree.input_schema ?? {});
  let deep: JsonObject = { name: '' };
  for (let level = 0; level < 12; level += 1) deep = { name: `n${level}`, kids: [deep] };
  const value = { root: deep };
  assert.equal(original(value), false, 'the innermost name is empty, which minLength 1 refuses');
  assert.equal(advertised(value), false);
  assert.equal(
    compileSchema(advertisedForm(servedTool(tree, null), 'claude').tool.inputSchema as JsonObject)(value),
    true,
    'hosts that resolve no refs still get the spelled-out form',
  );
});

test('host profiles lift top-level unions into one object and say what each form needs', () => {
  const oneOf = NASTY_MANIFESTS.find((m) => m.slug === 'top-one-of')?.input_schema as JsonObject;
  const { schema } = hostInputSchema(oneOf, 'claude');
  assert.deepEqual(Object.keys(schema.properties as JsonObject), ['mode', 'url', 'text']);
  assert.equal(schema.required, undefined);
  assert.match(String(schema.description), /exactly one of 2 forms: form 1 \(by url\) needs url; form 2 \(by text\) needs text/);
  assert.match(String((schema.properties as Record<string, JsonObject>).url?.description), /Required in form 1\./);
  const conflict = hostInputSchema(NASTY_MANIFESTS.find((m) => m.slug === 'top-any-of-conflict')?.input_schema, 'openai').schema;
  assert.deepEqual(conflict.required, ['value'], 'required in every form stays required');
  assert.deepEqual((conflict.properties as JsonObject).value, { anyOf: [{ type: 'string' }, { type: 'number' }] });
  const allOf = hostInputSchema(NASTY_MANIFESTS.find((m) => m.slug === 'top-all-of')?.input_schema, 'gemini').schema;
  assert.deepEqual(allOf.required, ['first', 'second']);
});

test('keys outside the host pattern get aliases that depend on the key, not on order, and map back', () => {
  const weird = NASTY_MANIFESTS.find((m) => m.slug === 'weird-keys')?.input_schema as JsonObject;
  const { schema, aliases } = hostInputSchema(weird, 'claude');
  const keys = Object.keys(schema.properties as JsonObject);
  for (const key of keys) assert.match(key, HOST_RULES.claude.propertyKey as RegExp);
  assert.equal(new Set(keys).size, keys.length);
  assert.equal(aliases['_'], 'ü');
  assert.equal(aliases['x'.repeat(64)], 'x'.repeat(80));
  const aB = Object.keys(aliases).find((alias) => aliases[alias] === 'a b');
  const aColonB = Object.keys(aliases).find((alias) => aliases[alias] === 'a:b');
  assert.match(aB ?? '', /^a_b_[0-9a-f]{8}$/, 'a b and a:b share a base, so both carry a hash');
  assert.notEqual(aB, aColonB);
  assert.ok(!('filter_id_' in aliases), 'a real key is never renamed');
  assert.match(Object.keys(aliases).find((alias) => aliases[alias] === 'filter[id]') ?? '', /^filter_id__[0-9a-f]{8}$/);
  assert.deepEqual(schema.required, [aB, '_']);
  const reversed = copyReversed(weird);
  assert.deepEqual(hostInputSchema(reversed, 'claude').aliases, aliases, 'key order does not change the aliases');
  assert.deepEqual(argumentsFromHost({ [aB as string]: 'x', 'a b': 'kept', other: 1 }, aliases), { 'a b': 'kept', other: 1 });
  assert.equal(argumentsFromHost('not an object', aliases), 'not an object');
});

test('every profile aliases the keys the MCP SDK rejects or drops, and the wire form parses as an MCP Tool', () => {
  const unsafe = allTools.find((tool) => tool.slug === 'sdk-unsafe-keys') as ServedTool;
  for (const profile of HOST_PROFILE_NAMES) {
    const form = advertisedForm(unsafe, profile);
    const wire = JSON.parse(JSON.stringify(form.tool)) as unknown;
    const parsed = ToolSchema.safeParse(wire);
    assert.ok(parsed.success, `${profile}: ${JSON.stringify(parsed.error?.issues)}`);
    const keys = Object.keys(parsed.data.inputSchema.properties ?? {});
    assert.equal(keys.length, 3, `${profile}: no field is dropped by the SDK (${keys.join(', ')})`);
    assert.ok(keys.includes('toString'), 'other Object.prototype names are fine');
    assert.deepEqual(Object.values(form.aliases).sort(), ['__proto__', 'constructor']);
    assert.match(Object.keys(form.aliases).find((alias) => form.aliases[alias] === 'constructor') ?? '', /^constructor_[0-9a-f]{8}$/);
  }
  const raw = JSON.parse(JSON.stringify({ name: 'x', inputSchema: unsafe.manifest.input_schema })) as unknown;
  assert.equal(ToolSchema.safeParse(raw).success, false, 'the SDK does reject the schema as written');
});

/** Boolean subschemas wherever a schema may hold one; the SDK rejects a whole list over the two under `properties`. */
const booleanSchemas = servedTool(
  manifest({
    slug: 'boolean-schemas',
    input_schema: {
      type: 'object',
      properties: {
        t: true,
        f: false,
        list: { type: 'array', items: true, contains: true },
        tuple: { type: 'array', prefixItems: [true, false], items: false },
        either: { anyOf: [false, { type: 'string' }], not: false },
        nested: { $ref: '#/$defs/nested' },
      },
      patternProperties: { '^x-': true },
      additionalProperties: false,
      $defs: { nested: { type: 'object', properties: { yes: true, no: false }, additionalProperties: false } },
    },
    output_schema: { type: 'object', properties: { echo: true, never: false } },
  }),
);

test('boolean property schemas are advertised as objects of the same meaning, other booleans as written, and the SDK accepts the list', () => {
  const raw = JSON.parse(JSON.stringify({ tools: [{ name: 'x', inputSchema: booleanSchemas.manifest.input_schema }] })) as unknown;
  assert.equal(ListToolsResultSchema.safeParse(raw).success, false, 'the SDK does reject the schema as written');
  for (const profile of HOST_PROFILE_NAMES) {
    const { tool } = advertisedForm(booleanSchemas, profile);
    const parsed = ListToolsResultSchema.safeParse(JSON.parse(JSON.stringify({ tools: [tool] })));
    assert.ok(parsed.success, `${profile}: ${JSON.stringify(parsed.error?.issues)}`);
    assert.deepEqual(hostViolations(tool.inputSchema as JsonObject, profile), [], profile);
    for (const schema of [tool.inputSchema, tool.outputSchema] as JsonObject[]) {
      forEachSchema(schema, (node, pointer) => {
        if (NAMED_SCHEMA_KEYWORDS.has(pointer.split('/').at(-2) ?? ''))
          assert.equal(typeof node, 'object', `${profile}: ${pointer} is still a boolean`);
      });
    }
  }
  const spec = advertisedForm(booleanSchemas, 'spec').tool;
  assert.deepEqual((spec.inputSchema.properties as JsonObject).t, {});
  assert.deepEqual((spec.inputSchema.properties as JsonObject).f, { not: {} });
  // Elsewhere a boolean stays as written: strict hosts require `additionalProperties: false` spelled so.
  assert.equal(spec.inputSchema.additionalProperties, false);
  assert.deepEqual((spec.inputSchema.properties as Record<string, JsonObject>).tuple, {
    type: 'array',
    prefixItems: [true, false],
    items: false,
  });
  assert.deepEqual(((spec.inputSchema.properties as Record<string, JsonObject>).nested as JsonObject).properties, {
    yes: {},
    no: { not: {} },
  });
  const original = compileSchema(booleanSchemas.manifest.input_schema as JsonObject);
  const advertised = compileSchema(spec.inputSchema as JsonObject);
  const originalOutput = compileSchema(booleanSchemas.manifest.output_schema as JsonObject);
  const advertisedOutput = compileSchema(spec.outputSchema as JsonObject);
  const valid = { t: [1, 'x'], list: [1], tuple: [1], either: 'e', nested: { yes: null }, 'x-extra': 2 };
  const corpus = [
    valid,
    ...mutations(valid),
    { f: 1 },
    { tuple: [1, 2] },
    { tuple: [1, 2, 3] },
    { either: 1 },
    { nested: { no: 1 } },
    { list: [] },
    { other: 1 },
  ];
  for (const value of corpus) assert.equal(advertised(value), original(value), JSON.stringify(value));
  assert.equal(original(valid), true);
  assert.equal(original({ f: 1 }), false);
  for (const value of [{ echo: 1 }, { echo: 1, never: 2 }, {}])
    assert.equal(advertisedOutput(value), originalOutput(value), JSON.stringify(value));
});

test('server: a tool with boolean property schemas lists through the SDK client with the others, and calls are still checked against the original', async () => {
  const others = exampleCatalogue.tools.slice(0, 2).map((m) => servedTool(m));
  const catalogue: ServedCatalogueFile = { format: 'nexusbloom-served-catalogue/1', tools: [...others, booleanSchemas] };
  const api = await echoApi();
  const session = await connect(catalogue, { NEXUSBLOOM_MCP_TOOLS: 'all', NEXUSBLOOM_API_URL: api.url });
  try {
    const { tools } = await session.client.listTools();
    assert.deepEqual(
      tools.map((tool) => tool.name),
      [...others.map((tool) => tool.slug), 'boolean-schemas', testNames.metaToolName],
    );
    const ok = (await session.client.callTool({ name: 'boolean-schemas', arguments: { t: 'anything' } })) as CallToolResult;
    assert.equal(ok.isError, undefined, JSON.stringify(ok.content));
    const refused = (await session.client.callTool({ name: 'boolean-schemas', arguments: { f: 1 } })) as CallToolResult;
    assert.equal(refused.isError, true);
    assert.match(JSON.stringify(refused.structuredContent), /VALIDATION_ERROR/);
  } finally {
    await session.close();
    await api.close();
  }
});

function copyReversed(schema: JsonObject): JsonObject {
  const properties = schema.properties as JsonObject;
  return { ...schema, properties: Object.fromEntries(Object.entries(properties).reverse()) };
}

test('transforms are pure: inputs untouched, the same output twice, and the spec profile keeps unchanged schemas as they are', () => {
  for (const profile of HOST_PROFILE_NAMES) {
    for (const tool of allTools) {
      const before = JSON.stringify(tool.manifest);
      assert.deepEqual(advertisedForm(tool, profile), advertisedForm(tool, profile));
      assert.equal(JSON.stringify(tool.manifest), before, `${profile}: ${tool.slug}`);
    }
  }
  const plain = exampleCatalogue.tools.find((m) => m.slug === 'hash-calculator') as Manifest;
  assert.equal(advertisedForm(servedTool(plain), 'spec').tool.inputSchema, plain.input_schema);
});

test('the advertiser computes each form once per served tool and lists the meta-tool last', () => {
  const advertiser = createToolAdvertiser({ profile: 'gemini', mode: 'all', threshold: 40, pinned: [], metaToolName: 'meta' });
  const tools = allTools.filter((tool) => tool.withheldReason === null).slice(0, 5);
  const metaTool = { name: 'meta', inputSchema: { type: 'object' as const, properties: {}, additionalProperties: false } };
  const first = advertiser.list(tools, metaTool);
  const second = advertiser.list(tools, metaTool);
  assert.equal(first.length, 6);
  first.forEach((tool, index) => assert.equal(second[index], tool, 'cached, not recomputed'));
  assert.deepEqual(first[5]?.inputSchema, { type: 'object', properties: {} }, 'gemini drops additionalProperties from the meta-tool too');
  const refreshed = tools.map((tool) => ({ ...tool }));
  assert.notEqual(advertiser.list(refreshed, metaTool)[0], first[0], 'a refreshed catalogue gets new forms');
});

async function connect(catalogue: ServedCatalogueFile, env: Record<string, string>) {
  const { log, lines } = captureLog();
  const created = createServer({ names: testNames, catalogue, env, log });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test-client', version: '0.0.0' });
  await created.server.connect(serverTransport);
  await client.connect(clientTransport);
  return {
    client,
    lines,
    close: async () => {
      await client.close();
      await created.close();
    },
  };
}

function echoApi() {
  return startHttp((req, res) => {
    const slug = decodeURIComponent(req.url.replace(/^\/api\/tools\//, '').replace(/\/run$/, ''));
    sendJson(res, 200, { success: true, result: { slug, params: JSON.parse(req.body).params }, duration_ms: 1 });
  });
}

test("server: a host profile shapes tools/list, and aliased arguments reach the API under the manifest's keys", async () => {
  const catalogue: ServedCatalogueFile = { format: 'nexusbloom-served-catalogue/1', tools: allTools };
  const api = await echoApi();
  const session = await connect(catalogue, {
    NEXUSBLOOM_MCP_HOST_PROFILE: 'claude',
    NEXUSBLOOM_MCP_TOOLS: 'all',
    NEXUSBLOOM_API_URL: api.url,
  });
  try {
    const { tools } = await session.client.listTools();
    assert.equal(tools.length, allTools.filter((tool) => tool.withheldReason === null).length + 1);
    for (const tool of tools) assert.deepEqual(hostViolations(tool.inputSchema as JsonObject, 'claude'), [], tool.name);
    const weird = tools.find((tool) => tool.name === 'weird-keys');
    const aliases = advertisedForm(allTools.find((tool) => tool.slug === 'weird-keys') as ServedTool, 'claude').aliases;
    const umlaut = Object.keys(aliases).find((alias) => aliases[alias] === 'ü') as string;
    const space = Object.keys(aliases).find((alias) => aliases[alias] === 'a b') as string;
    assert.ok(umlaut in (weird?.inputSchema.properties ?? {}));
    const result = (await session.client.callTool({
      name: 'weird-keys',
      arguments: { [space]: 'x', [umlaut]: true, ok_key: 2 },
    })) as CallToolResult;
    assert.equal(result.isError, undefined, JSON.stringify(result.content));
    assert.deepEqual(JSON.parse(api.requests.at(-1)?.body ?? '{}'), { params: { 'a b': 'x', ü: true, ok_key: 2 } });
    const invalid = (await session.client.callTool({ name: 'weird-keys', arguments: { [space]: 'x' } })) as CallToolResult;
    assert.equal(invalid.isError, true, 'the original schema still decides: ü is required');
    assert.match(JSON.stringify(invalid.structuredContent), /VALIDATION_ERROR/);
  } finally {
    await session.close();
    await api.close();
  }
});

test('server: an unknown host profile is reported and the spec profile is used', async () => {
  const catalogue: ServedCatalogueFile = {
    format: 'nexusbloom-served-catalogue/1',
    tools: allTools.filter((tool) => tool.slug === 'top-one-of'),
  };
  const session = await connect(catalogue, { NEXUSBLOOM_MCP_HOST_PROFILE: 'netscape' });
  try {
    assert.ok(
      session.lines.some((line) => line.includes('NEXUSBLOOM_MCP_HOST_PROFILE="netscape"') && line.includes('spec')),
      session.lines.join('\n'),
    );
    const { tools } = await session.client.listTools();
    assert.ok(Array.isArray(tools[0]?.inputSchema.oneOf), 'spec keeps the top-level oneOf');
  } finally {
    await session.close();
  }
});

function numbered(count: number): ServedCatalogueFile {
  const tools = Array.from({ length: count }, (_unused, index) =>
    servedTool(
      manifest({
        slug: `tool-${String(index + 1).padStart(2, '0')}`,
        input_schema: { type: 'object', properties: { n: { type: 'integer' } } },
      }),
    ),
  );
  return { format: 'nexusbloom-served-catalogue/1', tools };
}

/** Every page of tools/list, following nextCursor as a paging host does. */
async function listEveryTool(client: Client): Promise<{ tools: Array<{ name: string }>; pages: number }> {
  const tools: Array<{ name: string }> = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor });
    tools.push(...page.tools);
    cursor = page.nextCursor;
    pages += 1;
  } while (cursor !== undefined);
  return { tools, pages };
}

test('tools modes over 127 and 128 tools: auto lists everything up to the 128 hosts take, then the meta-tool; pinned tools stay, unlisted tools stay callable', async () => {
  const api = await echoApi();
  const cases: Array<{ size: number; env: Record<string, string>; listed: number; pages?: number; pinned?: string }> = [
    { size: 127, env: {}, listed: 128 },
    { size: 128, env: {}, listed: 1 },
    { size: 128, env: { NEXUSBLOOM_MCP_PINNED_TOOLS: 'tool-03, tool-128,no-such-tool' }, listed: 3, pinned: 'tool-128' },
    { size: 41, env: { NEXUSBLOOM_MCP_TOOLS_THRESHOLD: '40' }, listed: 1 },
    { size: 39, env: { NEXUSBLOOM_MCP_TOOLS: 'meta' }, listed: 1 },
    { size: 39, env: { NEXUSBLOOM_MCP_TOOLS: 'meta', NEXUSBLOOM_MCP_PINNED_TOOLS: 'tool-07' }, listed: 2, pinned: 'tool-07' },
    { size: 300, env: { NEXUSBLOOM_MCP_TOOLS: 'all' }, listed: 301, pages: 3 },
    { size: 41, env: { NEXUSBLOOM_MCP_TOOLS: 'ALL' }, listed: 42 },
  ];
  try {
    for (const { size, env, listed, pages, pinned } of cases) {
      const label = `${size} tools, ${JSON.stringify(env)}`;
      const session = await connect(numbered(size), { ...env, NEXUSBLOOM_API_URL: api.url });
      try {
        const { tools, pages: paged } = await listEveryTool(session.client);
        assert.equal(tools.length, listed, label);
        assert.equal(paged, pages ?? 1, `${label}: pages of at most 128`);
        assert.equal(new Set(tools.map((tool) => tool.name)).size, tools.length, `${label}: no tool twice across pages`);
        assert.equal(tools.at(-1)?.name, 'nexusbloom', `${label}: the meta-tool is always listed`);
        if (pinned !== undefined)
          assert.ok(
            tools.some((tool) => tool.name === pinned),
            label,
          );
        const unlisted = numbered(size)
          .tools.map((tool) => tool.slug)
          .find((slug) => !tools.some((tool) => tool.name === slug));
        if (unlisted !== undefined) {
          const result = (await session.client.callTool({ name: unlisted, arguments: { n: 1 } })) as CallToolResult;
          assert.equal(result.isError, undefined, `${label}: ${unlisted} is callable by name`);
          assert.deepEqual(
            (result.structuredContent as JsonObject | undefined) ?? JSON.parse((result.content[0] as { text: string }).text),
            { slug: unlisted, params: { n: 1 } },
          );
        }
      } finally {
        await session.close();
      }
    }
  } finally {
    await api.close();
  }
});

test('listedCatalogueTools never lists withheld tools or a tool named like the meta-tool, in any mode', () => {
  const tools = [
    servedTool(manifest({ slug: 'a' })),
    servedTool(manifest({ slug: 'meta' })),
    servedTool(manifest({ slug: 'b c' }), 'has a space'),
  ];
  for (const mode of ['all', 'meta', 'auto'] as const) {
    const listed = listedCatalogueTools(tools, { mode, threshold: 40, pinned: ['a', 'meta', 'b c'], metaToolName: 'meta' });
    assert.deepEqual(
      listed.map((tool) => tool.slug),
      ['a'],
      mode,
    );
  }
});

test('every profile named in HOST_RULES has a rule for each documented limit', () => {
  const profiles: HostProfileName[] = [...HOST_PROFILE_NAMES];
  assert.deepEqual(Object.keys(HOST_RULES).sort(), [...profiles].sort());
  assert.equal(HOST_RULES.spec.liftTopLevelUnions, false, 'spec changes nothing that has meaning');
  assert.equal(HOST_RULES.gemini.dropped.includes('additionalProperties'), true);
});

test('settings: defaults, accepted values, and invalid ones reported and replaced', () => {
  const { log, lines } = captureLog();
  const defaults = readSettings(testNames, {}, log);
  assert.deepEqual([defaults.hostProfile, defaults.tools, defaults.toolsThreshold, defaults.pinnedTools], ['spec', 'auto', 128, []]);
  assert.deepEqual(lines, []);
  const set = readSettings(
    testNames,
    {
      NEXUSBLOOM_MCP_HOST_PROFILE: 'Gemini',
      NEXUSBLOOM_MCP_TOOLS: 'meta',
      NEXUSBLOOM_MCP_TOOLS_THRESHOLD: '12',
      NEXUSBLOOM_MCP_PINNED_TOOLS: ' a ,b,,',
    },
    log,
  );
  assert.deepEqual([set.hostProfile, set.tools, set.toolsThreshold, set.pinnedTools], ['gemini', 'meta', 12, ['a', 'b']]);
  const bad = readSettings(testNames, { NEXUSBLOOM_MCP_TOOLS: 'some', NEXUSBLOOM_MCP_TOOLS_THRESHOLD: '0' }, log);
  assert.deepEqual([bad.tools, bad.toolsThreshold], ['auto', 128]);
  assert.equal(lines.length, 2);
  assert.match(lines[0] ?? '', /NEXUSBLOOM_MCP_TOOLS="some" is not one of auto, all, meta/);
  assert.match(lines[1] ?? '', /NEXUSBLOOM_MCP_TOOLS_THRESHOLD="0" is not a whole number of at least 1; using 128/);
  assert.equal(set.vars.hostProfile, 'NEXUSBLOOM_MCP_HOST_PROFILE');
});
