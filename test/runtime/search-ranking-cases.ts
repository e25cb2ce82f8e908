// The catalogues and queries whose search results are pinned in `search-ranking.fixture.json`, and how a result is recorded.
import { readFileSync } from 'node:fs';
import type { Manifest, ServedTool } from '../../src/runtime/shared/contracts.js';
import type { SearchHit } from '../../src/runtime/search/index.js';
import { syntheticCatalogue } from '../bench/catalogue.js';
import { SEARCH_QUERIES, servedToolsOf } from '../bench/search-latency.js';
import { HELD_OUT_MANIFESTS, HELD_OUT_QUERIES } from './search-heldout.js';
import { MANIFESTS, servedTools } from './surface-fixtures.js';

export const RANKING_FIXTURE_URL = new URL('./search-ranking.fixture.json', import.meta.url);

/** Intent phrasings (from search.test.ts), unseen-catalogue phrasings, the benchmark's queries, and edge cases. */
export const RANKING_QUERIES: readonly string[] = [
  'check my .env file has all keys',
  'make fake test data',
  'decode a jwt',
  'pretty print json',
  'convert yml to json',
  'encode text as base64',
  'sha256 checksum of a string',
  'generate a unique identifier',
  'test a regular expression',
  'when will this cron schedule run next',
  'create a strong password',
  'split a url into its parts',
  'convert unix epoch to a date',
  'render markdown as html',
  'turn a spreadsheet csv into json',
  'compare two texts',
  'hex to rgb colour',
  'format my sql query',
  'validate json against a schema',
  'find outdated npm dependencies',
  'lint my dockerfile',
  'how many words are in this essay',
  'shrink html',
  'placeholder paragraphs',
  'typescript interfaces from json',
  'find leaked api keys in my code',
  'where is this ip address located',
  'what does http status 418 mean',
  'check kubernetes manifests',
  'validating environment configuration',
  'create a gitignore for node',
  'validate env file',
  'legacy env checker',
  'env_content',
  'json',
  ...HELD_OUT_QUERIES.map(([query]) => query),
  ...SEARCH_QUERIES,
  // Edge cases: prefixes only, stop words only, camelCase, punctuation, repeated and unknown words, upper case.
  'val',
  'con',
  'how to do it with all of them',
  'envContent',
  'JSON-to-YAML!!',
  'json json json',
  'zzqx qqqv wwkj',
  '',
  'time zone dot env',
  'Regular Expressions',
  'e mail look up',
];

/** Recorded depth: order below the first page is pinned too; a smaller limit must give a prefix of these hits. */
export const RANKING_LIMIT = 40;

export interface RankingCatalogue {
  name: string;
  tools: () => ServedTool[];
}

function exampleManifests(): Manifest[] {
  const text = readFileSync(new URL('../../examples/catalogue.json', import.meta.url), 'utf8');
  return (JSON.parse(text) as { tools: Manifest[] }).tools;
}

export const RANKING_CATALOGUES: readonly RankingCatalogue[] = [
  { name: 'examples/catalogue.json', tools: () => servedTools(exampleManifests()) },
  { name: 'surface fixtures', tools: () => servedTools(MANIFESTS) },
  { name: 'held-out fixtures', tools: () => servedTools(HELD_OUT_MANIFESTS) },
  { name: 'surface and held-out fixtures', tools: () => servedTools([...MANIFESTS, ...HELD_OUT_MANIFESTS]) },
  { name: 'synthetic 3000', tools: () => servedToolsOf(syntheticCatalogue(3000)) },
];

/** What ranking means here: which tools, in which order, with which score and explanation. */
export type RecordedHit = [slug: string, score: number, reason: string];

export const recordedHits = (hits: readonly SearchHit[]): RecordedHit[] => hits.map((hit) => [hit.slug, hit.score, hit.reason]);

/** Fixture layout: catalogue name → query → its first RANKING_LIMIT hits. */
export type RankingFixture = Record<string, Record<string, RecordedHit[]>>;
