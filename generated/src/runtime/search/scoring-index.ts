// The index as a query reads it: each term's BM25F score per tool precomputed from the index data, with the
// tools' actions and name sizes that ranking weighs.
import type { ServedTool } from '../shared/contracts.js';
import {
  calledName,
  descriptionText,
  fieldTerms,
  FIELDS,
  groupWordsOf,
  headTerm,
  namesMany,
  requiredScopes,
  toolAction,
  words,
} from './analysis.js';
import type { SearchIndexData, SearchTermData } from './index-data.js';
import type { ActionKind } from './vocabulary.js';
import { byCodeUnit } from '../shared/order.js';
import { SHIPPED_LEVERS, type RankingLevers } from './levers.js';

const BM25_K1 = 1.2;
const BM25_B = 0.75;
export const NAME_FIELD = FIELDS.indexOf('name');
const SLUG_FIELD = FIELDS.indexOf('slug');
const LEAD_FIELD = FIELDS.indexOf('lead');
/** The fields that say what a tool is called and is for, whose length normalization is its own lever. */
const CALLED_FIELDS = new Set([SLUG_FIELD, NAME_FIELD, LEAD_FIELD]);

/** One index term's postings, decoded for scoring: per tool holding it, its BM25F score and strongest field. */
export interface TermPostings {
  surface: string;
  tools: Int32Array;
  scores: Float64Array;
  bestFields: Uint8Array;
  /**
   * 1 where the term is in the tool's name, or in its slug when it has no name of its own (one that only spells the
   * slug out): a named tool's slug also holds the path to it ("Delete a branch" is at …ProjectsIdRepositoryBranches…),
   * and what it sits under is not what it is called.
   */
  inName: Uint8Array;
  /** 1 where the term is in the tool's name, slug or summary: the text that says what the tool is. */
  inSummary: Uint8Array;
  /** The term's number in this index, for per-query bookkeeping without strings. */
  id: number;
  /** How rare the term is across the tools (BM25's IDF): how much a query word matched through it says. */
  idf: number;
}

/** An index decoded for queries: each term's per-tool scores precomputed, the vocabulary sorted for prefix search. */
export interface SearchIndex {
  toolCount: number;
  vocabulary: readonly string[];
  postings: ReadonlyMap<string, TermPostings>;
  synonyms: ReadonlyMap<string, readonly string[]>;
  related: ReadonlyMap<string, readonly string[]>;
  actions: readonly (ActionKind | null)[];
  /** Per tool, the number of distinct terms of its name (of its slug, when it has no name). */
  nameTerms: Uint16Array;
  /** Per tool, the term number of its name's head noun (see headTerm), -1 when none. */
  heads: Int32Array;
  /** Per tool, 1 when its name acts on many at once ("Mark notifications as read", "Delete collection of jobs"). */
  many: Uint8Array;
  /** Per tool, 1 when its description's first line says it is deprecated ("… deprecated: use … instead"). */
  deprecatedInText: Uint8Array;
  /** Per tool, per thing it needs picked out by an identifier (requiredScopes), the term numbers naming it (-1: none). */
  scopes: readonly (readonly Int32Array[])[];
  /**
   * Initials of three adjacent words of tool names → those words' two adjacent pairs (bigram terms): "crd" →
   * custom_resourc, resourc_definit. Built on first use, from this catalogue's own names.
   */
  initialisms(): ReadonlyMap<string, readonly string[]>;
}

/**
 * Initials of the three-word runs of `bigramTerms` (each `first_second`): two pairs that chain (`a_b`, `b_c`), when
 * `together` says enough tools hold both.
 */
export function initialismsOf(bigramTerms: readonly string[], together: (first: string, second: string) => boolean): Map<string, string[]> {
  const pairs = bigramTerms
    .map((pair) => [pair, ...pair.split('_')] as const)
    .filter((parts): parts is readonly [string, string, string] => parts.length === 3 && /^[a-z]+$/.test(`${parts[1]}${parts[2]}`));
  const startingWith = new Map<string, (typeof pairs)[number][]>();
  for (const pair of pairs) {
    const list = startingWith.get(pair[1]);
    if (list === undefined) startingWith.set(pair[1], [pair]);
    else list.push(pair);
  }
  const found = new Map<string, Set<string>>();
  for (const [pair, first, second] of pairs) {
    for (const [next, , third] of startingWith.get(second) ?? []) {
      if (!together(pair, next)) continue;
      const key = `${first[0]}${second[0]}${third[0]}`;
      const terms = found.get(key) ?? new Set<string>();
      found.set(key, terms.add(pair).add(next));
    }
  }
  return new Map([...found].map(([key, terms]) => [key, [...terms].sort(byCodeUnit)]));
}

