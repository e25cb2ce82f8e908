// The example catalogue's generated server, built and compiled once, driven over real stdio by the SDK client
// against the mock API: tools, meta-tool, progress, resources, prompts and completion.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { manifestsFromBundle, startMockApi, type MockApi } from '../../src/runtime/dev/mock-api.js';
import { inlineRefs } from '../../src/runtime/schema/schema-transform.js';
import type { Manifest, ToolFailure } from '../../src/runtime/shared/contracts.js';
import {
  builtExample,
  call,
  connectOver,
  dataOf,
  EXAMPLE_CATALOGUE,
  notificationsOf,
  textOf,
  type ServerSession,
  type TransportName,
} from '../helpers/mcp.js';

const manifests: Manifest[] = manifestsFromBundle(JSON.parse(readFileSync(EXAMPLE_CATALOGUE, 'utf8')));
const WITHHELD = ['Text Stats', 'git/commit-lint', 'déaccentuer'];
const META = 'nexusbloom';
const bySlug = (slug: string): Manifest => manifests.find((manifest) => manifest.slug === slug)!;
const exampleParams = (slug: string): Record<string, unknown> => bySlug(slug).examples![0]!.params;

/** The ```json blocks of a prompt's text, parsed; the call an agent would copy is the last one. */
function jsonBlocks(text: string): unknown[] {
  return [...text.matchAll(/```json\n([\s\S]*?)\n```/g)].map((match) => JSON.parse(match[1]!) as unknown);
}

/**
 * The manifest's output schema as advertised: as published, or as the first branch of an `anyOf` next to the
 * failure envelope, with its definitions hoisted to the wrapper so its `#/$defs/...` references still resolve.
 */
function publishedOutputSchema(advertised: Record<string, unknown> | undefined): unknown {
  if (advertised === undefined || !Array.isArray(advertised.anyOf)) return advertised;
  const hoisted = Object.fromEntries(
    ['$schema', '$defs', 'definitions'].filter((key) => key in advertised).map((key) => [key, advertised[key]]),
  );
  return { ...(advertised.anyOf[0] as Record<string, unknown>), ...hoisted };
}

/** An ajv for the schema's draft (`$schema` names draft-07, else 2020-12), as lenient about unknown keywords as the server. */
function compileSchema(schema: Record<string, unknown>): ValidateFunction {
  const options = { strict: false, allErrors: false } as const;
  const ajv = typeof schema.$schema === 'string' && schema.$schema.includes('draft-07') ? new Ajv(options) : new Ajv2020(options);
  addFormats.default(ajv);
  return ajv.compile(schema);
}

/**
 * An advertised schema is the manifest's in meaning: identical when the manifest's has no `$ref`; otherwise refs are
 * inlined (many hosts reject `$ref`) unless the schema is recursive, where they are kept; either must leave every
 * verdict on `samples` unchanged.
 */
function assertSameMeaning(advertised: unknown, published: Record<string, unknown>, samples: unknown[], label: string): void {
  if (!JSON.stringify(published).includes('"$ref"')) {
    assert.deepEqual(advertised, published, label);
    return;
  }
  if (inlineRefs(published).cutRefs.length === 0) assert.doesNotMatch(JSON.stringify(advertised), /"\$ref"/, `${label}: refs are inlined`);
  const [fromManifest, fromList] = [compileSchema(published), compileSchema(advertised as Record<string, unknown>)];
  for (const sample of samples) assert.equal(fromList(sample), fromManifest(sample), `${label}: ${JSON.stringify(sample)}`);
}

/** Samples for an input schema: `{}`, each example, and each example with one required field dropped. */
function inputSamples(manifest: Manifest): unknown[] {
  const examples = (manifest.examples ?? []).map((example) => example.params);
  const required = Array.isArray(manifest.input_schema?.required) ? (manifest.input_schema.required as string[]) : [];
  const dropped = examples.flatMap((params) =>
    required.map((field) => Object.fromEntries(Object.entries(params).filter(([key]) => key !== field))),
  );
  return [{}, ...examples, ...dropped];
}

