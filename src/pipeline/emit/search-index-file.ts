// The package's `data/search-index.json`: the runtime's index data for the served tools, with the WordNet synonym
// table for their words, as canonical JSON that diffs one term (and one tool's field lengths) per line.
import type { JsonObject, ServedTool } from '../../runtime/shared/contracts.js';
import { buildSearchIndex, words, type SearchIndexData } from '../../runtime/search/index.js';
import { wordNetRelated, wordNetSynonyms } from './wordnet-synonyms.js';
import { byCodeUnit } from '../../runtime/shared/order.js';

const isObject = (value: unknown): value is JsonObject => value !== null && typeof value === 'object' && !Array.isArray(value);

/** JSON with object keys sorted by code unit; the top two levels one entry a line so diffs stay readable. */
function canonicalJson(value: unknown, depth = 0): string {
  const multiline = depth < 2;
  const indent = multiline ? `\n${' '.repeat(depth + 1)}` : '';
  const close = multiline ? `\n${' '.repeat(depth)}` : '';
  if (Array.isArray(value)) {
    if (!value.length) return '[]';
    // Postings and length rows are most of the file: arrays of plain values need no key sorting.
    if (!multiline && value.every((item) => typeof item !== 'object' || item === null)) return JSON.stringify(value);
    return `[${value.map((item) => indent + canonicalJson(item, depth + 1)).join(',')}${close}]`;
  }
  if (isObject(value)) {
    const keys = Object.keys(value).filter((key) => value[key] !== undefined).sort(byCodeUnit);
    if (!keys.length) return '{}';
    const entries = keys.map((key) => `${indent}${JSON.stringify(key)}:${multiline ? ' ' : ''}${canonicalJson(value[key], depth + 1)}`);
    return `{${entries.join(',')}${close}}`;
  }
  return JSON.stringify(value);
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

/** Index data as the generator ships it: the runtime's index plus the WordNet synonyms of the catalogue's words (their definition words only when asked, for the search bench). */
export function packagedSearchIndex(tools: readonly ServedTool[], options: { derivations?: boolean; related?: boolean } = {}): SearchIndexData {
  const vocabulary = [...catalogueWords(tools)].sort(byCodeUnit);
  return buildSearchIndex(tools, wordNetSynonyms(vocabulary, options), options.related === true ? wordNetRelated(vocabulary) : {});
}

/** The text of a package's `data/search-index.json` for its tool list: deterministic, no dates, LF, final newline. */
export function searchIndexFileText(tools: readonly ServedTool[]): string {
  return `${canonicalJson(packagedSearchIndex(tools))}\n`;
}
