// The search index as plain JSON data (`data/search-index.json`): its layout, how it is built from a tool list, and
// the check a loaded file must pass before a server serves from it.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { JsonObject, ServedTool } from '../shared/contracts.js';
import { fieldTerms, FIELDS, searchableTexts, term, withPhrases, words } from './analysis.js';
import { byCodeUnit } from '../shared/order.js';
import { indexDataOfFile } from './index-file.js';

/** Names the layout of SearchIndexData and the text analysis behind it; change it whenever either changes. */
export const SEARCH_INDEX_FORMAT = 'nexusbloom-search-index/6';

/** A search index as plain JSON data, built once (at generation time) and loaded by the server. */
export interface SearchIndexData {
  format: typeof SEARCH_INDEX_FORMAT;
  /** Hash of the searchable text of every tool, in order: the data only serves the exact list it was built from. */
  key: string;
  /** Field order of `lengths` rows and of field indexes in postings. */
  fields: string[];
  /** Per tool (in list order), the number of terms in each field. */
  lengths: number[][];
  /** Per index term: the first word it was seen as, and its postings as flat (tool index, field index, count) triples. */
  terms: Record<string, SearchTermData>;
  /**
   * Query term → index terms that mean the same (from a lexical database, at generation time), restricted to terms
   * this index holds. Empty when built at run time.
   */
  synonyms: Record<string, string[]>;
  /**
   * Query term → index terms it is related to, more loosely than a synonym: words of a lexical database's definition of
   * the index term ("money" → "refund"). Same restriction; empty when built at run time.
   */
  related: Record<string, string[]>;
}

export interface SearchTermData {
  surface: string;
  postings: number[];
}

/** The query-term tables of an index (SearchIndexData's `synonyms` and `related`), as given to a build. */
export interface QueryTermTables {
  synonyms?: Readonly<Record<string, readonly string[]>>;
  related?: Readonly<Record<string, readonly string[]>>;
}

/**
 * Per tool, the words of each searchable field (FIELDS order) as the index split them, before phrases add theirs; the
 * bigram field's list is empty. What a table maker reads, so that a catalogue's text is split once.
 */
export type ToolFieldWords = readonly (readonly string[])[];

/** Tables made from the words of the very build that stores them (the generator's WordNet and action tables). */
export type QueryTermTablesOf = (toolWords: readonly ToolFieldWords[]) => QueryTermTables;

function keyOfTexts(textsPerTool: readonly (readonly string[])[]): string {
  return searchIndexKeyOfTexts(textsPerTool.map((texts) => JSON.stringify(texts)));
}

/**
 * The key of searchIndexKey from each tool's searchable texts as JSON (`JSON.stringify(searchableTexts(tool))`), for a
 * builder that keeps those per tool: the hash of `JSON.stringify([SEARCH_INDEX_FORMAT, textsPerTool])`.
 */
export function searchIndexKeyOfTexts(textsJsonPerTool: readonly string[]): string {
  // One update of the whole text: thousands of small updates cost more than the hashing itself.
  return createHash('sha256')
    .update(`[${JSON.stringify(SEARCH_INDEX_FORMAT)},[${textsJsonPerTool.join(',')}]]`)
    .digest('hex');
}

/** The key a SearchIndexData for these tools carries; a different key means the data is for another list. */
export function searchIndexKey(tools: readonly ServedTool[]): string {
  return keyOfTexts(tools.map(searchableTexts));
}

/**
 * Builds the index data for a tool list. Pure and deterministic: the same list (and synonym table) gives the same data.
 * `synonyms` is a table made at generation time; entries naming terms this index lacks are dropped.
 */
export function buildSearchIndex(
  tools: readonly ServedTool[],
  synonyms: Readonly<Record<string, readonly string[]>> = {},
  related: Readonly<Record<string, readonly string[]>> = {},
): SearchIndexData {
  return indexOfTools(tools.map(searchableTexts), () => ({ synonyms, related }));
}

/**
 * buildSearchIndex's data, its tables made by `tables` from the words the build split, and per tool the index terms
 * whose first-seen word in that tool differs from the data's (first seen in any tool): what a one-tool index of each
 * tool would say, without building one per tool. `textsPerTool`: the tools' searchable texts, when the caller has
 * them already.
 */
export function buildSearchIndexWithToolSurfaces(
  tools: readonly ServedTool[],
  tables: QueryTermTablesOf = () => ({}),
  textsPerTool: readonly (readonly string[])[] = tools.map(searchableTexts),
): { data: SearchIndexData; toolSurfaces: Map<string, string>[] } {
  const toolSurfaces = tools.map(() => new Map<string, string>());
  return { data: indexOfTools(textsPerTool, tables, toolSurfaces), toolSurfaces };
}

/** buildSearchIndex with tables made from the words the build split (see QueryTermTablesOf). */
export function buildSearchIndexWith(tools: readonly ServedTool[], tables: QueryTermTablesOf): SearchIndexData {
  return indexOfTools(tools.map(searchableTexts), tables);
}