/**
 * Whether two terms' postings name at least two tools in common: an abbreviation names a thing several operations
 * share (create, read, list… a CRD), where three initials met in one name are as likely chance.
 */
function shareTools(first: TermPostings | undefined, second: TermPostings | undefined): boolean {
  if (first === undefined || second === undefined) return false;
  const tools = new Set(first.tools);
  let shared = 0;
  for (const tool of second.tools) if (tools.has(tool) && ++shared >= 2) return true;
  return false;
}

/** Decodes index data once, so that a query only reads precomputed per-term scores. */
export function decodeSearchIndex(
  data: SearchIndexData,
  tools: readonly ServedTool[],
  levers: RankingLevers = SHIPPED_LEVERS,
): SearchIndex {
  const toolCount = data.lengths.length;
  const fieldCount = FIELDS.length;
  // BM25 length normalizer per tool and field, at `tool * fieldCount + field`.
  const normalizers = new Float64Array(toolCount * fieldCount);
  for (let field = 0; field < fieldCount; field += 1) {
    let total = 0;
    for (const row of data.lengths) total += row[field] as number;
    const averageLength = toolCount ? Math.max(total / toolCount, 1) : 1;
    for (let tool = 0; tool < toolCount; tool += 1) {
      const b = CALLED_FIELDS.has(field) ? levers.calledLengthNormalization : BM25_B;
      normalizers[tool * fieldCount + field] = 1 - b + (b * ((data.lengths[tool] as number[])[field] as number)) / averageLength;
    }
  }
  const fieldWeights = Float64Array.from(FIELDS, (field) => levers.fieldWeights[field]);
  // 1 for a tool with a name of its own: the index leaves the name field empty when it only spells the slug out.
  const named = Uint8Array.from(data.lengths, (row) => ((row[NAME_FIELD] as number) > 0 ? 1 : 0));
  const postings = new Map<string, TermPostings>();
  for (const indexedTerm of Object.keys(data.terms)) {
    postings.set(
      indexedTerm,
      decodePostings(data.terms[indexedTerm] as SearchTermData, toolCount, normalizers, fieldWeights, postings.size, named),
    );
  }
  const synonyms = new Map(Object.keys(data.synonyms).map((key) => [key, data.synonyms[key] as string[]]));
  const related = new Map(Object.keys(data.related).map((key) => [key, data.related[key] as string[]]));
  // What each tool is called (its name's first sentence) and its description as plain text, found once for all that reads them.
  const names = tools.map(calledName);
  const descriptions = tools.map(descriptionText);
  const actions = tools.map((tool, i) =>
    toolAction(
      names[i] as string,
      tool.slug,
      descriptions[i] as string,
      levers.annotationsCorrectAction ? tool.manifest.annotations : undefined,
      levers.readOnlyMeansRead,
    ),
  );
  const nameTerms = Uint16Array.from(tools, (tool, i) => new Set(fieldTerms('name', (names[i] as string) || tool.slug)).size);
  const heads = Int32Array.from(tools, (tool, i) => {
    const head = headOfName(names[i] as string, tool.slug);
    return head === null ? -1 : (postings.get(head)?.id ?? -1);
  });
  const many = Uint8Array.from(tools, (tool, i) => (namesMany(names[i] as string, tool.slug, groupWordsOf(tool)) ? 1 : 0));
  const deprecatedInText = Uint8Array.from(descriptions, (description) =>
    /\bdeprecated\b/i.test(description.split('\n')[0] ?? '') ? 1 : 0,
  );
  const scopes = narrowingScopes(tools).map((list) =>
    list.map((scope) => Int32Array.from(scope, (scopeTerm) => postings.get(scopeTerm)?.id ?? -1)),
  );
  let initialisms: Map<string, string[]> | undefined;
  return {
    toolCount,
    vocabulary: [...postings.keys()].filter((name) => !name.includes('_')).sort(byCodeUnit),
    initialisms: () =>
      (initialisms ??= initialismsOf([...postings.keys()].filter((name) => name.includes('_')).sort(byCodeUnit), (first, second) =>
        shareTools(postings.get(first), postings.get(second)),
      )),
    postings,
    synonyms,
    related,
    actions,
    nameTerms,
    heads,
    many,
    deprecatedInText,
    scopes,
  };
}

