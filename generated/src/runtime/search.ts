// Lexical intent search over the catalogue: BM25F over weighted fields with a small stemmer and dev-vocabulary synonyms,
// served from an inverted index that can be built at generation time and shipped as JSON data.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { JsonObject, ServedTool } from './contracts.js';
import { parameterCounts } from './call-shape.js';

export interface SearchHit {
  slug: string;
  name: string;
  description: string;
  score: number;
  /** One line, e.g. "matched: env in slug, validate in description". */
  reason: string;
  requiredParams: number;
  totalParams: number;
  withheld: boolean;
}

type FieldName = 'slug' | 'name' | 'tags' | 'category' | 'fieldNames' | 'fieldDescriptions' | 'description';

/** Field weights: what a tool is called outranks what it is tagged with, which outranks its prose. */
const FIELD_WEIGHTS: Readonly<Record<FieldName, number>> = {
  slug: 5,
  name: 4,
  tags: 3,
  category: 2,
  fieldNames: 2,
  description: 1.5,
  fieldDescriptions: 0.75,
};
const FIELD_LABELS: Readonly<Record<FieldName, string>> = {
  slug: 'slug',
  name: 'name',
  tags: 'tags',
  category: 'category',
  fieldNames: 'input fields',
  description: 'description',
  fieldDescriptions: 'input field descriptions',
};
const FIELDS = Object.keys(FIELD_WEIGHTS) as FieldName[];
const BM25_K1 = 1.2;
const BM25_B = 0.75;
const SYNONYM_WEIGHT = 0.6;
const PREFIX_WEIGHT = 0.4;
const DEPRECATED_FACTOR = 0.8;

/** Words with no intent in a query ("check MY file has ALL keys"). */
const STOP_WORDS = new Set(
  ('a an the my me i to for of in on at by with from into onto and or is are be been it its this that these those all any ' +
    'some has have had do does did can could would should will want wants need needs please how what which who whose ' +
    'using use via so if then than out up about tool tools something thing things each every our your we you get ' +
    'just also there their them they one whether way ok').split(' '),
);

/** Abbreviations and spellings that mean the same term; applied before stemming. */
const CANONICAL_WORDS: Readonly<Record<string, string>> = {
  environment: 'env', environments: 'env', environmental: 'env', dotenv: 'env', envs: 'env',
  configuration: 'config', configurations: 'config', configs: 'config', cfg: 'config', conf: 'config', settings: 'config',
  repository: 'repo', repositories: 'repo', repos: 'repo',
  authentication: 'auth', authorization: 'auth', authorisation: 'auth', authenticate: 'auth', authorize: 'auth',
  typescript: 'ts', javascript: 'js', ecmascript: 'js', yml: 'yaml', database: 'db', databases: 'db',
  directory: 'dir', directories: 'dir', folder: 'dir', folders: 'dir',
  dependency: 'dep', dependencies: 'dep', deps: 'dep', package: 'pkg', packages: 'pkg',
  regexp: 'regex', regexes: 'regex', regexps: 'regex', identifier: 'id', identifiers: 'id', ids: 'id',
  kubernetes: 'k8s', documentation: 'doc', docs: 'doc', documents: 'doc', document: 'doc',
  statistics: 'stat', stats: 'stat', statistic: 'stat', information: 'info', colour: 'color', colours: 'color',
  characters: 'char', character: 'char', chars: 'char', md: 'markdown', img: 'image', pic: 'image', picture: 'image',
  pwd: 'password', passwords: 'password', uri: 'url', uris: 'url', urls: 'url', link: 'url', links: 'url',
  comparison: 'compare', conversion: 'convert', guid: 'uuid', guids: 'uuid', timestamp: 'time', timestamps: 'time',
  datetime: 'date', variables: 'var', variable: 'var', vars: 'var', params: 'param', parameters: 'param', parameter: 'param',
  args: 'arg', arguments: 'arg', argument: 'arg', str: 'string', txt: 'text', num: 'number', nums: 'number',
};