for (const transport of ['stdio', 'http'] as TransportName[])
  describe(`generated server over ${transport} (example catalogue, mock API)`, () => {
    let packageDir: string;
    let api: MockApi;
    let session: ServerSession;
    const runRequests = (): number => api.requests.filter((request) => request.endpoint === 'run').length;

    before(async () => {
      packageDir = await builtExample();
      api = await startMockApi({ manifests });
      // Over HTTP, history is kept per caller, so this client is one (a bearer token); without one it is off.
      session = await connectOver(transport, packageDir, {
        NEXUSBLOOM_API_URL: api.url,
        ...(transport === 'http' ? { NEXUSBLOOM_MCP_HTTP_TOKEN: 'e2e-caller-token' } : {}),
      });
    });
    after(async () => {
      await session?.close();
      await api?.close();
    });

    it('lists the 28 advertised tools with their manifest metadata and real schemas, plus the meta-tool', async () => {
      const { tools } = await session.client.listTools();
      assert.equal(tools.length, 29);
      const advertised = manifests.filter((manifest) => !WITHHELD.includes(manifest.slug));
      assert.equal(advertised.length, 28);
      assert.deepEqual(tools.map((tool) => tool.name).sort(), [...advertised.map((manifest) => manifest.slug), META].sort());
      for (const manifest of advertised) {
        const tool = tools.find((candidate) => candidate.name === manifest.slug)!;
        assert.equal(tool.title, manifest.name, manifest.slug);
        if (manifest.deprecated === undefined) assert.equal(tool.description, manifest.description, manifest.slug);
        else assert.ok(tool.description!.startsWith('Deprecated: ') && tool.description!.endsWith(manifest.description), manifest.slug);
        assert.deepEqual(tool.annotations, manifest.annotations, manifest.slug);
        // MCP needs an object schema, so a tool without declared parameters advertises an empty one.
        assertSameMeaning(
          tool.inputSchema,
          manifest.input_schema ?? { type: 'object', properties: {} },
          inputSamples(manifest),
          `${manifest.slug} input`,
        );
        const results = [{}, ...(manifest.examples ?? []).map((example) => example.result)];
        assertSameMeaning(publishedOutputSchema(tool.outputSchema), manifest.output_schema!, results, `${manifest.slug} output`);
      }
      for (const slug of WITHHELD) assert.ok(!tools.some((tool) => tool.name === slug), `${slug} must be withheld`);
      const metaTool = tools.find((tool) => tool.name === META)!;
      assert.deepEqual(metaTool.inputSchema.required, ['command']);
    });

    it('reports each withheld slug on stderr exactly once', async () => {
      await session.client.listTools();
      const lines = session.stderr().split('\n');
      for (const slug of WITHHELD) {
        assert.equal(lines.filter((line) => line.includes(JSON.stringify(slug))).length, 1, `${slug} in:\n${session.stderr()}`);
      }
    });

    it('calls a tool: JSON text plus structuredContent, one API run with the params', async () => {
      const before = api.requests.length;
      const result = await call(session, 'env-validator', { env_content: 'DEBUG=true' });
      assert.equal(result.isError, undefined);
      const data = dataOf(result);
      assert.equal(data.valid, true);
      assert.deepEqual(data.keys, ['DEBUG']);
      assert.deepEqual(JSON.parse(textOf(result)), data);
      const sent = api.requests.slice(before);
      assert.deepEqual(
        sent.map((request) => [request.endpoint, request.slug]),
        [['run', 'env-validator']],
      );
      assert.deepEqual(sent[0]!.body, { params: { env_content: 'DEBUG=true' } });
    });

    it('rejects invalid arguments before the API: VALIDATION_ERROR naming the field, no run request', async () => {
      const before = runRequests();
      const missing = await call(session, 'env-validator', {});
      assert.equal(missing.isError, true);
      const failure = dataOf<ToolFailure>(missing);
      assert.equal(failure.code, 'VALIDATION_ERROR');
      assert.equal(failure.retryable, false);
      assert.match(failure.error, /env_content/);
      const wrongType = dataOf<ToolFailure>(await call(session, 'http-status-lookup', { code: 'four-oh-four' }));
      assert.equal(wrongType.code, 'VALIDATION_ERROR');
      assert.match(wrongType.error, /code/);
      assert.equal(runRequests(), before);
    });

    it('maps API failures: 500 → UPSTREAM_ERROR, 429 → RATE_LIMITED, both retryable; then works again', async () => {
      api.setFaults({ run: { 'hash-calculator': { kind: 'status', status: 500, times: 1 } } });
      const upstream = await call(session, 'hash-calculator', { text: 'hello world' });
      assert.equal(upstream.isError, true);
      assert.equal(dataOf<ToolFailure>(upstream).code, 'UPSTREAM_ERROR');
      assert.equal(dataOf<ToolFailure>(upstream).retryable, true);

      api.setFaults({ run: { 'hash-calculator': { kind: 'status', status: 429, retryAfter: 7, times: 1 } } });
      const limited = dataOf<ToolFailure>(await call(session, 'hash-calculator', { text: 'hello world' }));
      assert.equal(limited.code, 'RATE_LIMITED');
      assert.equal(limited.retryable, true);
      assert.equal(limited.details?.retry_after_s, 7);

      const ok = await call(session, 'hash-calculator', { text: 'hello world' });
      assert.equal(ok.isError, undefined, textOf(ok));
    });

    it('meta-tool search ranks by intent and list shows all 31 tools with the withheld ones marked', async () => {
      const search = dataOf<{ results: Array<{ slug: string }> }>(
        await call(session, META, { command: 'search', query: 'validate env file' }),
      );
      assert.equal(search.results[0]?.slug, 'env-validator');
      const list = dataOf<{ count: number; tools: Array<{ slug: string; withheld: boolean }> }>(
        await call(session, META, { command: 'list' }),
      );
      assert.equal(list.count, 31);
      assert.deepEqual(
        list.tools
          .filter((tool) => tool.withheld)
          .map((tool) => tool.slug)
          .sort(),
        [...WITHHELD].sort(),
      );
    });

    it('meta-tool schema gives a ready-to-send call; run executes a withheld slug', async () => {
      const schema = dataOf<{
        slug: string;
        withheld: boolean;
        example_valid: boolean;
        example: { name: string; arguments: Record<string, unknown> };
      }>(await call(session, META, { command: 'schema', slug: 'git/commit-lint' }));
      assert.equal(schema.slug, 'git/commit-lint');
      assert.equal(schema.withheld, true);
      assert.equal(schema.example_valid, true);
      assert.equal(schema.example.name, META);
      assert.deepEqual(schema.example.arguments, { command: 'run', slug: 'git/commit-lint', params: exampleParams('git/commit-lint') });

      const run = await call(session, schema.example.name, schema.example.arguments);
      assert.equal(run.isError, undefined, textOf(run));
      assert.deepEqual(dataOf(run), bySlug('git/commit-lint').examples![0]!.result);
      assert.match(String(run._meta?.run_id), /^r\d+$/);
      assert.equal(api.requests.at(-1)?.path, '/api/tools/git%2Fcommit-lint/run');

      const direct = await call(session, 'git/commit-lint', exampleParams('git/commit-lint'));
      assert.equal(direct.isError, true);
      assert.match(dataOf<ToolFailure>(direct).error, /"command":"run"/);
    });

    it('batch: more than 10 runs is BATCH_TOO_LARGE and one invalid item rejects the batch, both with no API run', async () => {
      const before = runRequests();
      const eleven = Array.from({ length: 11 }, () => ({ slug: 'slugify', params: { text: 'a b' } }));
      const tooLarge = await call(session, META, { command: 'batch', runs: eleven });
      assert.equal(tooLarge.isError, true);
      assert.equal(dataOf<ToolFailure>(tooLarge).code, 'BATCH_TOO_LARGE');

      const oneInvalid = await call(session, META, {
        command: 'batch',
        runs: [
          { slug: 'slugify', params: { text: 'a b' } },
          { slug: 'env-validator', params: {} },
          { slug: 'semver-compare', params: { a: '1.0.0', b: '2.0.0' } },
        ],
      });
      assert.equal(oneInvalid.isError, true);
      const failure = dataOf<ToolFailure>(oneInvalid);
      assert.equal(failure.code, 'VALIDATION_ERROR');
      assert.equal(failure.details?.index, 1);
      assert.match(failure.error, /runs\[1\].*env_content/s);
      assert.equal(runRequests(), before);
    });

    it('batch: one failing run keeps the others, failures listed first, progress ticks once per entry plus an opening one', async () => {
      api.setFaults({ run: { 'semver-compare': { kind: 'status', status: 503 } } });
      const since = session.received.length;
      try {
        const result = await call(
          session,
          META,
          {
            command: 'batch',
            runs: [
              { slug: 'slugify', params: { text: 'Hello World' } },
              { slug: 'semver-compare', params: { a: '1.0.0', b: '2.0.0' } },
              { slug: 'env-validator', params: { env_content: 'A=1' } },
            ],
          },
          () => undefined,
        );
        assert.equal(result.isError, undefined, textOf(result));
        const data = dataOf<{
          total: number;
          succeeded: number;
          failed: number;
          runs: Array<{ index: number; slug: string; success: boolean; code?: string }>;
        }>(result);
        assert.deepEqual([data.total, data.succeeded, data.failed], [3, 2, 1]);
        assert.deepEqual(
          data.runs.map((run) => [run.index, run.slug, run.success]),
          [
            [0, 'slugify', true],
            [1, 'semver-compare', false],
            [2, 'env-validator', true],
          ],
        );
        assert.equal(data.runs[1]?.code, 'UPSTREAM_ERROR');
        const lines = textOf(result).split('\n');
        assert.match(lines[0]!, /3 runs: 2 succeeded, 1 failed/);
        assert.match(lines[1]!, /semver-compare.*failed/);
      } finally {
        api.setFaults({});
      }
      const ticks = notificationsOf(session, 'notifications/progress', since).map((notification) => notification.params!);
      assert.deepEqual(
        ticks.map((tick) => tick.progress),
        [0, 1, 2, 3],
        JSON.stringify(ticks),
      );
      assert.ok(ticks.every((tick) => tick.total === 3 && tick.progressToken === ticks[0]!.progressToken));
    });

    it('sends no progress to a call that carries no progressToken', async () => {
      const since = session.received.length;
      const result = await call(session, META, {
        command: 'batch',
        runs: [
          { slug: 'slugify', params: { text: 'x' } },
          { slug: 'slugify', params: { text: 'y' } },
        ],
      });
      assert.equal(dataOf<{ succeeded: number }>(result).succeeded, 2);
      assert.deepEqual(notificationsOf(session, 'notifications/progress', since), []);
    });

    it('history lists runs newest first, shows one in full, and diff compares the last two', async () => {
      await call(session, 'slugify', { text: 'First Title' });
      await call(session, 'slugify', { text: 'Second Title' });
      const history = dataOf<{ runs: Array<{ id: string; slug?: string; tool?: string }> }>(
        await call(session, META, { command: 'history' }),
      );
      const ids = history.runs.map((run) => Number(run.id.slice(1)));
      assert.deepEqual(
        ids,
        [...ids].sort((a, b) => b - a),
      );
      const newest = history.runs[0]!;
      const shown = await call(session, META, { command: 'history', show: newest.id });
      assert.equal(shown.isError, undefined);
      assert.match(textOf(shown), /Second Title/);
      const diff = dataOf<{ same_tool: boolean; inputs_differ: boolean; results_differ: boolean }>(
        await call(session, META, { command: 'diff', from: '-2', to: '-1' }),
      );
      assert.equal(diff.same_tool, true);
      assert.equal(diff.inputs_differ, true);
      assert.equal(diff.results_differ, true);
      const missing = await call(session, META, { command: 'history', show: 'r9999' });
      assert.equal(dataOf<ToolFailure>(missing).code, 'RUN_NOT_FOUND');
    });

    it('resources: guide, catalogue, a percent-encoded tool manifest, history; an unknown slug is a protocol error', async () => {
      const { resources } = await session.client.listResources();
      for (const uri of ['nexusbloom://guide', 'nexusbloom://catalogue', 'nexusbloom://history'])
        assert.ok(
          resources.some((resource) => resource.uri === uri),
          uri,
        );

      const guide = (await session.client.readResource({ uri: 'nexusbloom://guide' })).contents[0]!;
      assert.equal(guide.mimeType, 'text/markdown');
      assert.match('text' in guide ? guide.text : '', /batch/);

      const catalogue = (await session.client.readResource({ uri: 'nexusbloom://catalogue' })).contents[0]!;
      const index = JSON.parse('text' in catalogue ? catalogue.text : '{}') as {
        count: number;
        tools: Array<{ slug: string; uri: string; input_schema?: unknown }>;
      };
      assert.equal(index.count, 31);
      assert.equal(index.tools.find((tool) => tool.slug === 'git/commit-lint')?.uri, 'nexusbloom://tools/git%2Fcommit-lint');
      assert.ok(
        index.tools.every((tool) => tool.input_schema === undefined),
        'the catalogue omits full schemas',
      );

      const manifest = (await session.client.readResource({ uri: 'nexusbloom://tools/git%2Fcommit-lint' })).contents[0]!;
      const document = JSON.parse('text' in manifest ? manifest.text : '{}') as {
        slug: string;
        input_schema: unknown;
        call: { tool: string; arguments: Record<string, unknown> };
      };
      assert.equal(document.slug, 'git/commit-lint');
      assert.deepEqual(document.input_schema, bySlug('git/commit-lint').input_schema);
      assert.equal(document.call.tool, META);
      const viaResource = await call(session, document.call.tool, document.call.arguments);
      assert.equal(viaResource.isError, undefined, textOf(viaResource));

      const history = (await session.client.readResource({ uri: 'nexusbloom://history' })).contents[0]!;
      assert.ok(Array.isArray((JSON.parse('text' in history ? history.text : '{}') as { runs?: unknown }).runs));

      await assert.rejects(session.client.readResource({ uri: 'nexusbloom://tools/env-validatr' }), (error: unknown) => {
        assert.ok(error instanceof McpError);
        assert.equal(error.code, -32602);
        assert.match(error.message, /env-validator/);
        assert.doesNotMatch(error.message, /MCP error -32602: MCP error/, 'the code prefix appears once');
        return true;
      });
    });

    it('prompts: four, each assembled from the live catalogue with calls that validate', async () => {
      const { prompts } = await session.client.listPrompts();
      assert.deepEqual(prompts.map((prompt) => prompt.name).sort(), ['find-tool', 'plan-batch', 'recover', 'use-tool']);
      const text = async (name: string, args: Record<string, string>): Promise<string> => {
        const message = (await session.client.getPrompt({ name, arguments: args })).messages[0]!;
        return message.content.type === 'text' ? message.content.text : '';
      };

      const find = await text('find-tool', { goal: 'validate env file' });
      assert.match(find, /env-validator/);
      assert.match(find, /nexusbloom:\/\/tools\/env-validator/);

      const calls: Array<{ name: string; arguments: Record<string, unknown> }> = [];
      const use = await text('use-tool', { slug: 'env-validator' });
      calls.push(jsonBlocks(use).at(-1) as (typeof calls)[number]);
      const plan = await text('plan-batch', { task: 'validate an env file and a yaml config' });
      const batchCall = jsonBlocks(plan).at(-1) as (typeof calls)[number];
      assert.equal(batchCall.arguments.command, 'batch');
      assert.ok((batchCall.arguments.runs as unknown[]).length >= 1);
      assert.match(plan, /10/);
      calls.push(batchCall);
      const recover = await text('recover', { error: 'VALIDATION_ERROR', slug: 'git/commit-lint' });
      assert.match(recover, /not retryable/);
      assert.match(recover, /message/);
      calls.push(jsonBlocks(recover).at(-1) as (typeof calls)[number]);
      for (const example of calls) {
        const result = await call(session, example.name, example.arguments);
        assert.equal(result.isError, undefined, `${JSON.stringify(example)} → ${textOf(result)}`);
      }

      // use-tool resolves slugs exactly: a prefix that a tool call would accept is refused here.
      await assert.rejects(session.client.getPrompt({ name: 'use-tool', arguments: { slug: 'env-valid' } }), McpError);
    });

    it('completes slug arguments of prompts and of the tool resource template', async () => {
      const prompt = await session.client.complete({
        ref: { type: 'ref/prompt', name: 'use-tool' },
        argument: { name: 'slug', value: 'js' },
      });
      assert.deepEqual(prompt.completion.values, ['json-formatter', 'json-schema-validator-lite']);
      const resource = await session.client.complete({
        ref: { type: 'ref/resource', uri: 'nexusbloom://tools/{slug}' },
        argument: { name: 'slug', value: 'git' },
      });
      assert.deepEqual(resource.completion.values, ['git/commit-lint']);
      const other = await session.client.complete({
        ref: { type: 'ref/prompt', name: 'find-tool' },
        argument: { name: 'goal', value: 'js' },
      });
      assert.deepEqual(other.completion.values, []);
    });
  });
