// The package's `data/search-index.json`: the runtime's index data for the served tools, with the WordNet synonym
// table for their words, laid out one tool a line (src/runtime/search/index-file.ts) so that diffs stay per tool.
import type { ServedTool } from '../../runtime/shared/contracts.js';
import { defaultSurface, SEARCH_INDEX_FILE_FORMAT, SEARCH_INDEX_TABLES } from '../../runtime/search/index-file.js';
import { buildSearchIndex, FIELDS, SEARCH_INDEX_FORMAT, searchIndexKey, words, type SearchIndexData } from '../../runtime/search/index.js';
import { wordNetRelated, wordNetSynonyms } from './wordnet-synonyms.js';
import { byCodeUnit } from '../../runtime/shared/order.js';

/** The words of every tool's searchable text: what the synonym table is restricted to. */
function catalogueWords(tools: readonly ServedTool[]): Set<string> {
  const found = new Set<string>();
  for (const tool of tools) {
    const manifest = tool.manifest;
    const texts = [
      tool.slug,
      String(manifest.name ?? ''),
      String(manifest.description ?? ''),
      String(manifest.category ?? ''),
      ...(Array.isArray(manifest.tags) ? manifest.tags : []),
    ];
    for (const text of texts) for (const word of words(text)) found.add(word);
  }
  return found;
}

/** The query-term tables the generator ships, by name (index-file's SEARCH_INDEX_TABLES). */
function packagedTables(
  tools: readonly ServedTool[],
  options: PackagingOptions = {},
): Record<(typeof SEARCH_INDEX_TABLES)[number], Record<string, string[]>> {
  const vocabulary = [...catalogueWords(tools)].sort(byCodeUnit);
  return { synonyms: wordNetSynonyms(vocabulary, options), related: options.related === true ? wordNetRelated(vocabulary) : {} };
}

/** What the search bench may switch: WordNet's derived forms (on unless false), definition words (off unless true). */
export interface PackagingOptions {
  derivations?: boolean;
  related?: boolean;
}

/** Index data as the generator ships it: the runtime's index plus the WordNet synonyms of the catalogue's words (their definition words only when asked, for the search bench). */
export function packagedSearchIndex(tools: readonly ServedTool[], options: PackagingOptions = {}): SearchIndexData {
  const tables = packagedTables(tools, options);
  return buildSearchIndex(tools, tables.synonyms, tables.related);
}

/** A query-term table restricted to the index's terms, as buildSearchIndex keeps it: sorted, no entry to itself. */
function keptTable(table: Readonly<Record<string, readonly string[]>>, indexed: ReadonlySet<string>): [string, string[]][] {
  const kept: [string, string[]][] = [];
  for (const key of Object.keys(table).sort(byCodeUnit)) {
    const targets = [...new Set((table[key] ?? []).filter((target) => target !== key && indexed.has(target)))].sort(byCodeUnit);
    if (targets.length) kept.push([key, targets]);
  }
  return kept;
}

/** One tool's line (index-file's SearchIndexFileTool): its own index, one tool's postings and first-seen words. */
function toolLine(tool: ServedTool, own: SearchIndexData): string {
  const terms = Object.entries(own.terms);
  const surfaces = terms.map(([indexed, data]) => (data.surface === defaultSurface(indexed) ? '' : data.surface));
  const spans = terms.map(([, data]) => data.postings.length / 3);
  const counts = terms.flatMap(([, data]) => data.postings.filter((_, i) => i % 3 !== 0));
  const names = JSON.stringify(terms.map(([indexed]) => indexed));
  return `{"slug":${JSON.stringify(tool.slug)},"lengths":${JSON.stringify(own.lengths[0] ?? [])},"terms":${names},"surfaces":${JSON.stringify(surfaces)},"spans":${JSON.stringify(spans)},"counts":${JSON.stringify(counts)}}`;
}

/**
 * The text of a package's `data/search-index.json` for its tool list: a header line, then one line a tool in list
 * order; deterministic, no dates, LF, final newline. Read back by parseSearchIndex into packagedSearchIndex's data.
 */
export function searchIndexFileText(tools: readonly ServedTool[]): string {
  const owns = tools.map((tool) => buildSearchIndex([tool]));
  const indexed = new Set(owns.flatMap((own) => Object.keys(own.terms)));
  const packaged = packagedTables(tools);
  const header = `{"format":${JSON.stringify(SEARCH_INDEX_FILE_FORMAT)},"index":${JSON.stringify(SEARCH_INDEX_FORMAT)},"key":${JSON.stringify(searchIndexKey(tools))},"fields":${JSON.stringify(FIELDS)},"tools":[`;
  const lines = tools.map((tool, i) => toolLine(tool, owns[i] as SearchIndexData));
  // Each table after the tools, one query term a line: a tool's new word adds or changes only the lines naming it.
  const tables = SEARCH_INDEX_TABLES.map((name) => {
    const entries = keptTable(packaged[name], indexed).map(([key, targets]) => `${JSON.stringify(key)}:${JSON.stringify(targets)}`);
    return `,${JSON.stringify(name)}:{${entries.length ? `\n${entries.join(',\n')}\n` : ''}}`;
  });
  return `${header}${lines.length ? `\n${lines.join(',\n')}\n` : ''}]${tables.join('')}}\n`;
}