/** Two-word expressions that mean one thing; the query uses the phrase alone, documents keep both words too. */
const PHRASES: Readonly<Record<string, string>> = {
  'pretty print': 'prettify', 'pretty printing': 'prettify', 'pretty printer': 'prettify',
  'regular expression': 'regex', 'regular expressions': 'regex', 'time zone': 'timezone', 'time zones': 'timezone',
  'e mail': 'email', 'web token': 'jwt', 'web tokens': 'jwt', 'dot env': 'env', 'user agent': 'useragent',
  'look up': 'lookup', 'check sum': 'checksum', 'set up': 'setup', 'front matter': 'frontmatter',
};

/** Words that start some phrase: most word pairs need no phrase lookup at all. */
const PHRASE_STARTS = new Set(Object.keys(PHRASES).map((phrase) => phrase.slice(0, phrase.indexOf(' '))));

/** The phrase each adjacent word pair forms, if any: `[index of first word, phrase]`. */
function phrasesIn(list: readonly string[]): [number, string][] {
  const found: [number, string][] = [];
  for (let index = 0; index + 1 < list.length; index += 1) {
    if (!PHRASE_STARTS.has(list[index] as string)) continue;
    const phrase = PHRASES[`${list[index]} ${list[index + 1]}`];
    if (phrase !== undefined) found.push([index, phrase]);
  }
  return found;
}

/** Document side: every word stays, and each phrase adds its own word. */
function withPhrases(list: readonly string[]): string[] {
  return [...list, ...phrasesIn(list).map(([, phrase]) => phrase)];
}

/** Query side: a phrase replaces its two words, so "pretty print" counts once, as one intent. */
function mergePhrases(list: readonly string[]): string[] {
  const merged: string[] = [];
  for (let index = 0; index < list.length; index += 1) {
    const phrase = PHRASES[`${list[index]} ${list[index + 1] ?? ''}`];
    if (phrase !== undefined) {
      merged.push(phrase);
      index += 1;
    } else {
      merged.push(list[index] as string);
    }
  }
  return merged;
}

/** Words close enough in intent to count for each other, at reduced weight. */
const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  ['validate', 'check', 'verify', 'lint', 'valid', 'validity', 'ensure', 'audit'],
  ['generate', 'create', 'make', 'produce', 'build', 'random'],
  ['fake', 'mock', 'dummy', 'sample', 'synthetic', 'placeholder', 'fixture'],
  ['convert', 'transform', 'translate', 'turn'],
  ['format', 'prettify', 'beautify', 'indent', 'tidy'],
  ['minify', 'shrink', 'uglify', 'compact'],
  ['compress', 'zip', 'gzip', 'deflate'],
  ['compare', 'diff', 'difference'],
  ['decode', 'parse', 'inspect', 'unpack'],
  ['encode', 'serialize', 'escape'],
  ['hash', 'digest', 'checksum', 'fingerprint'],
  ['count', 'stat', 'measure', 'metric'],
  ['remove', 'delete', 'strip', 'clean', 'trim'],
  ['find', 'search', 'lookup', 'locate', 'match'],
  ['extract', 'pull', 'scrape'],
  ['time', 'date', 'epoch', 'clock'],
  ['key', 'secret', 'credential'],
  ['text', 'string'],
  ['test', 'fixture'],
  ['sort', 'order', 'arrange'],
  ['split', 'chunk'],
  ['merge', 'combine', 'join'],
  ['case', 'capitalize', 'uppercase', 'lowercase'],
  ['cron', 'schedule'],
];

