// The layout of `data/search-index.json`, one tool a line so that a change to one tool changes only its line (and the
// entries of its words in the query-term tables, one a line after the tools), and how it turns back into index data
// (the shape of index-data's SearchIndexData, checked there by parseSearchIndex).
import { isJsonObject as isRecord } from '../shared/json-values.js';
import { byCodeUnit } from '../shared/order.js';

/** Names this file layout; the index data inside keeps its own format name (`index`). */
export const SEARCH_INDEX_FILE_FORMAT = 'nexusbloom-search-index-file/1';

/** The query-term tables of the index data (query term → index terms), each stored as it is after the tools. */
export const SEARCH_INDEX_TABLES = ['synonyms', 'related'] as const;

/**
 * One tool's line: its field lengths and its terms (sorted by code unit), each with the word it was first seen as in
 * this tool ("" where that is the term itself, `_` read as a space) and its (field index, count) pairs: `spans` says
 * how many pairs of the flat `counts` are each term's. Arrays, not objects: thousands of tools parse in a blink.
 */
export interface SearchIndexFileTool {
  slug: string;
  lengths: number[];
  terms: string[];
  surfaces: string[];
  spans: number[];
  counts: number[];
}

export interface SearchIndexFile {
  format: typeof SEARCH_INDEX_FILE_FORMAT;
  index: string;
  key: string;
  fields: string[];
  tools: SearchIndexFileTool[];
  synonyms: Record<string, string[]>;
  related: Record<string, string[]>;
}

/** The surface a line leaves out: the term itself, a phrase term's `_` read as a space. */
export const defaultSurface = (indexed: string): string => indexed.replace('_', ' ');

/**
 * The index data a file holds, in index-data's layout (terms sorted by code unit, postings in tool order),
 * for parseSearchIndex to check; anything that is not this file layout comes back as it is, for that check to refuse.
 */
export function indexDataOfFile(value: unknown): unknown {
  if (!isRecord(value) || value.format !== SEARCH_INDEX_FILE_FORMAT || !Array.isArray(value.tools)) return value;
  const lengths: unknown[] = [];
  const terms = new Map<string, { surface: string; postings: number[] }>();
  for (const [toolIndex, tool] of value.tools.entries()) {
    if (!isRecord(tool)) return null;
    const { terms: names, surfaces, spans, counts } = tool;
    if (!Array.isArray(names) || !Array.isArray(surfaces) || !Array.isArray(spans) || !Array.isArray(counts)) return null;
    if (surfaces.length !== names.length || spans.length !== names.length) return null;
    lengths.push(tool.lengths);
    let at = 0;
    for (let i = 0; i < names.length; i += 1) {
      const indexed = names[i] as string;
      let entry = terms.get(indexed);
      if (entry === undefined) {
        const surface = surfaces[i];
        terms.set(
          indexed,
          (entry = { surface: typeof surface === 'string' && surface !== '' ? surface : defaultSurface(indexed), postings: [] }),
        );
      }
      const end = at + 2 * (spans[i] as number);
      if (!(end <= counts.length)) return null;
      for (; at < end; at += 2) entry.postings.push(toolIndex, counts[at] as number, counts[at + 1] as number);
    }
    if (at !== counts.length) return null;
  }
  const sortedTerms: Record<string, { surface: string; postings: number[] }> = {};
  for (const indexed of [...terms.keys()].sort(byCodeUnit)) sortedTerms[indexed] = terms.get(indexed)!;
  const data: Record<string, unknown> = { format: value.index, key: value.key, fields: value.fields, lengths, terms: sortedTerms };
  for (const name of SEARCH_INDEX_TABLES) data[name] = value[name];
  return data;
}
