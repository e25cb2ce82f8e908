// The layout of `data/search-index.json`, one tool a line so that a change to one tool changes only its line (and the
// entries of its words in the query-term tables, one a line after the tools), and how it turns back into index data
// (the shape of index-data's SearchIndexData, checked there by parseSearchIndex).
import { isJsonObject as isRecord } from '../shared/json-values.js';
import { byCodeUnit } from '../shared/order.js';

/** Names this file layout; the index data inside keeps its own format name (`index`). */
export const SEARCH_INDEX_FILE_FORMAT = 'nexusbloom-search-index-file/2';

/** The query-term tables of the index data (query term → index terms), each stored as it is after the tools. */
export const SEARCH_INDEX_TABLES = ['synonyms', 'related'] as const;

/**
 * One tool's line: its field lengths and its terms (sorted by code unit), each with the word it was first seen as in
 * this tool ("" where that is the term itself, `_` read as a space) and its (field index, count) pairs, each packed
 * into one number of `pairs` (count × FIELDS.length + field index): `spans` says how many of them are each term's.
 * Arrays, not objects, and one number a pair: thousands of tools parse in a blink.
 */
export interface SearchIndexFileTool {
  slug: string;
  lengths: number[];
  terms: string[];
  surfaces: string[];
  spans: number[];
  pairs: number[];
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
  if (!isRecord(value) || value.format !== SEARCH_INDEX_FILE_FORMAT || !Array.isArray(value.tools) || !Array.isArray(value.fields))
    return value;
  const fieldCount = value.fields.length;
  const lengths: unknown[] = [];
  const terms = new Map<string, { surface: string; postings: number[] }>();
  for (let toolIndex = 0; toolIndex < value.tools.length; toolIndex += 1) {
    const tool: unknown = value.tools[toolIndex];
    if (!isRecord(tool)) return null;
    const { terms: names, surfaces, spans, pairs } = tool;
    if (!Array.isArray(names) || !Array.isArray(surfaces) || !Array.isArray(spans) || !Array.isArray(pairs)) return null;
    if (surfaces.length !== names.length || spans.length !== names.length) return null;
    lengths.push(tool.lengths);
    let at = 0;
    for (let i = 0; i < names.length; i += 1) {
      const indexed = names[i] as string;
      let entry = terms.get(indexed);
      if (entry === undefined) {
        const surface: unknown = surfaces[i];
        entry = { surface: typeof surface === 'string' && surface !== '' ? surface : defaultSurface(indexed), postings: [] };
        terms.set(indexed, entry);
      }
      const end = at + (spans[i] as number);
      if (!(end <= pairs.length)) return null;
      const postings = entry.postings;
      for (; at < end; at += 1) {
        const pair: unknown = pairs[at];
        if (typeof pair !== 'number') return null;
        // A pair that is no whole number gives a field or count parseSearchIndex refuses.
        const field = pair % fieldCount;
        postings.push(toolIndex, field, (pair - field) / fieldCount);
      }
    }
    if (at !== pairs.length) return null;
  }
  const sortedTerms: Record<string, { surface: string; postings: number[] }> = {};
  for (const indexed of [...terms.keys()].sort(byCodeUnit)) sortedTerms[indexed] = terms.get(indexed)!;
  const data: Record<string, unknown> = { format: value.index, key: value.key, fields: value.fields, lengths, terms: sortedTerms };
  for (const name of SEARCH_INDEX_TABLES) data[name] = value[name];
  return data;
}