/** Ordered suffix rules of the stemmer: the first whose stem keeps at least three letters applies. */
const SUFFIX_RULES: readonly (readonly [string, string])[] = [
  ['ifications', 'if'], ['ification', 'if'], ['ifiers', 'if'], ['ifier', 'if'], ['ifying', 'if'], ['ified', 'if'],
  ['ifies', 'if'], ['ify', 'if'],
  ['izations', 'iz'], ['ization', 'iz'], ['isations', 'iz'], ['isation', 'iz'], ['izers', 'iz'], ['izer', 'iz'],
  ['izing', 'iz'], ['ized', 'iz'], ['izes', 'iz'], ['ize', 'iz'],
  ['ations', 'at'], ['ation', 'at'], ['ators', 'at'], ['ator', 'at'], ['ating', 'at'], ['ated', 'at'], ['ates', 'at'],
  ['ate', 'at'],
  ['ings', ''], ['ing', ''], ['ions', ''], ['ion', ''], ['ers', ''], ['er', ''], ['ors', ''], ['or', ''],
  ['ies', 'y'], ['sses', 'ss'], ['ches', 'ch'], ['shes', 'sh'], ['xes', 'x'], ['ed', ''], ['ly', ''],
];

/** A deliberately small stemmer: "validating", "validation", "validator", "validate" all become "validat". */
export function stem(word: string): string {
  if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
  let result = word;
  let ruleApplied = false;
  for (const [suffix, replacement] of SUFFIX_RULES) {
    if (result.endsWith(suffix) && result.length - suffix.length >= 3) {
      result = result.slice(0, result.length - suffix.length) + replacement;
      ruleApplied = true;
      break;
    }
  }
  if (!ruleApplied && result.endsWith('s') && !/(ss|us|is)$/.test(result) && result.length > 3) result = result.slice(0, -1);
  if (result.length > 3 && result.endsWith('e')) result = result.slice(0, -1);
  if (/([b-df-hj-kmnp-rtv-y])\1$/.test(result)) result = result.slice(0, -1);
  return result;
}

/** Lower-case words of a text, camelCase and snake/kebab-case split; ".env" gives "env". */
export function words(text: string): string[] {
  // Both camelCase splits need an upper-case ASCII letter; most catalogue text has few, so skip them when there is none.
  const spaced = /[A-Z]/.test(text) ? text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2') : text;
  return spaced
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

/** Index term of one word: canonical abbreviation, then stem. */
export function term(word: string): string {
  const lower = word.toLowerCase();
  // Own keys only: "constructor" is a word, not Object.prototype.constructor.
  return stem(Object.hasOwn(CANONICAL_WORDS, lower) ? (CANONICAL_WORDS[lower] as string) : lower);
}

const SYNONYMS: ReadonlyMap<string, readonly string[]> = (() => {
  const map = new Map<string, Set<string>>();
  for (const group of SYNONYM_GROUPS) {
    const terms = group.map(term);
    for (const member of terms) {
      const others = map.get(member) ?? new Set<string>();
      for (const other of terms) if (other !== member) others.add(other);
      map.set(member, others);
    }
  }
  return new Map([...map].map(([key, value]) => [key, [...value].sort()]));
})();

const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Names and descriptions of input fields, nested ones included (bounded depth; refs not followed). */
function collectFields(schema: unknown, names: string[], descriptions: string[], depth: number): void {
  if (!isObject(schema) || depth > 3) return;
  if (isObject(schema.properties)) {
    const properties = schema.properties;
    for (const name of Object.keys(properties)) {
      const property = properties[name];
      names.push(name);
      if (isObject(property) && typeof property.description === 'string') descriptions.push(property.description);
      collectFields(property, names, descriptions, depth + 1);
    }
  }
  if (isObject(schema.items)) collectFields(schema.items, names, descriptions, depth + 1);
}

/** The text of each searchable field of a tool, in FIELDS order: everything an index is built from. */
function searchableTexts(tool: ServedTool): string[] {
  const manifest = tool.manifest;
  const fieldNames: string[] = [];
  const fieldDescriptions: string[] = [];
  collectFields(manifest.input_schema, fieldNames, fieldDescriptions, 0);
  const texts: Record<FieldName, string> = {
    slug: tool.slug,
    name: String(manifest.name ?? ''),
    tags: Array.isArray(manifest.tags) ? manifest.tags.join(' ') : '',
    category: String(manifest.category ?? ''),
    fieldNames: fieldNames.join(' '),
    description: String(manifest.description ?? ''),
    fieldDescriptions: fieldDescriptions.join(' '),
  };
  return FIELDS.map((field) => texts[field]);
}

/** Names the layout of SearchIndexData and the text analysis behind it; change it whenever either changes. */
export const SEARCH_INDEX_FORMAT = 'nexusbloom-search-index/1';

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
}

