// The package's `data/search-index.json`: the runtime's index data for the served tools, with the WordNet synonym
// table for their words, laid out one tool a line (src/runtime/search/index-file.ts) so that diffs stay per tool. A
// tool's line is a function of that tool alone (SEARCH_PARTS_JOB, remembered by the build cache): a rebuild analyses
// only the tools that changed, and joins every line with the header and the table made for all their words.
import type { ServedTool } from '../../runtime/shared/contracts.js';
import { defaultSurface, SEARCH_INDEX_FILE_FORMAT, SEARCH_INDEX_TABLES } from '../../runtime/search/index-file.js';
import {
  buildSearchIndexWith,
  buildSearchIndexWithToolSurfaces,
  keptTable,
  SEARCH_INDEX_FORMAT,
  searchIndexKeyOfTexts,
  type QueryTermTables,
  type QueryTermTablesOf,
  type SearchIndexData,
  type SearchTermData,
  type ToolFieldWords,
} from '../../runtime/search/index-data.js';
import { readWordNet, wordNetRelated, wordNetSynonyms, type WordNet } from './wordnet-synonyms.js';
import { byCodeUnit } from '../../runtime/shared/order.js';
import { lazyJoinedText, wholeText, type PackageText } from './package-text.js';
import { contentKey, fieldsKeyParts } from '../cache/build-cache.js';
import type { ToolJob, Work } from '../parallel/work.js';
import { FIELDS, searchableTexts } from '../../runtime/search/analysis.js';

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
 * The query-term tables the generator ships (index-file's SEARCH_INDEX_TABLES) for the catalogue's words, sorted.
 * WordNet is read for these tables alone and let go with them: it is no part of what emit keeps.
 */
function tablesOfVocabulary(vocabulary: readonly string[], options: PackagingOptions = {}): QueryTermTables {
  const wordNet = readWordNet();
  return {
    synonyms: wordNetSynonyms(wordNet, vocabulary, options),
    related: options.related === true ? wordNetRelated(wordNet, vocabulary) : {},
  };
}

/** tablesOfVocabulary of the words the index split. */
const packagedTables =
  (options: PackagingOptions = {}): QueryTermTablesOf =>
  (toolWords) =>
    tablesOfVocabulary(catalogueWords(toolWords), options);

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

/** One tool's part of the index file: its line, its index terms, and its words the synonym table is made for. */
export interface SearchIndexParts {
  line: string;
  terms: string[];
  words: string[];
  /** Its searchable texts as JSON: its share of the file's key (searchIndexKeyOfTexts). */
  textsJson: string;
}

/** A tool's parts, from an index of that tool alone: its line is the one the index of every tool gives it. */
export function searchIndexParts(tool: ServedTool): SearchIndexParts {
  let toolWords: string[] = [];
  const texts = searchableTexts(tool);
  const { data, toolSurfaces } = buildSearchIndexWithToolSurfaces(
    [tool],
    (words) => {
      toolWords = catalogueWords(words);
      return {};
    },
    [texts],
  );
  return {
    line: toolLines([tool], data, toolSurfaces)[0] as string,
    terms: Object.keys(data.terms),
    words: toolWords,
    textsJson: JSON.stringify(texts),
  };
}

/**
 * Cheap next to the rest of a tool's emit, but a rebuild of a large catalogue would redo it for every tool. Keyed by
 * the slug and every field of the manifest, not by the texts search reads of them: making those texts (plain text of
 * every description, the fields' walk) is most of the job, some 200 ms of a 3,000-tool rebuild, where the manifest's
 * schemas are hashed already (fieldsKeyParts). The runtime's analysis code is in the cache's fingerprint.
 */
export const SEARCH_PARTS_JOB: ToolJob<ServedTool, SearchIndexParts> = {
  kind: 'search-parts',
  key: (tool) => contentKey(SEARCH_INDEX_FILE_FORMAT, SEARCH_INDEX_FORMAT, tool.slug, ...fieldsKeyParts(tool.manifest)),
  run: searchIndexParts,
  threads: false,
};

/** The words of the tools' parts, sorted: what the synonym table is made for. */
export function vocabularyOf(parts: readonly SearchIndexParts[]): string[] {
  const vocabulary = new Set<string>();
  for (const part of parts) for (const word of part.words) vocabulary.add(word);
  return [...vocabulary].sort(byCodeUnit);
}

/**
 * The query-term tables the generator ships for `vocabulary` (as tablesOfVocabulary makes them), a word at a time
 * through the build's work: a rebuild looks up only the words no earlier build did, and reads WordNet (some 23 MB of
 * data files) only when there is one, letting it go with the table.
 */
export async function packagedTablesBy(work: Work, vocabulary: readonly string[]): Promise<QueryTermTables> {
  let wordNet: WordNet | undefined;
  const job: ToolJob<string, Record<string, string[]>> = {
    kind: 'synonyms',
    key: (word) => word,
    run: (word) => wordNetSynonyms((wordNet ??= readWordNet()), [word]),
    threads: false,
  };
  const merged = new Map<string, Set<string>>();
  for (const table of await work.map(job, vocabulary)) {
    for (const [key, targets] of Object.entries(table)) {
      let all = merged.get(key);
      if (all === undefined) merged.set(key, (all = new Set()));
      for (const target of targets) all.add(target);
    }
  }
  const synonyms = Object.fromEntries([...merged.keys()].sort(byCodeUnit).map((key) => [key, [...merged.get(key)!].sort(byCodeUnit)]));
  return { synonyms, related: {} };
}

/**
 * The text of a package's `data/search-index.json` for its tool list, from each tool's parts (made here when not
 * given): a header line, then one line a tool in list order; deterministic, no dates, LF, final newline. Read back by
 * parseSearchIndex into packagedSearchIndex's data.
 */
export function searchIndexFile(
  tools: readonly ServedTool[],
  parts: readonly SearchIndexParts[] = tools.map(searchIndexParts),
  made: QueryTermTables = tablesOfVocabulary(vocabularyOf(parts)),
): PackageText {
  const indexTerms = new Set<string>();
  for (const part of parts) for (const indexed of part.terms) indexTerms.add(indexed);
  const tables = { synonyms: keptTable(made.synonyms ?? {}, indexTerms), related: keptTable(made.related ?? {}, indexTerms) };
  const header = `{"format":${JSON.stringify(SEARCH_INDEX_FILE_FORMAT)},"index":${JSON.stringify(SEARCH_INDEX_FORMAT)},"key":${JSON.stringify(searchIndexKeyOfTexts(parts.map((part) => part.textsJson)))},"fields":${JSON.stringify(FIELDS)},"tools":[`;
  const lines = parts.map((part) => part.line);
  // Each table after the tools, one query term a line: a tool's new word adds or changes only the lines naming it.
  const tableTexts = SEARCH_INDEX_TABLES.map((name) => {
    const table = tables[name];
    const entries = Object.keys(table)
      .sort(byCodeUnit)
      .map((key) => `${JSON.stringify(key)}:${JSON.stringify(table[key])}`);
    return `,${JSON.stringify(name)}:{${entries.length ? `\n${entries.join(',\n')}\n` : ''}}`;
  });
  const tail = `]${tableTexts.join('')}}\n`;
  return lines.length ? lazyJoinedText(`${header}\n`, lines, (line) => line, ',\n', `\n${tail}`) : `${header}${tail}`;
}

/** The text of searchIndexFile, whole. */
export function searchIndexFileText(tools: readonly ServedTool[], parts?: readonly SearchIndexParts[], tables?: QueryTermTables): string {
  return wholeText(searchIndexFile(tools, parts, tables));
}
