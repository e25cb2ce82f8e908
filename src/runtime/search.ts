// Lexical intent search over the catalogue: BM25F over weighted fields with a small stemmer and dev-vocabulary synonyms.
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

/** The phrase each adjacent word pair forms, if any: `[index of first word, phrase]`. */
function phrasesIn(list: readonly string[]): [number, string][] {
  const found: [number, string][] = [];
  for (let index = 0; index + 1 < list.length; index += 1) {
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
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

/** Index term of one word: canonical abbreviation, then stem. */
export function term(word: string): string {
  const lower = word.toLowerCase();
  return stem(CANONICAL_WORDS[lower] ?? lower);
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

interface IndexedTool {
  tool: ServedTool;
  termFrequencies: Record<FieldName, Map<string, number>>;
  lengths: Record<FieldName, number>;
}

interface SearchIndex {
  tools: IndexedTool[];
  averageLengths: Record<FieldName, number>;
  documentFrequency: Map<string, number>;
  /** Every indexed term, sorted, for prefix matching. */
  vocabulary: string[];
  /** The first surface word seen for each term, to phrase reasons readably. */
  surface: Map<string, string>;
}

const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Names and descriptions of input fields, nested ones included (bounded depth; refs not followed). */
function collectFields(schema: unknown, names: string[], descriptions: string[], depth: number): void {
  if (!isObject(schema) || depth > 3) return;
  if (isObject(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) {
      names.push(name);
      if (isObject(property) && typeof property.description === 'string') descriptions.push(property.description);
      collectFields(property, names, descriptions, depth + 1);
    }
  }
  if (isObject(schema.items)) collectFields(schema.items, names, descriptions, depth + 1);
}

const indexCache = new WeakMap<readonly ServedTool[], SearchIndex>();

function buildIndex(tools: readonly ServedTool[]): SearchIndex {
  const surface = new Map<string, string>();
  const termsOf = (text: string): string[] =>
    withPhrases(words(text)).map((word) => {
      const indexed = term(word);
      if (!surface.has(indexed)) surface.set(indexed, word);
      return indexed;
    });
  const documentFrequency = new Map<string, number>();
  const indexed = tools.map((tool): IndexedTool => {
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
    const termFrequencies = {} as Record<FieldName, Map<string, number>>;
    const lengths = {} as Record<FieldName, number>;
    const seen = new Set<string>();
    for (const field of FIELDS) {
      const terms = termsOf(texts[field]);
      const counts = new Map<string, number>();
      for (const indexedTerm of terms) {
        counts.set(indexedTerm, (counts.get(indexedTerm) ?? 0) + 1);
        seen.add(indexedTerm);
      }
      termFrequencies[field] = counts;
      lengths[field] = terms.length;
    }
    for (const indexedTerm of seen) documentFrequency.set(indexedTerm, (documentFrequency.get(indexedTerm) ?? 0) + 1);
    return { tool, termFrequencies, lengths };
  });
  const averageLengths = {} as Record<FieldName, number>;
  for (const field of FIELDS) {
    const total = indexed.reduce((sum, entry) => sum + entry.lengths[field], 0);
    averageLengths[field] = indexed.length ? Math.max(total / indexed.length, 1) : 1;
  }
  const vocabulary = [...documentFrequency.keys()].sort();
  return { tools: indexed, averageLengths, documentFrequency, vocabulary, surface };
}

function indexFor(tools: readonly ServedTool[]): SearchIndex {
  let index = indexCache.get(tools);
  if (!index) {
    index = buildIndex(tools);
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
    for (const candidate of index.vocabulary) {
      if (candidate !== queryTerm && candidate.startsWith(queryTerm)) expansions.push({ term: candidate, weight: PREFIX_WEIGHT, via: 'prefix' });
    }
  }
  return expansions;
}

function inverseDocumentFrequency(index: SearchIndex, indexedTerm: string): number {
  const df = index.documentFrequency.get(indexedTerm) ?? 0;
  const n = index.tools.length;
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/** BM25F: field-weighted, length-normalized term frequency, saturated once. Also the field that contributed most. */
function termScore(index: SearchIndex, entry: IndexedTool, indexedTerm: string): { score: number; bestField: FieldName | null } {
  let weightedFrequency = 0;
  let bestField: FieldName | null = null;
  let bestContribution = 0;
  for (const field of FIELDS) {
    const frequency = entry.termFrequencies[field].get(indexedTerm) ?? 0;
    if (frequency === 0) continue;
    const normalizer = 1 - BM25_B + (BM25_B * entry.lengths[field]) / index.averageLengths[field];
    const contribution = (FIELD_WEIGHTS[field] * frequency) / normalizer;
    weightedFrequency += contribution;
    if (contribution > bestContribution) {
      bestContribution = contribution;
      bestField = field;
    }
  }
  if (weightedFrequency === 0) return { score: 0, bestField: null };
  const idf = inverseDocumentFrequency(index, indexedTerm);
  return { score: (idf * weightedFrequency * (BM25_K1 + 1)) / (BM25_K1 + weightedFrequency), bestField };
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

/** Ranks tools for a prose or keyword query. Deterministic: equal scores fall back to slug code-unit order. */
export function searchTools(tools: readonly ServedTool[], query: string, limit = 10): SearchHit[] {
  const index = indexFor(tools);
  const wordsOfQuery = queryWords(query);
  if (!wordsOfQuery.length || limit <= 0) return [];
  const expansions = wordsOfQuery.map((word) => ({ word, options: expand(term(word), index) }));
  const hits: SearchHit[] = [];
  for (const entry of index.tools) {
    let total = 0;
    let matchedWords = 0;
    const reasons: string[] = [];
    for (const { word, options } of expansions) {
      let best = { score: 0, field: null as FieldName | null, option: null as Expansion | null };
      for (const option of options) {
        const { score, bestField } = termScore(index, entry, option.term);
        const weighted = score * option.weight;
        if (weighted > best.score) best = { score: weighted, field: bestField, option };
      }
      if (best.score <= 0 || !best.field || !best.option) continue;
      total += best.score;
      matchedWords += 1;
      const matchedAs = best.option.via === 'exact' ? word : `${word} (as ${index.surface.get(best.option.term) ?? best.option.term})`;
      reasons.push(`${matchedAs} in ${FIELD_LABELS[best.field]}`);
    }
    if (total <= 0) continue;
    const coverage = matchedWords / wordsOfQuery.length;
    let score = total * (0.4 + 0.6 * coverage);
    if (typeof entry.tool.manifest.deprecated === 'string') score *= DEPRECATED_FACTOR;
    const counts = parameterCounts(entry.tool);
    hits.push({
      slug: entry.tool.slug,
      name: String(entry.tool.manifest.name ?? ''),
      description: String(entry.tool.manifest.description ?? ''),
      score: Math.round(score * 1000) / 1000,
      reason: `matched: ${reasons.join(', ')}`,
      requiredParams: counts.required,
      totalParams: counts.total,
      withheld: entry.tool.withheldReason !== null,
    });
  }
  hits.sort((a, b) => b.score - a.score || byCodeUnit(a.slug, b.slug));
  return hits.slice(0, limit);
}