export interface SearchTermData {
  surface: string;
  postings: number[];
}

function keyOfTexts(textsPerTool: readonly (readonly string[])[]): string {
  // One update of the whole text: thousands of small updates cost more than the hashing itself.
  return createHash('sha256').update(JSON.stringify([SEARCH_INDEX_FORMAT, textsPerTool])).digest('hex');
}

/** The key a SearchIndexData for these tools carries; a different key means the data is for another list. */
export function searchIndexKey(tools: readonly ServedTool[]): string {
  return keyOfTexts(tools.map(searchableTexts));
}

/** Builds the index data for a tool list. Pure and deterministic: the same list gives the same data. */
export function buildSearchIndex(tools: readonly ServedTool[]): SearchIndexData {
  const textsPerTool = tools.map(searchableTexts);
  // Terms are numbered as first seen, and each distinct word is analysed once: catalogues repeat their words a lot.
  const termIdOfWord = new Map<string, number>();
  const termIdOfTerm = new Map<string, number>();
  const terms: SearchTermData[] = [];
  const termNames: string[] = [];
  const counts: number[] = [];
  const lengths = textsPerTool.map((texts, toolIndex) =>
    texts.map((text, fieldIndex) => {
      const fieldWords = withPhrases(words(text));
      const inField: number[] = [];
      for (const word of fieldWords) {
        let id = termIdOfWord.get(word);
        if (id === undefined) {
          const indexed = term(word);
          id = termIdOfTerm.get(indexed);
          if (id === undefined) {
            id = terms.length;
            termIdOfTerm.set(indexed, id);
            terms.push({ surface: word, postings: [] });
            termNames.push(indexed);
            counts.push(0);
          }
          termIdOfWord.set(word, id);
        }
        if (counts[id] === 0) inField.push(id);
        counts[id] = (counts[id] as number) + 1;
      }
      for (const id of inField) {
        (terms[id] as SearchTermData).postings.push(toolIndex, fieldIndex, counts[id] as number);
        counts[id] = 0;
      }
      return fieldWords.length;
    }),
  );
  const byName = termNames.map((name, id) => [name, terms[id] as SearchTermData] as const).sort(([a], [b]) => byCodeUnit(a, b));
  return { format: SEARCH_INDEX_FORMAT, key: keyOfTexts(textsPerTool), fields: [...FIELDS], lengths, terms: Object.fromEntries(byName) };
}

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

/** The text of a package's `data/search-index.json` for its tool list: deterministic, no dates, LF, final newline. */
export function searchIndexFileText(tools: readonly ServedTool[]): string {
  return `${canonicalJson(buildSearchIndex(tools))}\n`;
}

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

/** Checks parsed JSON is well-formed SearchIndexData of this format; null when not (a caller then builds in memory). */
export function parseSearchIndex(value: unknown): SearchIndexData | null {
  if (!isObject(value) || value.format !== SEARCH_INDEX_FORMAT || typeof value.key !== 'string') return null;
  const { fields, lengths, terms } = value;
  if (!Array.isArray(fields) || fields.length !== FIELDS.length || fields.some((field, i) => field !== FIELDS[i])) return null;
  if (!Array.isArray(lengths) || !isObject(terms)) return null;
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
      if (!isCount(tool) || tool >= lengths.length || !isCount(field) || field >= FIELDS.length || !isCount(count) || count === 0) return null;
      // Postings run in tool order, then field order, each pair once: scoring relies on that order.
      if (tool < previousTool || (tool === previousTool && field <= previousField)) return null;
      previousTool = tool;
      previousField = field;
    }
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

/** One index term's postings, decoded for scoring: per tool holding it, its BM25F score and strongest field. */
interface TermPostings {
  surface: string;
  tools: Int32Array;
  scores: Float64Array;
  bestFields: Uint8Array;
}

