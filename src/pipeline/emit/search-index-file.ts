// The package's `data/search-index.json`: the runtime's index data for the served tools, with the WordNet synonym
// table for their words, laid out one tool a line (src/runtime/search/index-file.ts) so that diffs stay per tool.
import type { ServedTool } from '../../runtime/contracts.js';
import { defaultSurface, SEARCH_INDEX_FILE_FORMAT, SEARCH_INDEX_TABLES } from '../../runtime/search/index-file.js';
import { buildSearchIndex, FIELDS, SEARCH_INDEX_FORMAT, searchIndexKey, words, type SearchIndexData } from '../../runtime/search/index.js';
import { wordNetSynonyms } from './wordnet-synonyms.js';

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A JSON object of `entries` in code-unit order of their keys (JSON.stringify would put "404"-like keys first). */
function sortedObjectJson(entries: Iterable<[string, unknown]>): string {
  const sorted = [...entries].sort(([a], [b]) => byCodeUnit(a, b));
  return `{${sorted.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`).join(',')}}`;
}

/** The words of every tool's searchable text: what the synonym table is restricted to. */
function catalogueWords(tools: readonly ServedTool[]): Set<string> {
  const found = new Set<string>();
  for (const tool of tools) {
    const manifest = tool.manifest;
    const texts = [tool.slug, String(manifest.name ?? ''), String(manifest.description ?? ''), String(manifest.category ?? ''), ...(Array.isArray(manifest.tags) ? manifest.tags : [])];
    for (const text of texts) for (const word of words(text)) found.add(word);
  }
  return found;
}

/** The query-term tables the generator ships, by name (index-file's SEARCH_INDEX_TABLES). */
function packagedTables(tools: readonly ServedTool[]): Record<(typeof SEARCH_INDEX_TABLES)[number], Record<string, string[]>> {
  return { synonyms: wordNetSynonyms([...catalogueWords(tools)].sort(byCodeUnit)) };
}

/** Index data as the generator ships it: the runtime's index plus the WordNet synonyms of the catalogue's words. */
export function packagedSearchIndex(tools: readonly ServedTool[]): SearchIndexData {
  return buildSearchIndex(tools, packagedTables(tools).synonyms);
}

/** Per table, target term → the query terms naming it: what lets each tool's line carry only its own entries. */
function byTarget(table: Readonly<Record<string, readonly string[]>>): Map<string, string[]> {
  const keysOf = new Map<string, string[]>();
  for (const key of Object.keys(table).sort(byCodeUnit)) {
    for (const target of new Set(table[key])) {
      if (target === key) continue;
      const keys = keysOf.get(target);
      if (keys === undefined) keysOf.set(target, [key]);
      else keys.push(key);
    }
  }
  return keysOf;
}

/** One tool's line: its own index (one tool's postings, its own first surfaces) and the table entries for its terms. */
function toolLine(tool: ServedTool, tables: readonly Map<string, string[]>[]): string {
  const own = buildSearchIndex([tool]);
  const terms = Object.entries(own.terms);
  const pairs = terms.map(([indexed, data]): [string, number[]] => [indexed, data.postings.filter((_, i) => i % 3 !== 0)]);
  const surfaces = terms.filter(([indexed, data]) => data.surface !== defaultSurface(indexed)).map(([indexed, data]): [string, string] => [indexed, data.surface]);
  const tableTexts = SEARCH_INDEX_TABLES.map((name, t) => {
    const entries = new Map<string, string[]>();
    for (const [indexed] of terms) {
      for (const key of tables[t]?.get(indexed) ?? []) entries.set(key, [...(entries.get(key) ?? []), indexed]);
    }
    return `,${JSON.stringify(name)}:${sortedObjectJson([...entries].map(([key, targets]) => [key, targets.sort(byCodeUnit)]))}`;
  });
  const lengths = JSON.stringify(own.lengths[0] ?? []);
  return `{"slug":${JSON.stringify(tool.slug)},"lengths":${lengths},"terms":${sortedObjectJson(pairs)},"surfaces":${sortedObjectJson(surfaces)}${tableTexts.join('')}}`;
}

/**
 * The text of a package's `data/search-index.json` for its tool list: a header line, then one line a tool in list
 * order; deterministic, no dates, LF, final newline. Read back by parseSearchIndex into packagedSearchIndex's data.
 */
export function searchIndexFileText(tools: readonly ServedTool[]): string {
  const packaged = packagedTables(tools);
  const tables = SEARCH_INDEX_TABLES.map((name) => byTarget(packaged[name]));
  const header = `{"format":${JSON.stringify(SEARCH_INDEX_FILE_FORMAT)},"index":${JSON.stringify(SEARCH_INDEX_FORMAT)},"key":${JSON.stringify(searchIndexKey(tools))},"fields":${JSON.stringify(FIELDS)},"tools":[`;
  const lines = tools.map((tool) => toolLine(tool, tables));
  return `${header}${lines.length ? `\n${lines.join(',\n')}\n` : ''}]}\n`;
}
