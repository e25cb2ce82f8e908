// The search a server holds for its tool list: the index decoded once per list, from the package's prebuilt data when
// that data was built from exactly this list, else built in memory (keeping the prebuilt synonym tables).
import type { ServedTool } from '../shared/contracts.js';
import { buildSearchIndex, readSearchIndexFileSync, searchIndexKey, type SearchIndexData } from './index-data.js';
import { rankTools, type SearchHit } from './ranking.js';
import { decodeSearchIndex, type SearchIndex } from './scoring-index.js';
import { SHIPPED_LEVERS, type RankingLevers } from './levers.js';

export interface ToolSearch {
  /** The current tools ranked for a query, best first, at most `limit`. */
  search(query: string, limit?: number): SearchHit[];
}

export const DEFAULT_LIMIT = 10;

/**
 * Search over `getTools()`, which may return a new list at any time (a live refresh): the index follows the list it
 * was last built for. `loadPrebuilt` is read on the first search only, so a server never asked to search never pays.
 * `levers` are the ranking's weights: a server keeps the shipped ones; the search bench measures others.
 */
export function createToolSearch(
  getTools: () => readonly ServedTool[],
  loadPrebuilt?: () => SearchIndexData | null,
  levers: RankingLevers = SHIPPED_LEVERS,
): ToolSearch {
  let prebuilt: SearchIndexData | null | undefined;
  let indexedTools: readonly ServedTool[] | undefined;
  let index: SearchIndex | undefined;
  const indexFor = (tools: readonly ServedTool[]): SearchIndex => {
    if (index !== undefined && indexedTools === tools) return index;
    if (prebuilt === undefined) prebuilt = loadPrebuilt?.() ?? null;
    const data =
      prebuilt !== null && prebuilt.lengths.length === tools.length && prebuilt.key === searchIndexKey(tools)
        ? prebuilt
        : buildSearchIndex(tools, prebuilt?.synonyms, prebuilt?.related);
    indexedTools = tools;
    index = decodeSearchIndex(data, tools, levers);
    return index;
  };
  return {
    search(query, limit = DEFAULT_LIMIT) {
      const tools = getTools();
      return rankTools(tools, indexFor(tools), query, limit, levers);
    },
  };
}

/**
 * One search over `tools`, with the index built for it (or decoded from `prebuilt` when that data is for exactly
 * these tools). For a single question; a server keeps a ToolSearch, which indexes each list once.
 */
export function searchTools(tools: readonly ServedTool[], query: string, limit = DEFAULT_LIMIT, prebuilt?: SearchIndexData): SearchHit[] {
  return createToolSearch(() => tools, prebuilt ? () => prebuilt : undefined).search(query, limit);
}

/** A server's search: over its tool list, served from the package's `data/search-index.json` when there is one. */
export function packageToolSearch(getTools: () => readonly ServedTool[], searchIndexUrl: string | undefined): ToolSearch {
  return createToolSearch(getTools, searchIndexUrl === undefined ? undefined : () => readSearchIndexFileSync(new URL(searchIndexUrl)));
}