interface SearchIndex {
  toolCount: number;
  /** Every indexed term, sorted by code unit, for prefix matching. */
  vocabulary: readonly string[];
  postings: ReadonlyMap<string, TermPostings>;
}

/** Decodes index data once, so that a query only reads precomputed per-term scores. */
function searchIndexOf(data: SearchIndexData): SearchIndex {
  const toolCount = data.lengths.length;
  const fieldCount = FIELDS.length;
  // BM25 length normalizer per tool and field, at `tool * fieldCount + field`.
  const normalizers = new Float64Array(toolCount * fieldCount);
  for (let field = 0; field < fieldCount; field += 1) {
    let total = 0;
    for (const row of data.lengths) total += row[field] as number;
    const averageLength = toolCount ? Math.max(total / toolCount, 1) : 1;
    for (let tool = 0; tool < toolCount; tool += 1) {
      normalizers[tool * fieldCount + field] = 1 - BM25_B + (BM25_B * ((data.lengths[tool] as number[])[field] as number)) / averageLength;
    }
  }
  const fieldWeights = Float64Array.from(FIELDS, (field) => FIELD_WEIGHTS[field]);
  const postings = new Map<string, TermPostings>();
  for (const [indexedTerm, termData] of Object.entries(data.terms)) {
    postings.set(indexedTerm, decodePostings(termData, toolCount, normalizers, fieldWeights));
  }
  return { toolCount, vocabulary: [...postings.keys()].sort(byCodeUnit), postings };
}

/**
 * BM25F per tool for one term: field-weighted, length-normalized term frequency, saturated once, times IDF; also the
 * field that contributed most. Fields are summed in FIELDS order so scores are bit-for-bit those of a full scan.
 */
function decodePostings(termData: SearchTermData, toolCount: number, normalizers: Float64Array, fieldWeights: Float64Array): TermPostings {
  const raw = termData.postings;
  let df = 0;
  for (let i = 0; i < raw.length; i += 3) if (i === 0 || raw[i] !== raw[i - 3]) df += 1;
  const tools = new Int32Array(df);
  const weightedFrequencies = new Float64Array(df);
  const bestFields = new Uint8Array(df);
  let slot = -1;
  let bestContribution = 0;
  for (let i = 0; i < raw.length; i += 3) {
    const tool = raw[i] as number;
    const field = raw[i + 1] as number;
    const contribution = ((fieldWeights[field] as number) * (raw[i + 2] as number)) / (normalizers[tool * fieldWeights.length + field] as number);
    if (slot < 0 || tools[slot] !== tool) {
      slot += 1;
      tools[slot] = tool;
      weightedFrequencies[slot] = contribution;
      bestFields[slot] = field;
      bestContribution = contribution;
    } else {
      weightedFrequencies[slot] = (weightedFrequencies[slot] as number) + contribution;
      if (contribution > bestContribution) {
        bestContribution = contribution;
        bestFields[slot] = field;
      }
    }
  }
  const idf = Math.log(1 + (toolCount - df + 0.5) / (df + 0.5));
  const scores = weightedFrequencies.map((wf) => (idf * wf * (BM25_K1 + 1)) / (BM25_K1 + wf));
  return { surface: termData.surface, tools, scores, bestFields };
}

const indexCache = new WeakMap<readonly ServedTool[], SearchIndex>();

/**
 * Serves searches over `tools` from prebuilt data (e.g. the package's `data/search-index.json`), when the data was
 * built from exactly these tools' searchable text. Returns whether it was taken; if not, the first search builds
 * the index in memory. Call it whenever the tool list is replaced (a live refresh may keep the same text).
 */
export function useSearchIndex(tools: readonly ServedTool[], data: SearchIndexData): boolean {
  if (data.format !== SEARCH_INDEX_FORMAT || data.lengths.length !== tools.length || data.key !== searchIndexKey(tools)) return false;
  indexCache.set(tools, searchIndexOf(data));
  return true;
}

const offeredIndexes = new WeakMap<readonly ServedTool[], () => SearchIndexData | null>();

