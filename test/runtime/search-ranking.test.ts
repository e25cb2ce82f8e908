// Search ranking is pinned: the indexed search gives exactly the recorded hits, built in memory, from prebuilt data,
// and from that data after a trip through its JSON file text; prebuilt data for another tool list is never used.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import type { Manifest, ServedTool } from '../../src/runtime/shared/contracts.js';
import {
  buildSearchIndex, createToolSearch, parseSearchIndex, readSearchIndexFile, SEARCH_INDEX_FORMAT, searchIndexKey, searchTools, term,
  type SearchIndexData,
} from '../../src/runtime/search/index.js';
import { packagedSearchIndex, searchIndexFileText } from '../../src/pipeline/emit/search-index-file.js';
import { RANKING_CATALOGUES, RANKING_FIXTURE_URL, RANKING_LIMIT, RANKING_QUERIES, recordedHits, type RankingFixture } from './search-ranking-cases.js';
import { MANIFESTS, servedTools } from './surface-fixtures.js';

const fixture = JSON.parse(readFileSync(RANKING_FIXTURE_URL, 'utf8')) as RankingFixture;

/**
 * How the index reaches the search: the generator's data (WordNet synonyms included) as built, and after a trip through
 * its JSON file text. The recorded hits are those a generated package gives.
 */
const MODES: [string, (tools: ServedTool[]) => SearchIndexData][] = [
  ['prebuilt', (tools) => packagedSearchIndex(tools)],
  ['prebuilt, through its JSON file text', (tools) => parseSearchIndex(JSON.parse(searchIndexFileText(tools))) ?? assert.fail('file text does not parse back')],
];

/** A served list whose index data did not come from the generator is searched with an index built in memory. */
const hasSynonymTable = (data: SearchIndexData): boolean => Object.keys(data.synonyms).length > 0;

describe('search ranking matches the recorded results', () => {
  it('covers every catalogue and query', () => {
    assert.deepEqual(Object.keys(fixture), RANKING_CATALOGUES.map((catalogue) => catalogue.name));
    for (const catalogue of RANKING_CATALOGUES) assert.deepEqual(Object.keys(fixture[catalogue.name] ?? {}), [...new Set(RANKING_QUERIES)]);
  });

  for (const catalogue of RANKING_CATALOGUES) {
    for (const [mode, prebuiltFor] of MODES) {
      it(`${catalogue.name}, index ${mode}`, () => {
        const tools = catalogue.tools();
        const prebuilt = prebuiltFor(tools);
        assert.ok(hasSynonymTable(prebuilt));
        const search = createToolSearch(() => tools, () => prebuilt);
        const recorded = fixture[catalogue.name] ?? {};
        for (const query of RANKING_QUERIES) {
          const want = recorded[query] ?? assert.fail(`no record for ${JSON.stringify(query)}`);
          assert.deepEqual(recordedHits(search.search(query, RANKING_LIMIT)), want, `query ${JSON.stringify(query)}`);
          for (const limit of [10, 3, 1]) {
            assert.deepEqual(recordedHits(search.search(query, limit)), want.slice(0, limit), `query ${JSON.stringify(query)}, limit ${limit}`);
          }
        }
      });
    }
  }
});

const manifestsWithout = (slug: string): Manifest[] => MANIFESTS.filter((manifest) => manifest.slug !== slug);

