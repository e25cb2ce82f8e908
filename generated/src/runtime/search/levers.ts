// The ranking's weights in one place, as the server ships them; the search bench passes other values to measure each,
// and its lever search (`npm run bench:search -- --tune`) finds them.
import type { FieldName } from './analysis.js';

export interface RankingLevers {
  /** BM25F field weights: what a tool is called outranks the sentence that says what it does, which outranks its prose. */
  fieldWeights: Readonly<Record<FieldName, number>>;
  /**
   * BM25's length normalization (b) for the slug, name and summary; the other fields keep 0.75. Nearer 1, a word in a
   * short name counts for more than the same word in a long one: "Get fields" is more about fields than "Get all
   * screen tab fields".
   */
  calledLengthNormalization: number;
  handSynonymWeight: number;
  wordnetSynonymWeight: number;
  /**
   * Weight of a word of a lexical definition of the tool's word ("money" for "refund"), when the index has that table.
   * 0 as shipped: on the pooled tuning halves of the six evaluation sets it cost more than it found.
   */
  relatedWeight: number;
  /** Share kept by a second step of expansion (a hand synonym's WordNet forms). */
  twoStep: number;
  /** Share of a hand synonym's weight for a person word matched by "who". */
  personShare: number;
  /** Multiplier for a tool whose name holds the query's first word (when that word is not a plain action verb). */
  leadInName: number;
  /** The factor for a tool whose name and summary explain none of the query; one that explains all of it has 1. */
  summaryCoverageFloor: number;
  /** Weight of a caller word ("current", "authenticated") matched for "my", "me" or "I". */
  selfWeight: number;
  /** Multiplier for a tool whose name's head noun the query names. */
  headMatch: number;
  /**
   * Instead, the factor for a tool whose head noun the query names only after a preposition, as the context of what
   * it asks about ("upload a binary TO A RELEASE" is not "Create a release"); also the share of its score such a
   * context word's match brings. 1: off.
   */
  contextHead: number;
  prefixWeight: number;
  /**
   * Weight of a name's word pairs for a three-letter query word the index lacks that is their initials ("CRDs" →
   * "Custom Resource Definition"), as the catalogue's own names spell them. 0: off.
   */
  initialismWeight: number;
  /** Weight of an adjacent query-word pair found as a pair in a tool's name or summary. */
  bigramWeight: number;
  deprecatedFactor: number;
  /** Multipliers for a tool whose action agrees with the query's verb, and for one that does something else. */
  actionAgrees: number;
  actionDiffers: number;
  /**
   * The factor for a reading or listing tool when the query opens with a verb the action words lack, before its object
   * ("scale my deployment", "kick a user out"): such a verb asks to do something, not to look. 1: off.
   */
  otherVerbReads: number;
  /** The factor for a deleting tool when the query names no action ("follow an issue" is not "Delete watcher"). 1: off. */
  unaskedDelete: number;
  /** The factor for a tool none of whose name the query accounts for; a fully accounted name has 1. */
  nameCoverageFloor: number;
  /** Weight of a query's action verb as a plain term: the action factor carries its meaning. */
  actionTermWeight: number;
  /** Share of that weight for another verb of the same action. */
  sameActionShare: number;
  /** Coverage weighs each query word by the rarity (IDF) of what it matches; false: every word weighs 1. */
  rarityCoverage: boolean;
  /** Annotations (read-only, destructive) correct the action read from a tool's text. */
  annotationsCorrectAction: boolean;
  /**
   * Among those corrections, a read-only tool whose text says another action reads. Off as shipped: it turned
   * "watch" tools into reads and cost a query on the pooled tuning halves, gaining none.
   */
  readOnlyMeansRead: boolean;
  /** Share of coverage (and of the name/summary second look) a word matched only through a synonym or prefix brings. */
  synonymCoverage: number;
  /**
   * Share of coverage a word found only among a tool's input fields brings: what a tool takes says less about what it
   * is ("delete a branch protection rule" is not the create tool whose parameters hold "rule"). 1: off.
   */
  inputFieldCoverage: number;
  /** How much coverage drives the score: score × (1 − s + s × coverage²). */
  coverageShare: number;
  /**
   * The factor for a tool that acts on many at once ("Mark notifications as read", "Delete collection of jobs"), other
   * than by reading or listing, when the query is about many (a plural object, "all", "bulk"). 1: off.
   */
  manyAgrees: number;
  /**
   * Share of its match a query word brings when another query word already matched the same term of the tool ("tag
   * an issue as a bug": "bug" reaching "tag", or "issue", again); the larger of the two counts in full. 1: off.
   */
  sharedTermShare: number;
  /**
   * Share of its score left to a tool whose name's head noun three better hits already have, so that the first hits
   * are not all one kind of tool ("time tracked on an issue": a fourth time-tracking setting yields). 1: off.
   */
  repeatedHead: number;
  /** A query whose object is plural ("show me the pods") asks for a list, unless its verb says another action. */
  pluralMeansList: boolean;
  /** A tool whose description's first line says it is deprecated counts as deprecated. */
  deprecatedInText: boolean;
  /**
   * The factor, per thing a tool needs picked out by a required identifier that the query does not name ("list all
   * fields" is not "Get all screen tab fields", which needs a screen and a tab). 1: off.
   */
  unnamedScope: number;
}

/**
 * The numbers as `npm run bench:search -- --tune` (test/bench/search-tune.ts) leaves them, started from the values
 * before it, on the pooled tuning halves of the six evaluation sets; rerun it after a change to the vocabulary or index.
 */
export const SHIPPED_LEVERS: RankingLevers = {
  fieldWeights: { slug: 4, name: 4, lead: 4, tags: 1.5, fieldNames: 0.625, description: 0.6, fieldDescriptions: 0.3, bigrams: 3 },
  calledLengthNormalization: 0.9,
  handSynonymWeight: 0.8,
  wordnetSynonymWeight: 0.5,
  relatedWeight: 0,
  twoStep: 0.5,
  personShare: 0.3,
  leadInName: 1.5,
  summaryCoverageFloor: 0.3,
  selfWeight: 0.938,
  headMatch: 1.25,
  contextHead: 0.77,
  prefixWeight: 0.175,
  initialismWeight: 0.5,
  bigramWeight: 0.88,
  deprecatedFactor: 0.72,
  actionAgrees: 1.688,
  actionDiffers: 0.8,
  otherVerbReads: 0.2,
  unaskedDelete: 0.8,
  nameCoverageFloor: 0.36,
  actionTermWeight: 0.3,
  sameActionShare: 0.99,
  rarityCoverage: true,
  annotationsCorrectAction: true,
  readOnlyMeansRead: false,
  synonymCoverage: 0.75,
  inputFieldCoverage: 0.75,
  coverageShare: 0.81,
  manyAgrees: 1.4,
  sharedTermShare: 0.5,
  repeatedHead: 0.7,
  pluralMeansList: true,
  deprecatedInText: true,
  unnamedScope: 0.85,
};