/**
 * Offers prebuilt index data for `tools`, read and checked only when the first search needs it, so a server that
 * is never asked to search never pays for the file.
 */
export function offerSearchIndex(tools: readonly ServedTool[], load: () => SearchIndexData | null): void {
  offeredIndexes.set(tools, load);
}

/** Like readSearchIndexFile, synchronously: for the first search, which must answer without awaiting. */
export function readSearchIndexFileSync(url: URL): SearchIndexData | null {
  try {
    return parseSearchIndex(JSON.parse(readFileSync(url, 'utf8')));
  } catch {
    return null;
  }
}

function indexFor(tools: readonly ServedTool[], prebuilt: SearchIndexData | undefined): SearchIndex {
  let index = indexCache.get(tools);
  const data = index ? undefined : (prebuilt ?? offeredIndexes.get(tools)?.() ?? undefined);
  if (!index && data && useSearchIndex(tools, data)) index = indexCache.get(tools);
  if (!index) {
    index = searchIndexOf(buildSearchIndex(tools));
    indexCache.set(tools, index);
  }
  return index;
}

interface Expansion {
  term: string;
  weight: number;
  via: 'exact' | 'synonym' | 'prefix';
}

/** The index terms one query word may match: itself, its synonyms, and longer terms it is a prefix of. */
function expand(queryTerm: string, index: SearchIndex): Expansion[] {
  const expansions: Expansion[] = [{ term: queryTerm, weight: 1, via: 'exact' }];
  for (const synonym of SYNONYMS.get(queryTerm) ?? []) expansions.push({ term: synonym, weight: SYNONYM_WEIGHT, via: 'synonym' });
  if (queryTerm.length >= 3) {
    // Terms starting with the query term sit together in the sorted vocabulary, from its lower bound on.
    const { vocabulary } = index;
    let low = 0;
    let high = vocabulary.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((vocabulary[middle] as string) < queryTerm) low = middle + 1;
      else high = middle;
    }
    for (let i = low; i < vocabulary.length && (vocabulary[i] as string).startsWith(queryTerm); i += 1) {
      const candidate = vocabulary[i] as string;
      if (candidate !== queryTerm) expansions.push({ term: candidate, weight: PREFIX_WEIGHT, via: 'prefix' });
    }
  }
  return expansions;
}

