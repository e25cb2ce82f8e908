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
  const lines: SearchIndexFileTool[] = [];
  let termCount = 0;
  for (const tool of value.tools as unknown[]) {
    if (!isRecord(tool)) return null;
    const { terms: names, surfaces, spans, pairs } = tool;
    if (!Array.isArray(names) || !Array.isArray(surfaces) || !Array.isArray(spans) || !Array.isArray(pairs)) return null;
    if (surfaces.length !== names.length || spans.length !== names.length) return null;
    let total = 0;
    for (const span of spans as unknown[]) {
      if (typeof span !== 'number' || !Number.isInteger(span) || span < 0) return null;
      total += span;
    }
    if (total !== pairs.length) return null;
    lines.push(tool as unknown as SearchIndexFileTool);
    termCount += names.length;
  }
  // Two passes, so that each term's postings are allocated once at their size: terms are numbered as first seen and
  // sized in the first, filled in tool order in the second.
  const idOfTerm = new Map<string, number>();
  const names: string[] = [];
  const surfaces: string[] = [];
  const sizes: number[] = [];
  const ids = new Int32Array(termCount);
  let next = 0;
  for (const line of lines) {
    for (let i = 0; i < line.terms.length; i += 1) {
      const indexed: unknown = line.terms[i];
      if (typeof indexed !== 'string') return null;
      let id = idOfTerm.get(indexed);
      if (id === undefined) {
        id = names.length;
        idOfTerm.set(indexed, id);
        names.push(indexed);
        const surface: unknown = line.surfaces[i];
        surfaces.push(typeof surface === 'string' && surface !== '' ? surface : defaultSurface(indexed));
        sizes.push(0);
      }
      ids[next++] = id;
      sizes[id] = (sizes[id] as number) + 3 * (line.spans[i] as number);
    }
  }
  const postings = sizes.map((size) => new Array<number>(size).fill(0));
  const filled = new Int32Array(names.length);
  next = 0;
  for (let toolIndex = 0; toolIndex < lines.length; toolIndex += 1) {
    const { spans, pairs } = lines[toolIndex] as SearchIndexFileTool;
    let at = 0;
    for (const span of spans) {
      const id = ids[next++] as number;
      const target = postings[id] as number[];
      let to = filled[id] as number;
      for (const end = at + span; at < end; at += 1) {
        const pair: unknown = pairs[at];
        if (typeof pair !== 'number') return null;
        // A pair that is no whole number gives a field or count parseSearchIndex refuses.
        const field = pair % fieldCount;
        target[to++] = toolIndex;
        target[to++] = field;
        target[to++] = (pair - field) / fieldCount;
      }
      filled[id] = to;
    }
  }
  const order = names.map((_, id) => id).sort((a, b) => byCodeUnit(names[a] as string, names[b] as string));
  const terms: Record<string, { surface: string; postings: number[] }> = {};
  for (const id of order) terms[names[id] as string] = { surface: surfaces[id] as string, postings: postings[id] as number[] };
  const lengths = lines.map((line) => line.lengths);
  const data: Record<string, unknown> = { format: value.index, key: value.key, fields: value.fields, lengths, terms };
  for (const name of SEARCH_INDEX_TABLES) data[name] = value[name];
  return data;
}