/** The share of a catalogue's tools past which a thing they need picked out is where all of them sit, not a narrowing. */
const AMBIENT_SHARE = 0.1;

/**
 * Per tool, the things it needs picked out (requiredScopes), less those that a tenth of the catalogue or more needs:
 * the user or account a whole API hangs from narrows nothing ("set up a webinar" needs the host's user id).
 */
function narrowingScopes(tools: readonly ServedTool[]): string[][][] {
  const perTool = tools.map(requiredScopes);
  const needing = new Map<string, number>();
  for (const list of perTool)
    for (const scope of new Set(list.map((terms) => terms.join(' ')))) needing.set(scope, (needing.get(scope) ?? 0) + 1);
  const ambient = (scope: string[]): boolean => (needing.get(scope.join(' ')) ?? 0) >= AMBIENT_SHARE * tools.length;
  return perTool.map((list) => list.filter((scope) => !ambient(scope)));
}

/** Quantity words that lead a name before what it counts ("Get a LIST of group issues", "Get ALL of a repo's labels"). */
const QUANTITY_WORDS = new Set(['list', 'all', 'set', 'number', 'collection']);

/**
 * The head noun of a tool's name (headTerm); when the name says only how many before its first "of" or "for"
 * ("Get a list of group issues"), the head of what follows.
 */
function headOfName(name: string, slug: string): string | null {
  const head = headTerm(name, slug);
  if (head !== null || name === '') return head;
  const list = words(name);
  const cut = list.findIndex((word, position) => position > 0 && (word === 'of' || word === 'for'));
  if (cut === -1 || !list.slice(0, cut).some((word) => QUANTITY_WORDS.has(word))) return null;
  return headTerm(list.slice(cut + 1).join(' '), '');
}

/**
 * BM25F per tool for one term: field-weighted, length-normalized term frequency, saturated once, times IDF; also the
 * field that contributed most. Fields are summed in FIELDS order so scores do not depend on how the data was read.
 */
function decodePostings(
  termData: SearchTermData,
  toolCount: number,
  normalizers: Float64Array,
  fieldWeights: Float64Array,
  id: number,
  named: Uint8Array,
): TermPostings {
  const raw = termData.postings;
  let df = 0;
  for (let i = 0; i < raw.length; i += 3) if (i === 0 || raw[i] !== raw[i - 3]) df += 1;
  const tools = new Int32Array(df);
  const weightedFrequencies = new Float64Array(df);
  const bestFields = new Uint8Array(df);
  const inName = new Uint8Array(df);
  const inSummary = new Uint8Array(df);
  let slot = -1;
  let bestContribution = 0;
  for (let i = 0; i < raw.length; i += 3) {
    const tool = raw[i] as number;
    const field = raw[i + 1] as number;
    const contribution =
      ((fieldWeights[field] as number) * (raw[i + 2] as number)) / (normalizers[tool * fieldWeights.length + field] as number);
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
    if (field === NAME_FIELD || (field === SLUG_FIELD && named[tool] === 0)) inName[slot] = 1;
    if (field === NAME_FIELD || field === SLUG_FIELD || field === LEAD_FIELD) inSummary[slot] = 1;
  }
  const idf = Math.log(1 + (toolCount - df + 0.5) / (df + 0.5));
  const scores = weightedFrequencies.map((wf) => (idf * wf * (BM25_K1 + 1)) / (BM25_K1 + wf));
  return { surface: termData.surface, tools, scores, bestFields, inName, inSummary, id, idf };
}