/** Distinct meaningful query words (stop words dropped unless nothing else is left), in query order. */
function queryWords(query: string): string[] {
  const all = mergePhrases(words(query));
  const meaningful = all.filter((word) => !STOP_WORDS.has(word));
  const chosen = meaningful.length ? meaningful : all;
  const seenTerms = new Set<string>();
  return chosen.filter((word) => {
    const indexed = term(word);
    if (seenTerms.has(indexed)) return false;
    seenTerms.add(indexed);
    return true;
  });
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

interface Candidate {
  tool: number;
  score: number;
}

/**
 * Ranks tools for a prose or keyword query. Deterministic: equal scores fall back to slug code-unit order (then list
 * order). `prebuilt` is index data for exactly these tools; data for another list is ignored and the index is built.
 */
export function searchTools(tools: readonly ServedTool[], query: string, limit = 10, prebuilt?: SearchIndexData): SearchHit[] {
  const wordsOfQuery = queryWords(query);
  if (!wordsOfQuery.length || limit <= 0) return [];
  const index = indexFor(tools, prebuilt);
  const toolCount = index.toolCount;
  const totals = new Float64Array(toolCount);
  const matchedWords = new Uint32Array(toolCount);
  // Per query word, per tool: which expansion matched best (-1: none) and in which field.
  const matchedOptionsByWord: Int32Array[] = [];
  const matchedFieldsByWord: Uint8Array[] = [];
  const optionsByWord: Expansion[][] = [];
  const bestScores = new Float64Array(toolCount);
  const bestOptions = new Int32Array(toolCount);
  const bestFieldIndexes = new Uint8Array(toolCount);
  const matchedTools: number[] = [];
  for (const word of wordsOfQuery) {
    const options = expand(term(word), index);
    const touched: number[] = [];
    // Per tool, the best-scoring option wins; on a tie the earlier option (exact, then synonym, then prefix) stays.
    options.forEach((option, optionIndex) => {
      const postings = index.postings.get(option.term);
      if (!postings) return;
      for (let i = 0; i < postings.tools.length; i += 1) {
        const tool = postings.tools[i] as number;
        const weighted = (postings.scores[i] as number) * option.weight;
        if (weighted > (bestScores[tool] as number)) {
          if (bestScores[tool] === 0) touched.push(tool);
          bestScores[tool] = weighted;
          bestOptions[tool] = optionIndex;
          bestFieldIndexes[tool] = postings.bestFields[i] as number;
        }
      }
    });
    const matchedOptions = new Int32Array(toolCount).fill(-1);
    const matchedFields = new Uint8Array(toolCount);
    for (const tool of touched) {
      if (totals[tool] === 0) matchedTools.push(tool);
      totals[tool] = (totals[tool] as number) + (bestScores[tool] as number);
      matchedWords[tool] = (matchedWords[tool] as number) + 1;
      matchedOptions[tool] = bestOptions[tool] as number;
      matchedFields[tool] = bestFieldIndexes[tool] as number;
      bestScores[tool] = 0;
    }
    matchedOptionsByWord.push(matchedOptions);
    matchedFieldsByWord.push(matchedFields);
    optionsByWord.push(options);
  }

  const candidates: Candidate[] = matchedTools.map((tool) => {
    const coverage = (matchedWords[tool] as number) / wordsOfQuery.length;
    let score = (totals[tool] as number) * (0.4 + 0.6 * coverage);
    if (typeof (tools[tool] as ServedTool).manifest.deprecated === 'string') score *= DEPRECATED_FACTOR;
    return { tool, score: Math.round(score * 1000) / 1000 };
  });
  const ranksBefore = (a: Candidate, b: Candidate): number =>
    b.score - a.score || byCodeUnit((tools[a.tool] as ServedTool).slug, (tools[b.tool] as ServedTool).slug) || a.tool - b.tool;
  return topRanked(candidates, limit, ranksBefore).map(({ tool: toolIndex, score }) => {
    const tool = tools[toolIndex] as ServedTool;
    const reasons: string[] = [];
    wordsOfQuery.forEach((word, wordIndex) => {
      const option = optionsByWord[wordIndex]?.[matchedOptionsByWord[wordIndex]?.[toolIndex] ?? -1];
      if (!option) return;
      const field = FIELDS[matchedFieldsByWord[wordIndex]?.[toolIndex] ?? 0] as FieldName;
      const matchedAs = option.via === 'exact' ? word : `${word} (as ${index.postings.get(option.term)?.surface ?? option.term})`;
      reasons.push(`${matchedAs} in ${FIELD_LABELS[field]}`);
    });
    const counts = parameterCounts(tool);
    return {
      slug: tool.slug,
      name: String(tool.manifest.name ?? ''),
      description: String(tool.manifest.description ?? ''),
      score,
      reason: `matched: ${reasons.join(', ')}`,
      requiredParams: counts.required,
      totalParams: counts.total,
      withheld: tool.withheldReason !== null,
    };
  });
}

/** The first `limit` items in `compare` order, without sorting the rest: a bounded insertion into a sorted window. */
function topRanked<T>(items: readonly T[], limit: number, compare: (a: T, b: T) => number): T[] {
  const wanted = Math.min(items.length, Math.trunc(limit) || 0);
  if (wanted <= 0) return [];
  if (wanted === items.length) return [...items].sort(compare);
  const top: T[] = [];
  for (const item of items) {
    if (top.length === wanted && compare(item, top[wanted - 1] as T) >= 0) continue;
    let low = 0;
    let high = top.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compare(top[middle] as T, item) <= 0) low = middle + 1;
      else high = middle;
    }
    top.splice(low, 0, item);
    if (top.length > wanted) top.pop();
  }
  return top;
}
