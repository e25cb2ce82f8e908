import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { ProtocolError } from '../../src/runtime/shared/contracts.js';
import type { Manifest } from '../../src/runtime/shared/contracts.js';
import { callExtra, harness, MANIFESTS, servedTools, STARTED_AT } from './surface-fixtures.js';

const textOf = (result: { contents: unknown[] }): string => (result.contents[0] as { text: string }).text;
const jsonOf = (result: { contents: unknown[] }): Record<string, any> => JSON.parse(textOf(result));

/** The fixture catalogue plus a withheld slug holding both a space and a slash. */
function withOddSlug() {
  const odd: Manifest = {
    slug: 'team tools/lint config',
    name: 'Team Lint Config',
    description: 'Checks a lint config.',
    category: 'lint',
    tags: [],
    version: '1.0.0',
    input_schema: { type: 'object', properties: { config: { type: 'string', description: 'The config.' } }, required: ['config'] },
    source: { runtime: 'node', code: 'exports.run = () => 1' },
  };
  return harness({ tools: servedTools([...MANIFESTS, odd]) });
}

describe('resource listing', () => {
  it('lists guide, catalogue, history and one resource per tool with encoded URIs', () => {
    const h = withOddSlug();
    const uris = h.surface.listResources().resources.map((resource) => resource.uri);
    assert.deepEqual(uris.slice(0, 3), ['nexusbloom://guide', 'nexusbloom://catalogue', 'nexusbloom://history']);
    assert.equal(uris.length, 3 + h.tools.length);
    assert.ok(uris.includes('nexusbloom://tools/team%20tools%2Flint%20config'));
    assert.ok(uris.includes('nexusbloom://tools/Env%20Validator'));
  });
  it('offers the per-tool template', () => {
    const { surface } = harness();
    assert.deepEqual(
      surface.listResourceTemplates().resourceTemplates.map((template) => template.uriTemplate),
      ['nexusbloom://tools/{slug}'],
    );
  });
});

describe('reading resources', () => {
  it('guide is markdown with commands, limits and the error code table', () => {
    const result = harness().surface.readResource('nexusbloom://guide');
    assert.equal((result.contents[0] as { mimeType: string }).mimeType, 'text/markdown');
    const guide = textOf(result);
    for (const needle of [
      '{"command":"batch"',
      'at most 10 runs',
      'last 50 runs',
      '8,000 characters',
      '| TOOL_NOT_FOUND | no |',
      '| RATE_LIMITED | yes |',
    ]) {
      assert.ok(guide.includes(needle), needle);
    }
  });

  it('catalogue lists every tool without schemas, with counts, withheld flags and manifest URIs', () => {
    const h = withOddSlug();
    const catalogue = jsonOf(h.surface.readResource('nexusbloom://catalogue'));
    assert.equal(catalogue.tools.length, h.tools.length);
    const odd = catalogue.tools.find((tool: { slug: string }) => tool.slug === 'team tools/lint config');
    assert.deepEqual(odd.parameters, { required: 1, total: 1 });
    assert.equal(odd.withheld, true);
    assert.equal(typeof odd.withheld_reason, 'string');
    assert.equal(odd.has_schema, true);
    assert.equal(odd.uri, 'nexusbloom://tools/team%20tools%2Flint%20config');
    assert.doesNotMatch(JSON.stringify(catalogue), /input_schema|"properties"/);
    assert.equal(catalogue.tools.find((tool: { slug: string }) => tool.slug === 'server-time').has_schema, false);
  });

  it('a withheld slug with a space and a slash reads through its encoded URI, without source, with a meta-tool call', () => {
    const h = withOddSlug();
    const result = h.surface.readResource('nexusbloom://tools/team%20tools%2Flint%20config');
    assert.equal((result.contents[0] as { uri: string }).uri, 'nexusbloom://tools/team%20tools%2Flint%20config');
    const manifest = jsonOf(result);
    assert.equal(manifest.slug, 'team tools/lint config');
    assert.equal(manifest.source, undefined);
    assert.deepEqual(manifest.input_schema.required, ['config']);
    assert.deepEqual(manifest.call, {
      tool: 'nexusbloom',
      arguments: { command: 'run', slug: 'team tools/lint config', params: { config: 'example' } },
    });
    assert.equal(manifest.call_valid, true);
  });

  it('an advertised tool reads with a direct call that validates', () => {
    const h = harness();
    const manifest = jsonOf(h.surface.readResource('nexusbloom://tools/env-validator'));
    assert.equal(manifest.call.tool, 'env-validator');
    const tool = h.tools.find((candidate) => candidate.slug === 'env-validator');
    assert.ok(tool);
    assert.equal(h.ctx.validator.validateInput(tool, manifest.call.arguments), null);
    assert.deepEqual(manifest.output_schema, tool.manifest.output_schema);
  });

  it('resolves an unambiguous prefix to the canonical URI', () => {
    const result = harness().surface.readResource('nexusbloom://tools/jwt');
    assert.equal((result.contents[0] as { uri: string }).uri, 'nexusbloom://tools/jwt-decoder');
  });

  const errors: [string, string, RegExp][] = [
    ['unknown slug', 'nexusbloom://tools/env-validatr', /Closest matches: env-validator/],
    ['ambiguous prefix', 'nexusbloom://tools/json', /json-formatter, json-schema-validator, json\/format/],
    ['bad encoding', 'nexusbloom://tools/%E0%A4%A', /malformed percent-encoding/],
    ['unknown resource', 'nexusbloom://nothing', /Unknown resource/],
    ['other scheme', 'file:///etc/passwd', /Unknown resource/],
  ];
  for (const [name, uri, message] of errors) {
    it(`${name} is a protocol error (InvalidParams)`, () => {
      assert.throws(
        () => harness().surface.readResource(uri),
        (error: unknown) => error instanceof ProtocolError && error.code === ErrorCode.InvalidParams && message.test(error.message),
      );
    });
  }

  it('history reads as the index with scope and start time', async () => {
    const h = harness();
    await h.surface.callTool('ip-info', { ip: '192.0.2.1', api_token: 'secret-value' }, callExtra());
    const history = jsonOf(h.surface.readResource('nexusbloom://history'));
    assert.equal(history.process_started_at, STARTED_AT.toISOString());
    assert.match(history.note, /scoped to this server process/);
    assert.deepEqual(
      history.runs.map((run: { id: string; slug: string }) => [run.id, run.slug]),
      [['r1', 'ip-info']],
    );
    assert.doesNotMatch(JSON.stringify(history), /secret-value/);
  });
});

