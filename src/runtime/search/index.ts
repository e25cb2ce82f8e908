// Search, the room: ranks a server's tools for an agent's words. A server holds one ToolSearch over its tool list;
// the package's prebuilt index data (made by the generator) is read through readSearchIndexFileSync.
export { createToolSearch, DEFAULT_LIMIT, packageToolSearch, searchTools, type ToolSearch } from './tool-search.js';
export type { SearchHit } from './ranking.js';
export { GOOD_MATCH_COVERAGE, largestCategories, searchAnswer, type SearchAnswer } from './answer.js';
export {
  buildSearchIndex, parseSearchIndex, readSearchIndexFile, readSearchIndexFileSync, SEARCH_INDEX_FORMAT, searchIndexKey,
  type SearchIndexData, type SearchTermData,
} from './index-data.js';
export { FIELDS, stem, term, words } from './analysis.js';