function indexOfTools(
  textsPerTool: readonly (readonly string[])[],
  tablesOf: QueryTermTablesOf,
  toolSurfaces?: Map<string, string>[],
): SearchIndexData {
  // Terms are numbered as first seen: catalogues repeat their words a lot, and flat arrays keep garbage low.
  const idOfTerm = new Map<string, number>();
  const names: string[] = [];
  const surfaces: string[] = [];
  const postings: number[][] = [];
  const counts: number[] = [];
  // Per term, the last tool it was seen in: its first occurrence in each tool, for toolSurfaces.
  const seenIn: number[] = [];
  const toolWords: string[][][] = [];
  const lengths = textsPerTool.map((texts, toolIndex) => {
    const fieldWords: string[][] = [];
    toolWords.push(fieldWords);
    return texts.map((text, fieldIndex) => {
      const field = FIELDS[fieldIndex] as (typeof FIELDS)[number];
      const plainWords = field === 'bigrams' ? [] : words(text);
      fieldWords.push(plainWords);
      const surfaceWords = field === 'bigrams' ? undefined : withPhrases(plainWords);
      const terms = surfaceWords === undefined ? fieldTerms(field, text) : surfaceWords.map(term);
      const inField: number[] = [];
      terms.forEach((indexed, position) => {
        let id = idOfTerm.get(indexed);
        if (id === undefined) {
          id = names.length;
          idOfTerm.set(indexed, id);
          names.push(indexed);
          surfaces.push(surfaceWords?.[position] ?? indexed.replace('_', ' '));
          postings.push([]);
          counts.push(0);
          seenIn.push(toolIndex);
        } else if (toolSurfaces !== undefined && seenIn[id] !== toolIndex) {
          seenIn[id] = toolIndex;
          const surface = surfaceWords?.[position] ?? indexed.replace('_', ' ');
          if (surface !== surfaces[id]) (toolSurfaces[toolIndex] as Map<string, string>).set(indexed, surface);
        }
        if (counts[id] === 0) inField.push(id);
        counts[id] = (counts[id] as number) + 1;
      });
      for (const id of inField) {
        (postings[id] as number[]).push(toolIndex, fieldIndex, counts[id] as number);
        counts[id] = 0;
      }
      return terms.length;
    });
  });
  const order = names.map((_, id) => id).sort((a, b) => byCodeUnit(names[a] as string, names[b] as string));
  const terms: Record<string, SearchTermData> = {};
  for (const id of order) terms[names[id] as string] = { surface: surfaces[id] as string, postings: postings[id] as number[] };
  const tables = tablesOf(toolWords);
  return {
    format: SEARCH_INDEX_FORMAT,
    key: keyOfTexts(textsPerTool),
    fields: [...FIELDS],
    lengths,
    terms,
    synonyms: keptTable(tables.synonyms ?? {}, idOfTerm),
    related: keptTable(tables.related ?? {}, idOfTerm),
  };
}

/**
 * A query-term table as an index stores it: keys in code-unit order, each with its targets that `terms` holds (itself
 * left out), sorted and once each; keys left with none are dropped.
 */
export function keptTable(
  table: Readonly<Record<string, readonly string[]>>,
  terms: { has(term: string): boolean },
): Record<string, string[]> {
  const kept: Record<string, string[]> = {};
  for (const key of Object.keys(table).sort(byCodeUnit)) {
    const targets = [...new Set((table[key] ?? []).filter((target) => target !== key && terms.has(target)))].sort(byCodeUnit);
    if (targets.length) kept[key] = targets;
  }
  return kept;
}

const isObject = (value: unknown): value is JsonObject => value !== null && typeof value === 'object' && !Array.isArray(value);
const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

/**
 * Checks parsed JSON is well-formed SearchIndexData of this format, as built or as laid out in the package's file
 * (index-file); null when not (a caller then builds in memory).
 */
export function parseSearchIndex(parsed: unknown): SearchIndexData | null {
  const value = indexDataOfFile(parsed);
  if (!isObject(value) || value.format !== SEARCH_INDEX_FORMAT || typeof value.key !== 'string') return null;
  const { fields, lengths, terms, synonyms, related } = value;
  if (!Array.isArray(fields) || fields.length !== FIELDS.length || fields.some((field, i) => field !== FIELDS[i])) return null;
  if (!Array.isArray(lengths) || !isObject(terms) || !isObject(synonyms) || !isObject(related)) return null;
  if (!lengths.every((row) => Array.isArray(row) && row.length === FIELDS.length && row.every(isCount))) return null;
  for (const entry of Object.values(terms)) {
    if (!isObject(entry) || typeof entry.surface !== 'string' || !Array.isArray(entry.postings)) return null;
    const postings: unknown[] = entry.postings;
    if (!postings.length || postings.length % 3 !== 0) return null;
    let previousTool = -1;
    let previousField = -1;
    for (let i = 0; i < postings.length; i += 3) {
      const tool = postings[i];
      const field = postings[i + 1];
      const count = postings[i + 2];
      if (!isCount(tool) || tool >= lengths.length || !isCount(field) || field >= FIELDS.length || !isCount(count) || count === 0)
        return null;
      // Postings run in tool order, then field order, each pair once: scoring relies on that order.
      if (tool < previousTool || (tool === previousTool && field <= previousField)) return null;
      previousTool = tool;
      previousField = field;
    }
  }
  for (const targets of [...Object.values(synonyms), ...Object.values(related)]) {
    if (!Array.isArray(targets) || !targets.every((target) => typeof target === 'string' && Object.hasOwn(terms, target))) return null;
  }
  return value as unknown as SearchIndexData;
}

/**
 * Reads a package's `data/search-index.json`. Null when the file is absent, not JSON or not index data: search then
 * builds its index in memory, so a missing or damaged file costs time, never results.
 */
export async function readSearchIndexFile(url: URL): Promise<SearchIndexData | null> {
  try {
    return parseSearchIndex(JSON.parse(await readFile(url, 'utf8')));
  } catch {
    return null;
  }
}

/** Like readSearchIndexFile, synchronously: for the first search, which must answer without awaiting. */
export function readSearchIndexFileSync(url: URL): SearchIndexData | null {
  try {
    return parseSearchIndex(JSON.parse(readFileSync(url, 'utf8')));
  } catch {
    return null;
  }
}