describe('completion', () => {
  const ref = { type: 'ref/resource', uri: 'nexusbloom://tools/{slug}' };
  it('completes slugs by prefix, code-unit sorted', () => {
    const h = withOddSlug();
    assert.deepEqual(h.surface.complete(ref, { name: 'slug', value: 'json' }), {
      values: ['json-formatter', 'json-schema-validator', 'json/format'],
      total: 3,
      hasMore: false,
    });
    assert.deepEqual(h.surface.complete(ref, { name: 'slug', value: 'team ' }).values, ['team tools/lint config']);
    const all = h.surface.complete(ref, { name: 'slug', value: '' });
    assert.equal(all.values[0], 'Env Validator');
    assert.equal(all.total, h.tools.length);
  });
  it('ranks slugs by the words typed when no slug starts with them, as search ranks them', () => {
    const h = harness();
    const typed = 'validate env file';
    const values = h.surface.complete(ref, { name: 'slug', value: typed }).values;
    assert.equal(values[0], 'env-validator');
    assert.deepEqual(
      values,
      h.ctx.search.search(typed, 100).map((hit) => hit.slug),
    );
    assert.deepEqual(h.surface.complete({ type: 'ref/prompt', name: 'use-tool' }, { name: 'slug', value: typed }).values, values);
    assert.deepEqual(h.surface.complete(ref, { name: 'slug', value: 'zzqx' }).values, []);
  });
  it('caps at 100 values and says there are more', () => {
    const many = servedTools(
      Array.from({ length: 130 }, (_unused, index) => ({
        slug: `tool-${String(index).padStart(3, '0')}`,
        name: 'T',
        description: 'd',
        category: 'c',
        tags: [],
        version: '1',
        input_schema: null,
      })),
    );
    const result = harness({ tools: many }).surface.complete(ref, { name: 'slug', value: 'tool-' });
    assert.equal(result.values.length, 100);
    assert.equal(result.total, 130);
    assert.equal(result.hasMore, true);
    assert.equal(result.values[99], 'tool-099');
  });
  it('completes prompt slug arguments and nothing else', () => {
    const { surface } = harness();
    assert.deepEqual(surface.complete({ type: 'ref/prompt', name: 'use-tool' }, { name: 'slug', value: 'jwt' }).values, ['jwt-decoder']);
    assert.deepEqual(surface.complete({ type: 'ref/prompt', name: 'recover' }, { name: 'slug', value: 'jwt' }).values, ['jwt-decoder']);
    assert.deepEqual(surface.complete({ type: 'ref/prompt', name: 'find-tool' }, { name: 'goal', value: 'j' }).values, []);
    assert.deepEqual(surface.complete({ type: 'ref/prompt', name: 'recover' }, { name: 'error', value: 'val' }).values, [
      'VALIDATION_ERROR',
    ]);
    const codes = surface.complete({ type: 'ref/prompt', name: 'recover' }, { name: 'error', value: '' }).values;
    assert.ok(codes.includes('TOOL_NOT_FOUND') && codes.includes('RATE_LIMITED'), codes.join(' '));
    assert.deepEqual(surface.complete({ type: 'ref/resource', uri: 'nexusbloom://guide' }, { name: 'slug', value: 'j' }).values, []);
  });
});
