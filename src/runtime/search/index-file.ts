// The layout of `data/search-index.json`, one tool a line so that a change to one tool changes only its line, and
// how it turns back into index data (the shape of index-data's SearchIndexData, checked there by parseSearchIndex).

/** Names this file layout; the index data inside keeps its own format name (`index`). */
export const SEARCH_INDEX_FILE_FORMAT = 'nexusbloom-search-index-file/1';

/** The query-term tables of the index data, each stored per tool: the entries whose targets are that tool's terms. */
export const SEARCH_INDEX_TABLES = ['synonyms'] as const;

/** One tool's line: its field lengths, its terms' (field index, count) pairs, and what only its terms need. */
export interface SearchIndexFileTool {
  slug: string;
  lengths: number[];
  terms: Record<string, number[]>;
  /** The word a term was first seen as in this tool, where it is not the term itself (with `_` read as a space). */
  surfaces: Record<string, string>;
  synonyms: Record<string, string[]>;
}

export interface SearchIndexFile {
  format: typeof SEARCH_INDEX_FILE_FORMAT;
  index: string;
  key: string;
  fields: string[];
  tools: SearchIndexFileTool[];
}

/** The surface a line leaves out: the term itself, a phrase term's `_` read as a space. */
export const defaultSurface = (indexed: string): string => indexed.replace('_', ' ');

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The index data a file holds, in index-data's layout (terms and tables sorted by code unit, postings in tool order),
 * for parseSearchIndex to check; anything that is not this file layout comes back as it is, for that check to refuse.
 */
export function indexDataOfFile(value: unknown): unknown {
  if (!isRecord(value) || value.format !== SEARCH_INDEX_FILE_FORMAT || !Array.isArray(value.tools)) return value;
  const lengths: unknown[] = [];
  const terms = new Map<string, { surface: string; postings: number[] }>();
  const tables = SEARCH_INDEX_TABLES.map(() => new Map<string, Set<string>>());
  for (const [toolIndex, tool] of value.tools.entries()) {
    if (!isRecord(tool) || !isRecord(tool.terms) || !isRecord(tool.surfaces)) return null;
    lengths.push(tool.lengths);
    for (const [indexed, pairs] of Object.entries(tool.terms)) {
      if (!Array.isArray(pairs) || pairs.length % 2 !== 0) return null;
      let entry = terms.get(indexed);
      if (entry === undefined) {
        const surface = tool.surfaces[indexed];
        terms.set(indexed, (entry = { surface: typeof surface === 'string' ? surface : defaultSurface(indexed), postings: [] }));
      }
      for (let i = 0; i < pairs.length; i += 2) entry.postings.push(toolIndex, pairs[i] as number, pairs[i + 1] as number);
    }
    for (const [t, name] of SEARCH_INDEX_TABLES.entries()) {
      const table = tool[name];
      if (!isRecord(table)) return null;
      for (const [key, targets] of Object.entries(table)) {
        if (!Array.isArray(targets)) return null;
        const merged = tables[t]!.get(key) ?? new Set<string>();
        for (const target of targets) merged.add(target as string);
        tables[t]!.set(key, merged);
      }
    }
  }
  const sortedTerms: Record<string, { surface: string; postings: number[] }> = {};
  for (const indexed of [...terms.keys()].sort(byCodeUnit)) sortedTerms[indexed] = terms.get(indexed)!;
  const data: Record<string, unknown> = { format: value.index, key: value.key, fields: value.fields, lengths, terms: sortedTerms };
  for (const [t, name] of SEARCH_INDEX_TABLES.entries()) {
    const sorted: Record<string, string[]> = {};
    for (const key of [...tables[t]!.keys()].sort(byCodeUnit)) sorted[key] = [...tables[t]!.get(key)!].sort(byCodeUnit);
    data[name] = sorted;
  }
  return data;
}
