// The package's `data/search-index.json`: the runtime's index data for the served tools, with the WordNet synonym
// table for their words, laid out one tool a line (src/runtime/search/index-file.ts) so that diffs stay per tool.
import type { ServedTool } from '../../runtime/shared/contracts.js';
import { defaultSurface, SEARCH_INDEX_FILE_FORMAT, SEARCH_INDEX_TABLES } from '../../runtime/search/index-file.js';
import {
  buildSearchIndexWith,
  buildSearchIndexWithToolSurfaces,
  FIELDS,
  SEARCH_INDEX_FORMAT,
  type QueryTermTablesOf,
  type SearchIndexData,
  type SearchTermData,
  type ToolFieldWords,
} from '../../runtime/search/index.js';
import { readWordNet, wordNetRelated, wordNetSynonyms } from './wordnet-synonyms.js';
import { byCodeUnit } from '../../runtime/shared/order.js';
import { joinedText } from './text.js';

/** The fields whose words the synonym table is restricted to: what a tool is and says, not its input fields. */
const VOCABULARY_FIELDS = (['slug', 'name', 'lead', 'tags', 'description'] as const).map((field) => FIELDS.indexOf(field));

/** The words of every tool's searchable text, as the index split them: what the synonym table is restricted to. */
function catalogueWords(toolWords: readonly ToolFieldWords[]): string[] {
  const found = new Set<string>();
  for (const fields of toolWords) for (const field of VOCABULARY_FIELDS) for (const word of fields[field] ?? []) found.add(word);
  return [...found].sort(byCodeUnit);
}

/** What the search bench may switch: WordNet's derived forms (on unless false), definition words (off unless true). */
export interface PackagingOptions {
  derivations?: boolean;
  related?: boolean;
}

/**
 * The query-term tables the generator ships (index-file's SEARCH_INDEX_TABLES), made from the words the index split.
 * WordNet is read for these tables alone and let go with them: it is no part of what emit keeps.
 */
const packagedTables =
  (options: PackagingOptions = {}): QueryTermTablesOf =>
  (toolWords) => {
    const vocabulary = catalogueWords(toolWords);
    const wordNet = readWordNet();
    return {
      synonyms: wordNetSynonyms(wordNet, vocabulary, options),
      related: options.related === true ? wordNetRelated(wordNet, vocabulary) : {},
    };
  };

/** Index data as the generator ships it: the runtime's index plus the WordNet synonyms of the catalogue's words (their definition words only when asked, for the search bench). */
export function packagedSearchIndex(tools: readonly ServedTool[], options: PackagingOptions = {}): SearchIndexData {
  return buildSearchIndexWith(tools, packagedTables(options));
}

/** Each tool's line (index-file's SearchIndexFileTool), sliced out of the index of all tools in one pass over its postings. */
function toolLines(tools: readonly ServedTool[], data: SearchIndexData, toolSurfaces: readonly Map<string, string>[]): string[] {
  const names = tools.map((): string[] => []);
  const surfaces = tools.map((): string[] => []);
  const spans = tools.map((): number[] => []);
  const pairs = tools.map((): number[] => []);
  // The data's term order, as each tool's own index would list its terms.
  for (const indexed of Object.keys(data.terms)) {
    const { surface, postings } = data.terms[indexed] as SearchTermData;
    const shortSurface = defaultSurface(indexed);
    for (let i = 0; i < postings.length;) {
      const tool = postings[i] as number;
      const toolPairs = pairs[tool] as number[];
      const start = i;
      for (; i < postings.length && postings[i] === tool; i += 3)
        toolPairs.push((postings[i + 2] as number) * FIELDS.length + (postings[i + 1] as number));
      const own = (toolSurfaces[tool] as Map<string, string>).get(indexed) ?? surface;
      (names[tool] as string[]).push(indexed);
      (surfaces[tool] as string[]).push(own === shortSurface ? '' : own);
      (spans[tool] as number[]).push((i - start) / 3);
    }
  }
  return tools.map(
    (tool, i) =>
      `{"slug":${JSON.stringify(tool.slug)},"lengths":${JSON.stringify(data.lengths[i])},"terms":${JSON.stringify(names[i])},"surfaces":${JSON.stringify(surfaces[i])},"spans":${JSON.stringify(spans[i])},"pairs":${JSON.stringify(pairs[i])}}`,
  );
}

/**
 * The text of a package's `data/search-index.json` for its tool list: a header line, then one line a tool in list
 * order; deterministic, no dates, LF, final newline. Read back by parseSearchIndex into packagedSearchIndex's data.
 */
export function searchIndexFileText(tools: readonly ServedTool[]): string {
  const { data, toolSurfaces } = buildSearchIndexWithToolSurfaces(tools, packagedTables());
  const header = `{"format":${JSON.stringify(SEARCH_INDEX_FILE_FORMAT)},"index":${JSON.stringify(SEARCH_INDEX_FORMAT)},"key":${JSON.stringify(data.key)},"fields":${JSON.stringify(FIELDS)},"tools":[`;
  const lines = toolLines(tools, data, toolSurfaces);
  // Each table after the tools, one query term a line: a tool's new word adds or changes only the lines naming it.
  const tableTexts = SEARCH_INDEX_TABLES.map((name) => {
    const table = data[name];
    const entries = Object.keys(table)
      .sort(byCodeUnit)
      .map((key) => `${JSON.stringify(key)}:${JSON.stringify(table[key])}`);
    return `,${JSON.stringify(name)}:{${entries.length ? `\n${entries.join(',\n')}\n` : ''}}`;
  });
  const tail = `]${tableTexts.join('')}}\n`;
  return lines.length ? joinedText(`${header}\n`, lines, ',\n', `\n${tail}`) : `${header}${tail}`;
}
