// Search, the room: ranks a server's tools for an agent's words. A server holds one ToolSearch over its tool list
// (tool-search), served from the package's `data/search-index.json` when it fits. Inside: the word lists
// (vocabulary), text analysis (analysis), the index file format and its builder (index-data), the index decoded for
// queries (scoring-index), ranking and hit shape (ranking), its weights (levers), and the meta-tool's answer (answer). The generator writes
// the index file and its WordNet word tables (src/pipeline/emit/search-index-file.ts); nothing here reads WordNet.
export { createToolSearch, DEFAULT_LIMIT, packageToolSearch, searchTools, type ToolSearch } from './tool-search.js';
export type { SearchHit } from './ranking.js';
export { GOOD_MATCH_COVERAGE, largestCategories, searchAnswer, type SearchAnswer } from './answer.js';
export {
  buildSearchIndex,
  buildSearchIndexWith,
  buildSearchIndexWithToolSurfaces,
  keptTable,
  parseSearchIndex,
  readSearchIndexFile,
  readSearchIndexFileSync,
  SEARCH_INDEX_FORMAT,
  searchIndexKey,
  searchIndexKeyOfTexts,
  type QueryTermTables,
  type QueryTermTablesOf,
  type SearchIndexData,
  type SearchTermData,
  type ToolFieldWords,
} from './index-data.js';
export { FIELDS, stem, term, words } from './analysis.js';