describe('prebuilt search index data', () => {
  it('is taken only for the exact tool list it was built from', () => {
    const data = buildSearchIndex(servedTools());
    assert.equal(data.format, SEARCH_INDEX_FORMAT);
    assert.equal(data.key, searchIndexKey(servedTools()));
    // A surface word only this data has: seeing it in a reason proves the data served the search.
    const marked: SearchIndexData = { ...data, terms: { ...data.terms } };
    const jsonTerm = 'json';
    marked.terms[jsonTerm] = { ...(marked.terms[jsonTerm] ?? assert.fail('no json term')), surface: 'PREBUILT' };
    const servedFrom = (tools: ServedTool[]): boolean => /PREBUILT/.test(searchTools(tools, 'jso', 1, marked)[0]?.reason ?? '');
    assert.equal(servedFrom(servedTools()), true);
    assert.equal(servedFrom(servedTools(manifestsWithout('json-formatter'))), false);
    const renamed = MANIFESTS.map((manifest) => (manifest.slug === 'jwt-decoder' ? { ...manifest, name: 'Token Inspector' } : manifest));
    assert.equal(servedFrom(servedTools(renamed)), false);
  });

  it('keeps its synonym table for a list changed at run time', () => {
    const data = packagedSearchIndex(servedTools());
    // A key that is its own term, so that searching for it looks it up as written.
    const key = Object.keys(data.synonyms).find((candidate) => !Object.hasOwn(data.terms, candidate) && term(candidate) === candidate) ??
      assert.fail('no synonym outside the vocabulary');
    const target = data.synonyms[key]?.[0] ?? assert.fail('empty synonym entry');
    const changed = servedTools(manifestsWithout('word-counter'));
    const hits = searchTools(changed, key, 5, data);
    assert.ok(hits.length > 0, `nothing found for ${key} (a synonym of ${target})`);
    assert.match(hits[0]?.reason ?? '', /\(as /);
  });

  it('is ignored for a catalogue changed at run time, whose own text is searched instead', () => {
    const stale = buildSearchIndex(servedTools());
    const refreshed = MANIFESTS.map((manifest) =>
      manifest.slug === 'word-counter' ? { ...manifest, description: `${manifest.description} Also finds palindromes.` } : manifest);
    const hits = searchTools(servedTools(refreshed), 'palindromes', 10, stale);
    assert.deepEqual(hits.map((hit) => hit.slug), ['word-counter']);
    assert.deepEqual(searchTools(servedTools(refreshed), 'palindromes', 10, stale), searchTools(servedTools(refreshed), 'palindromes', 10));
    assert.deepEqual(searchTools(servedTools(), 'palindromes', 10, stale), []);
  });

  it('serves a refreshed list with the same searchable text (e.g. only versions changed)', () => {
    const data = buildSearchIndex(servedTools());
    const bumped = servedTools(MANIFESTS.map((manifest) => ({ ...manifest, version: '9.9.9' })));
    assert.equal(data.key, searchIndexKey(bumped));
    assert.deepEqual(searchTools(bumped, 'validate env file', 10, data), searchTools(servedTools(), 'validate env file'));
  });

  it('has deterministic file text: sorted keys, final newline, same bytes for shuffled manifest keys, input untouched', () => {
    const tools = servedTools();
    const before = structuredClone(tools);
    const text = searchIndexFileText(tools);
    assert.deepEqual(tools, before);
    assert.equal(searchIndexFileText(servedTools()), text);
    const shuffled = MANIFESTS.map((manifest) => Object.fromEntries(Object.entries(manifest).reverse()) as Manifest);
    assert.equal(searchIndexFileText(servedTools(shuffled)), text);
    assert.ok(text.endsWith('}\n') && !text.endsWith('\n\n'));
    // One entry a line at the top two levels; the text order of keys is checked, since JSON.parse reorders "404"-like keys.
    assert.deepEqual([...text.matchAll(/^ "([^"]+)":/gm)].map((match) => match[1]), ['fields', 'format', 'key', 'lengths', 'related', 'synonyms', 'terms']);
    const termKeys = [...text.matchAll(/^ {2}("(?:[^"\\]|\\.)*"): \{"postings":\[[0-9,]+\],"surface":/gm)].map((match) => JSON.parse(match[1] as string) as string);
    assert.equal(termKeys.length, Object.keys(buildSearchIndex(tools).terms).length);
    assert.ok(termKeys.every((key, i) => i === 0 || (termKeys[i - 1] as string) < key));
    // The synonym table's keys, sorted; the definition-word table is not shipped (the ranking does not weigh it).
    const tableKeys = [...text.matchAll(/^ {2}("(?:[^"\\]|\\.)*"): \["/gm)].map((match) => JSON.parse(match[1] as string) as string);
    assert.deepEqual(packagedSearchIndex(tools).related, {});
    assert.ok(tableKeys.length > 0 && tableKeys.every((key, i) => i === 0 || (tableKeys[i - 1] as string) < key));
    assert.deepEqual(JSON.parse(text), JSON.parse(JSON.stringify(packagedSearchIndex(tools))));
  });

  it('rejects malformed data instead of serving from it', () => {
    const good = JSON.parse(searchIndexFileText(servedTools())) as SearchIndexData;
    assert.ok(parseSearchIndex(good));
    const broken: [string, (data: SearchIndexData) => unknown][] = [
      ['another format', (data) => ({ ...data, format: 'nexusbloom-search-index/1' })],
      ['fields reordered', (data) => ({ ...data, fields: [...data.fields].reverse() })],
      ['a short lengths row', (data) => ({ ...data, lengths: [[1, 2], ...data.lengths.slice(1)] })],
      ['a posting past the last tool', (data) => ({ ...data, terms: { ...data.terms, zzz: { surface: 'zzz', postings: [data.lengths.length, 0, 1] } } })],
      ['a synonym naming no term', (data) => ({ ...data, synonyms: { ...data.synonyms, zzz: ['not-a-term'] } })],
      ['a truncated posting', (data) => ({ ...data, terms: { ...data.terms, zzz: { surface: 'zzz', postings: [0, 0] } } })],
      ['postings out of order', (data) => ({ ...data, terms: { ...data.terms, zzz: { surface: 'zzz', postings: [1, 0, 1, 0, 0, 1] } } })],
      ['not an object', () => [good]],
    ];
    for (const [what, breakIt] of broken) assert.equal(parseSearchIndex(breakIt(structuredClone(good))), null, what);
  });
});

describe('readSearchIndexFile', () => {
  it('reads the file the generator writes, and gives null for a missing, non-JSON or foreign file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'search-index-'));
    try {
      const file = (name: string, text: string): URL => {
        writeFileSync(join(dir, name), text);
        return pathToFileURL(join(dir, name));
      };
      const tools = servedTools();
      const data = await readSearchIndexFile(file('search-index.json', searchIndexFileText(tools)));
      assert.deepEqual(data, packagedSearchIndex(tools));
      assert.equal(await readSearchIndexFile(pathToFileURL(join(dir, 'absent.json'))), null);
      assert.equal(await readSearchIndexFile(file('truncated.json', searchIndexFileText(tools).slice(0, 500))), null);
      assert.equal(await readSearchIndexFile(file('catalogue.json', JSON.stringify({ format: 'nexusbloom-served-catalogue/1', tools: [] }))), null);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('search over words that are also Object.prototype keys', () => {
  it('indexes and finds "constructor" like any other word', () => {
    const classTool: Manifest = { slug: 'class-writer', name: 'Class Writer', description: 'Writes a class with a constructor.', category: 'code', tags: [], version: '1.0.0', input_schema: null };
    const tools = servedTools([...MANIFESTS, classTool]);
    assert.equal(searchTools(tools, 'constructor')[0]?.slug, 'class-writer');
    assert.equal(searchTools(tools, 'class generator')[0]?.slug, 'class-writer');
  });
});
