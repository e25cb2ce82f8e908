// Meta-tool search latency in-process: the runtime's searchTools over a synthetic catalogue, index warm.

import type { ServedTool } from '../../src/runtime/contracts.js';
import { searchTools } from '../../src/runtime/search.js';
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
  /** Time of the first query, which builds the index. */
  firstQueryMs: number;
  medianMs: number;
  maxMs: number;
}

export function servedToolsOf(bundle: SyntheticBundle): ServedTool[] {
  return bundle.tools.map((manifest) => ({ slug: manifest.slug, manifest, identifier: operationIdOf(manifest.slug), withheldReason: null }));
}

export function measureSearch(bundle: SyntheticBundle, queries: number): SearchStat {
  const tools = servedToolsOf(bundle);
  const [first, ...rest] = SEARCH_QUERIES;
  let started = performance.now();
  searchTools(tools, first!, 10);
  const firstQueryMs = performance.now() - started;
  const times: number[] = [];
  for (let i = 0; i < queries; i += 1) {
    const query = rest[i % rest.length]!;
    started = performance.now();
    const hits = searchTools(tools, query, 10);
    times.push(performance.now() - started);
    if (hits.length === 0) throw new Error(`search for ${JSON.stringify(query)} found nothing in ${tools.length} tools`);
  }
  return { tools: tools.length, queries, firstQueryMs, medianMs: median(times), maxMs: Math.max(...times) };
}
