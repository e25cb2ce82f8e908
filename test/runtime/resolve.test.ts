import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { closestSlugs, resolveSlug } from '../../src/runtime/catalogue/resolve.js';
import { toolList } from '../../src/runtime/catalogue/slug-index.js';
import { servedTools } from './surface-fixtures.js';

const tools = toolList(servedTools());

describe('resolveSlug', () => {
  const resolved: [string, string][] = [
    ['env-validator', 'env-validator'],
    ['Env Validator', 'Env Validator'],
    ['jwt', 'jwt-decoder'],
    ['json/', 'json/format'],
    ['k8s', 'k8s-manifest-validator'],
  ];
  for (const [wanted, slug] of resolved)
    it(`${wanted} → ${slug}`, () => {
      const resolution = resolveSlug(tools, wanted);
      assert.ok(resolution.ok, JSON.stringify(resolution));
      assert.equal(resolution.tool.slug, slug);
    });

  it('reports an unknown slug with the closest matches and never runs a guess', () => {
    const resolution = resolveSlug(tools, 'env-validatr');
    assert.ok(!resolution.ok);
    assert.equal(resolution.failure.code, 'TOOL_NOT_FOUND');
    assert.equal(resolution.failure.retryable, false);
    assert.ok(
      resolution.failure.error.startsWith('No tool named "env-validatr" is published. Closest matches: env-validator'),
      resolution.failure.error,
    );
    assert.match(resolution.failure.error, /\{"command":"search"/);
    assert.equal((resolution.failure.details?.closest as string[])[0], 'env-validator');
  });

  it('says a slug is not in the catalogue, not that it is unpublished, while the list is pinned', () => {
    const resolution = resolveSlug(tools, 'env-validatr', { metaToolName: 'acme', pinnedCatalogueVar: 'ACME_MCP_CATALOGUE' });
    assert.ok(!resolution.ok);
    assert.equal(resolution.failure.code, 'TOOL_NOT_FOUND');
    assert.match(
      resolution.failure.error,
      /^No tool named "env-validatr" is in this server's catalogue \(the tool list pinned when this package was built; .*ACME_MCP_CATALOGUE=live\)\. Closest matches: env-validator[.,]/,
    );
    assert.doesNotMatch(resolution.failure.error, /is published/);
  });

  it('reports an ambiguous prefix with every candidate', () => {
    const resolution = resolveSlug(tools, 'json');
    assert.ok(!resolution.ok);
    assert.equal(resolution.failure.code, 'AMBIGUOUS_SLUG');
    assert.deepEqual(resolution.failure.details?.candidates, ['json-formatter', 'json-schema-validator', 'json/format']);
    assert.match(resolution.failure.error, /json-formatter, json-schema-validator, json\/format/);
  });

  it('accepts only the exact slug in exact-only mode', () => {
    assert.ok(resolveSlug(tools, 'env-validator', { exactOnly: true }).ok);
    const prefix = resolveSlug(tools, 'jwt', { exactOnly: true });
    assert.ok(!prefix.ok);
    assert.equal(prefix.failure.code, 'TOOL_NOT_FOUND');
    assert.match(prefix.failure.error, /jwt-decoder/);
    assert.match(prefix.failure.error, /Only an exact slug/);
  });

  it('treats case as significant (slugs differing by case are distinct tools)', () => {
    const resolution = resolveSlug(tools, 'ENV-VALIDATOR');
    assert.ok(!resolution.ok);
    assert.equal(resolution.failure.code, 'TOOL_NOT_FOUND');
    assert.match(resolution.failure.error, /env-validator/);
  });

  it('suggests tools by intent when a slug is written as prose', () => {
    const resolution = resolveSlug(tools, 'validate my env file');
    assert.ok(!resolution.ok);
    assert.equal((resolution.failure.details?.closest as string[])[0], 'env-validator');
  });

  it('rejects an empty slug', () => assert.equal(resolveSlug(tools, '').ok, false));
});

describe('closestSlugs', () => {
  const table: [string, string][] = [
    ['env-validatr', 'env-validator'],
    ['jwt-decode', 'jwt-decoder'],
    ['hashgenerator', 'hash-generator'],
    ['dockerfile', 'dockerfile-linter'],
    ['csv2json', 'csv-to-json'],
  ];
  for (const [wanted, first] of table) it(`${wanted} → ${first}`, () => assert.equal(closestSlugs(tools.tools, wanted)[0], first));
  it('returns at most three and nothing for a far-off name', () => {
    assert.ok(closestSlugs(tools.tools, 'generator').length <= 3);
    assert.deepEqual(closestSlugs(tools.tools, 'qqqqqqqqqqqqqqqqqq'), []);
  });
});
