// Meta-tool search latency in-process: the runtime's searchTools over a synthetic catalogue, index warm; also the cost
// of building the index in memory and of loading the prebuilt `data/search-index.json` a generated server ships.

import type { ServedTool } from '../../src/runtime/shared/contracts.js';
import { searchIndexFileText } from '../../src/pipeline/emit/search-index-file.js';
import { createToolSearch, parseSearchIndex, searchTools } from '../../src/runtime/search/index.js';
import type { SyntheticBundle } from './catalogue.js';
import { operationIdOf } from './openapi.js';
import { median } from './measure.js';

/** What an agent types: intents, keywords, and a few misspellings and synonyms. */
export const SEARCH_QUERIES: readonly string[] = [
  'validate a json document',
  'convert csv to json',
  'check my email addresses are valid',
  'parse cron expression',
  'generate uuid',
  'format yaml config file',
  'compare two semver versions',
  'extract links from markdown',
  'decode base64 token',
  'lookup dns record for a host',
  'summarize log errors',
  'normalize customer address',
  'currency conversion with money amounts',
  'score password strength',
  'merge changelog entries',
  'split an invoice into line items',
  'resolve timezone offset',
  'export metrics report',
  'validate webhook signature',
  'analyze image barcode',
  'encode url query string',
];

export interface SearchStat {
  tools: number;
  queries: number;
  /** Time of the first query with no prebuilt index, which builds the index in memory. */
  firstQueryMs: number;
  /** Reading the prebuilt index: JSON.parse of the file text, the shape check and the key check against the tools. */
  indexLoadMs: number;
  /** Time of the first query after loading the prebuilt index. */
  firstQueryPrebuiltMs: number;
  indexFileBytes: number;
  /** Over `queries` warm queries. */
  medianMs: number;
  maxMs: number;
}

export function servedToolsOf(bundle: SyntheticBundle): ServedTool[] {
  return bundle.tools.map((manifest) => ({
    slug: manifest.slug,
    manifest,
    identifier: operationIdOf(manifest.slug),
    withheldReason: null,
  }));
}

const timed = <T>(run: () => T): [T, number] => {
  const started = performance.now();
  const result = run();
  return [result, performance.now() - started];
};

export function measureSearch(bundle: SyntheticBundle, queries: number): SearchStat {
  const [first, ...rest] = SEARCH_QUERIES;
  const [, firstQueryMs] = timed(() => searchTools(servedToolsOf(bundle), first!, 10));

  // What a generated server does: the generator wrote the file text, the server loads it for its own tool list.
  const indexFileText = searchIndexFileText(servedToolsOf(bundle));
  const tools = servedToolsOf(bundle);
  const [loaded, indexLoadMs] = timed(() => parseSearchIndex(JSON.parse(indexFileText)));
  if (loaded === null) throw new Error('the prebuilt search index does not parse back');
  const search = createToolSearch(
    () => tools,
    () => loaded,
  );
  // Decoding the data and checking its key against the tools happen on the first query.
  const [, firstQueryPrebuiltMs] = timed(() => search.search(first!, 10));

  const times: number[] = [];
  for (let i = 0; i < queries; i += 1) {
    const query = rest[i % rest.length]!;
    const [hits, ms] = timed(() => search.search(query, 10));
    times.push(ms);
    if (hits.length === 0) throw new Error(`search for ${JSON.stringify(query)} found nothing in ${tools.length} tools`);
  }
  return {
    tools: tools.length,
    queries,
    firstQueryMs,
    indexLoadMs,
    firstQueryPrebuiltMs,
    indexFileBytes: Buffer.byteLength(indexFileText),
    medianMs: median(times),
    maxMs: Math.max(...times),
  };
}
