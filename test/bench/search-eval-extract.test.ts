// The search evaluation fixtures keep of each converted tool only what search reads (searchedPart): held to the whole
// tool on the committed sample of real API descriptions, search must read the same texts, scopes and annotations from
// both, and rank the same.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { readSource } from '../../src/pipeline/source/read-source.js';
import { requiredScopes, searchableTexts } from '../../src/runtime/search/analysis.js';
import { buildSearchIndex } from '../../src/runtime/search/index.js';
import { createToolSearch } from '../../src/runtime/search/tool-search.js';
import type { Manifest, ServedTool } from '../../src/runtime/shared/contracts.js';
import { searchedPart } from './search-eval-extract.js';
import { servedToolsOfBundle } from './search-quality.js';

const CORPUS = fileURLToPath(new URL('../fixtures/openapi-corpus/', import.meta.url));
const SPECS = readdirSync(CORPUS).filter((name) => name.endsWith('.json') && name !== 'index.json');

/** Everything of a tool that search reads, as search reads it. */
const searchedOf = (tool: ServedTool) => ({
  texts: searchableTexts(tool),
  scopes: requiredScopes(tool),
  category: tool.manifest.category,
  annotations: tool.manifest.annotations,
  deprecated: tool.manifest.deprecated,
});

const ranked = (tools: ServedTool[], query: string) =>
  createToolSearch(
    () => tools,
    () => buildSearchIndex(tools),
  )
    .search(query, 5)
    .map((hit) => [hit.slug, hit.score, hit.purpose, hit.reason]);

describe('search evaluation fixtures', () => {
  let compared = 0;

  for (const spec of SPECS) {
    it(`${spec}: search reads the same of each tool's searched part as of the tool`, async () => {
      const { document } = await readSource(`${CORPUS}${spec}`);
      const whole = servedToolsOfBundle((document as { tools: Manifest[] }).tools);
      const parts = servedToolsOfBundle(whole.map((tool) => searchedPart(tool.manifest)));
      compared += whole.length;
      whole.forEach((tool, i) => assert.deepEqual(searchedOf(parts[i] as ServedTool), searchedOf(tool), tool.slug));
      // Words of the first tool's name and of the last one's description, as queries.
      for (const query of [String(whole[0]?.manifest.name), String(whole.at(-1)?.manifest.description).slice(0, 60)])
        assert.deepEqual(ranked(parts, query), ranked(whole, query), query);
    });
  }

  it('a schema nested deeper than search reads keeps every field search reads', () => {
    const level = (depth: number): Record<string, unknown> => ({
      type: 'object',
      description: `level ${depth}`,
      properties: { [`field${depth}`]: depth === 0 ? { type: 'string', description: 'leaf' } : level(depth - 1) },
      ...(depth % 2 === 0 ? {} : { items: level(0) }),
    });
    const manifest = { slug: 'deep', name: 'Deep', description: 'Deep.', category: '', tags: [], version: '1', input_schema: level(6) };
    const [tool] = servedToolsOfBundle([manifest as unknown as Manifest]);
    const [part] = servedToolsOfBundle([searchedPart(manifest as unknown as Manifest)]);
    assert.deepEqual(searchedOf(part as ServedTool), searchedOf(tool as ServedTool));
  });

  // One description of the sample has webhooks and no operations: what counts is that the sample as a whole converts.
  it('the sample converts to hundreds of tools, all compared', () => assert.ok(compared >= 300, `${compared} tools`));
});
