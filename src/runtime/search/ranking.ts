// Ranking: BM25F over weighted fields with query expansion (hand and WordNet synonyms, verbs of one action, prefixes,
// adjacent-word pairs), coverage by rare words, then what the name and summary explain, the name's head noun (named as
// the query's object, or only as its context after a preposition) and first word, the query verb's (or plural object's,
// or unknown leading verb's) agreement with the tool's action, and deprecation. Weights: levers.ts.
import { parameterCounts, requiredFields } from '../schema/call-shape.js';
import type { ServedTool } from '../shared/contracts.js';
import {
  bigram,
  descriptionText,
  FIELDS,
  HAND_SYNONYMS,
  isActionAt,
  isActionTerm,
  MANY_WORDS,
  isPlural,
  mergePhrases,
  sameActionTerms,
  queryAction,
  statesChanged,
  verbsOfPastForms,
  term,
  termAction,
  words,
  type FieldName,
} from './analysis.js';
import { NAME_FIELD, type SearchIndex } from './scoring-index.js';
import {
  CANONICAL_WORDS,
  INSTANCE_NAMES,
  PERSON_QUESTION_WORDS,
  PERSON_WORDS,
  SELF_WORDS,
  SELF_TOOL_WORDS,
  STOP_WORDS,
  WHO_WHICH_WORDS,
  type ActionKind,
} from './vocabulary.js';
import { byCodeUnit } from '../shared/order.js';
import { SHIPPED_LEVERS, type RankingLevers } from './levers.js';

export interface SearchHit {
  slug: string;
  name: string;
  description: string;
  /** The description's first line: what the tool is for. */
  purpose: string;
  score: number;
  /** One line, e.g. "matched: env in slug, validate in description". */
  reason: string;
  /** The query words that matched, each as the word of the tool it matched. */
  matched: string[];
  /** Share of the query's words (its action verb aside) that this tool matched, 0 to 1. */
  coverage: number;
  requiredParams: number;
  totalParams: number;
  /** Names of the required input fields. */
  required: string[];
  /** From the tool's annotations; null when the catalogue does not say. */
  readOnly: boolean | null;
  destructive: boolean | null;
  deprecated: boolean;
  withheld: boolean;
  /** Scores within a few percent of the hit above or below: read both before choosing. */
  nearTie: boolean;
}

const FIELD_LABELS: Readonly<Record<FieldName, string>> = {
  slug: 'slug',
  name: 'name',
  lead: 'summary',
  tags: 'category',
  fieldNames: 'input fields',
  description: 'description',
  fieldDescriptions: 'input field descriptions',
  bigrams: 'name',
};
const PERSON_QUESTION_TERMS = new Set(PERSON_QUESTION_WORDS.map(term));
const CANONICAL_TERMS = new Set(Object.values(CANONICAL_WORDS).map(term));
const PERSON_TERMS = [...new Set(PERSON_WORDS.map(term))];
const SELF_TERMS = [...new Set(SELF_TOOL_WORDS.map(term))];
/** The caller's words that say whose a thing is ("MY repo"), not who is meant. */
const POSSESSIVE_SELF_WORDS = new Set(['my', 'mine']);
/** The fields that say what a tool takes, not what it is. */
const INPUT_FIELDS = new Set([FIELDS.indexOf('fieldNames'), FIELDS.indexOf('fieldDescriptions')]);
/** Distinct name terms tracked per tool: names rarely have more that a query could match. */
const NAME_SLOTS = 8;
/** Two hits whose scores differ by less than this share of the higher one are a near tie. */
const NEAR_TIE_SHARE = 0.05;

interface Expansion {
  term: string;
  weight: number;
  via: 'exact' | 'synonym' | 'prefix';
}

/** The index terms one query term may match: itself, its synonyms, and longer terms it is a prefix of. */
function expand(queryTerm: string, index: SearchIndex, asAction: boolean, L: RankingLevers, kind?: string): Expansion[] {
  if (PERSON_QUESTION_TERMS.has(queryTerm)) {
    // "who starred my repo": the people a tool lists, besides the list action the word asks for.
    return [
      { term: queryTerm, weight: L.actionTermWeight, via: 'exact' as const },
      ...(L.personShare > 0 ? PERSON_TERMS : []).map((person) => ({
        term: person,
        weight: L.handSynonymWeight * L.personShare,
        via: 'synonym' as const,
      })),
    ];
  }
  if (asAction) {
    // Any verb of the same action counts ("remove" finds "Delete issue"), at the action term's weight.
    return [
      { term: queryTerm, weight: L.actionTermWeight, via: 'exact' as const },
      ...(L.sameActionShare > 0 ? sameActionTerms(queryTerm) : []).map((other) => ({
        term: other,
        weight: L.actionTermWeight * L.sameActionShare,
        via: 'synonym' as const,
      })),
    ];
  }
  const expansions: Expansion[] = [{ term: queryTerm, weight: 1, via: 'exact' }];
  const seen = new Set([queryTerm]);
  const add = (candidate: string, weight: number, via: Expansion['via']): void => {
    if (weight <= 0 || seen.has(candidate)) return;
    seen.add(candidate);
    expansions.push({ term: candidate, weight, via });
  };
  // "a merge request, file by file", "list open issues": an action word standing as a noun or adjective keeps its
  // synonyms of that sense ("attachment"), not those of the verb ("new", "create").
  const asNoun = isActionTerm(queryTerm);
  const hand = [
    ...(kind === undefined ? [] : [kind]),
    ...(HAND_SYNONYMS.get(queryTerm) ?? []).filter((synonym) => !asNoun || !isActionTerm(synonym)),
  ];
  for (const synonym of hand) add(synonym, L.handSynonymWeight, 'synonym');
  // "unwatch", "unstar": a verb the catalogue lacks, undoing one it has, stands for that verb (the action says undo).
  const undone = undoneTerm(queryTerm, index);
  if (undone !== undefined) {
    add(undone, L.handSynonymWeight, 'synonym');
    for (const form of index.synonyms.get(undone) ?? []) add(form, L.handSynonymWeight * L.wordnetSynonymWeight, 'synonym');
  }
  for (const synonym of index.synonyms.get(queryTerm) ?? []) add(synonym, L.wordnetSynonymWeight, 'synonym');
  // A hand synonym's own WordNet forms ("follow" → "watch" → "watcher"), one step further, at both weights.
  // That step further is worth no more for being rarer than the word and its hand synonyms: "bug" is an issue, not a
  // tag by way of "ticket" in an issue tracker, where "issue" is everywhere and "tag" rare.
  const nearest = Math.max(0, ...[queryTerm, ...hand].map((other) => index.postings.get(other)?.idf ?? 0));
  for (const synonym of hand)
    for (const form of index.synonyms.get(synonym) ?? []) {
      const rarity = index.postings.get(form)?.idf ?? 0;
      const cap = nearest > 0 && rarity > nearest ? nearest / rarity : 1;
      add(form, L.handSynonymWeight * L.wordnetSynonymWeight * L.twoStep * cap, 'synonym');
    }
  for (const other of index.related.get(queryTerm) ?? []) add(other, L.relatedWeight, 'synonym');
  // "CRDs" in a catalogue that spells it out: a short word the index lacks stands for the name words it abbreviates.
  // Three letters: two match too many pairs by chance, and a canonical short form ("ts" for "typescript") is no initialism.
  if (
    L.initialismWeight > 0 &&
    /^[a-z]{3}$/.test(queryTerm) &&
    !CANONICAL_TERMS.has(queryTerm) &&
    !index.postings.has(queryTerm) &&
    !index.synonyms.has(queryTerm)
  )
    for (const pair of index.initialisms().get(queryTerm) ?? []) add(pair, L.initialismWeight, 'synonym');
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
    for (let i = low; i < vocabulary.length && (vocabulary[i] as string).startsWith(queryTerm); i += 1)
      add(vocabulary[i] as string, L.prefixWeight, 'prefix');
  }
  return expansions;
}

/** For "unwatch" in a catalogue that has "watch" but not "unwatch": "watch". */
function undoneTerm(queryTerm: string, index: SearchIndex): string | undefined {
  if (!queryTerm.startsWith('un') || queryTerm.length < 6 || index.postings.has(queryTerm)) return undefined;
  const rest = queryTerm.slice(2);
  return index.postings.has(rest) || index.synonyms.has(rest) ? rest : undefined;
}

/** The query's words that carry intent (stop words dropped unless nothing else is left), phrases merged. */
export function queryWords(query: string): string[] {
  return meaningfulWords(mergePhrases(words(query)));
}

/** queryWords of a query already split and its phrases merged. */
function meaningfulWords(all: readonly string[]): string[] {
  const meaningful = all.filter((word) => !STOP_WORDS.has(word));
  return meaningful.length ? meaningful : [...all];
}

interface Candidate {
  tool: number;
  score: number;
  coverage: number;
}

/** One query word's contribution, per tool: the best expansion's score, which expansion, and in which field. */
interface WordMatches {
  word: string;
  options: Expansion[];
  option: Int32Array;
  field: Uint8Array;
}

/** Ranks tools of `index` (built from exactly `tools`) for a prose or keyword query. Equal scores go by slug. */
export function rankTools(
  tools: readonly ServedTool[],
  index: SearchIndex,
  query: string,
  limit: number,
  L: RankingLevers = SHIPPED_LEVERS,
): SearchHit[] {
  // The query split once: as written (the caller and imperative reads), and with its phrases merged (the rest).
  // The state first: "make the page HIDDEN" says a state before "hidden" reads as the verb "hide".
  const plainWords = verbsOfPastForms(statesChanged(words(namingFiles(query))));
  const merged = callerAsked(mergePhrases(plainWords));
  const all = meaningfulWords(merged);
  const seenTerms = new Set<string>();
  const chosen = all.filter((word) => {
    const indexed = term(word);
    if (seenTerms.has(indexed)) return false;
    seenTerms.add(indexed);
    return true;
  });
  if (!chosen.length || limit <= 0) return [];
  const toolCount = index.toolCount;
  const totals = new Float64Array(toolCount);
  const matchedWords = new Float64Array(toolCount);
  let coverageTotal = 0;
  const bestScores = new Float64Array(toolCount);
  const bestOptions = new Int32Array(toolCount);
  const bestFieldIndexes = new Uint8Array(toolCount);
  const bestInName = new Uint8Array(toolCount);
  // Per tool: the first name term an option of the current word reached, and the distinct name terms matched so far.
  const nameTermOf = new Int32Array(toolCount).fill(-1);
  const nameTermIds = new Int32Array(toolCount * NAME_SLOTS);
  const nameTermCounts = new Uint8Array(toolCount);
  const headMatched = new Uint8Array(toolCount);
  const inSummary = new Float64Array(toolCount);
  const summaryMatched = new Float64Array(toolCount);
  const matchedTools: number[] = [];
  // Per tool: the terms its query words matched so far, with the score and coverage each was credited.
  const credited: Array<{ ids: number[]; scores: number[]; covers: number[] } | undefined> = new Array(toolCount);
  const perWord: WordMatches[] = [];
  const clause = clauseTermsOf(merged);
  // "what did this commit CHANGE": in a question about what is or was so, a later verb other than one of reading names
  // what is asked about (its changes), not an action to take.
  const asksWhatIs = questionAction(plainWords) !== null;
  const actionAt = chosen.map(
    (word, position) =>
      isActionAt(term(word), position) &&
      !clause.has(term(word)) &&
      !(asksWhatIs && position > 0 && termAction(term(word)) !== 'read' && termAction(term(word)) !== 'list'),
  );
  const intentWords = actionAt.filter((action) => !action).length;
  // The query's first word, unless it names a plain action: what it asks to do ("cancel", "capture") or see.
  const leadWord = actionAt[0] === false ? chosen[0] : undefined;
  const leadInName = new Uint8Array(toolCount);
  // "comment on an issue", "star the repo": a leading word that is no action verb yet acts on what follows it, naming
  // a thing, asks to add that thing (for a tool whose head noun it is).
  const verbNoun = leadWord !== undefined && plainWords[0] === leadWord && actsOn(plainWords) ? leadWord : undefined;
  const leadIsHead = new Uint8Array(toolCount);
  const contextTerms = L.contextHead < 1 ? contextTermsOf(merged) : new Set<string>();
  // The term numbers the query's words name, as written or through a synonym.
  const namedTerms = new Set<number>();
  for (const [position, word] of chosen.entries()) {
    const actionWord = actionAt[position] === true;
    // "who can this ticket be given to": the people asked for are what a tool about users or members is about.
    const asksForPeople = PERSON_QUESTION_TERMS.has(term(word));
    const inContext = contextTerms.has(term(word));
    const kindTerm = Object.hasOwn(INSTANCE_NAMES, word) ? term(INSTANCE_NAMES[word] as string) : undefined;
    const options = expand(term(word), index, actionWord, L, kindTerm !== undefined && !seenTerms.has(kindTerm) ? kindTerm : undefined);
    const touched: number[] = [];
    // Each option's term number, looked up once for every tool it reaches.
    const optionIds = options.map((option) => index.postings.get(option.term)?.id ?? -1);
    options.forEach((option, optionIndex) => {
      if (option.via !== 'prefix') namedTerms.add(optionIds[optionIndex] as number);
    });
    // Per tool, the best-scoring option wins; on a tie the earlier option (exact, then synonym, then prefix) stays.
    options.forEach((option, optionIndex) => {
      const postings = index.postings.get(option.term);
      if (!postings) return;
      for (let i = 0; i < postings.tools.length; i += 1) {
        const tool = postings.tools[i] as number;
        // A word naming only where the object is ("report a bug IN A REPO") says less than the object itself.
        const weighted = (postings.scores[i] as number) * option.weight * (inContext ? L.contextHead : 1);
        // The word is in the tool's name through any of its options, even when another field scored higher.
        if (postings.inName[i] === 1 && option.via !== 'prefix' && nameTermOf[tool] === -1) nameTermOf[tool] = postings.id;
        // 1: the head is what the query asks about; 2: only what it is about sits in ("… to a release").
        if (postings.id === index.heads[tool] && (!actionWord || asksForPeople) && option.via !== 'prefix') {
          headMatched[tool] = inContext && headMatched[tool] !== 1 ? 2 : 1;
          if (word === verbNoun) leadIsHead[tool] = 1;
        }
        if (postings.inSummary[i] === 1 && option.via !== 'prefix')
          inSummary[tool] = Math.max(inSummary[tool] as number, option.via === 'exact' ? 1 : L.synonymCoverage);
        if (weighted > (bestScores[tool] as number)) {
          if (bestScores[tool] === 0) touched.push(tool);
          bestScores[tool] = weighted;
          bestOptions[tool] = optionIndex;
          bestFieldIndexes[tool] = postings.bestFields[i] as number;
          bestInName[tool] = postings.inName[i] as number;
        }
      }
    });
    // How much this word says: the rarity of what it matches, so "refund" counts for more coverage than "customer".
    let rarity = 0;
    let prefixRarity = 0;
    for (const candidate of options) {
      const found = index.postings.get(candidate.term);
      if (found === undefined) continue;
      if (candidate.via === 'prefix') prefixRarity = Math.max(prefixRarity, found.idf);
      else rarity = Math.max(rarity, found.idf);
    }
    // A word the catalogue does not know at all weighs as the rarest would.
    const wordWeight = L.rarityCoverage ? rarity || prefixRarity || Math.log(1 + toolCount) : 1;
    if (!actionWord || intentWords === 0) coverageTotal += wordWeight;
    const option = new Int32Array(toolCount).fill(-1);
    const field = new Uint8Array(toolCount);
    for (const tool of touched) {
      if (totals[tool] === 0) matchedTools.push(tool);
      // A word matched only through a synonym or a prefix covers the query less than one matched as written, and one
      // found only among the tool's input fields ("rule" in a create tool's parameters) less than one in what the
      // tool is; the action verb counts through the action factor instead, unless the query has no other word.
      let score = bestScores[tool] as number;
      let cover =
        !actionWord || intentWords === 0
          ? wordWeight *
            (bestOptions[tool] === 0 ? 1 : L.synonymCoverage) *
            (INPUT_FIELDS.has(bestFieldIndexes[tool] as number) ? L.inputFieldCoverage : 1)
          : 0;
      // "tag an issue as a bug": words reaching one and the same term of the tool ("issue", "bug" as "tag") are one
      // match, credited once in full and the rest at a share.
      if (L.sharedTermShare < 1 && !actionWord) {
        const id = optionIds[bestOptions[tool] as number] as number;
        let seen = credited[tool];
        if (seen === undefined) {
          seen = { ids: [], scores: [], covers: [] };
          credited[tool] = seen;
        }
        const slot = seen.ids.indexOf(id);
        if (slot === -1) {
          seen.ids.push(id);
          seen.scores.push(score);
          seen.covers.push(cover);
        } else {
          const lastScore = seen.scores[slot] as number;
          const lastCover = seen.covers[slot] as number;
          seen.scores[slot] = Math.max(score, lastScore) + L.sharedTermShare * Math.min(score, lastScore);
          seen.covers[slot] = Math.max(cover, lastCover) + L.sharedTermShare * Math.min(cover, lastCover);
          score = (seen.scores[slot] as number) - lastScore;
          cover = (seen.covers[slot] as number) - lastCover;
        }
      }
      totals[tool] = (totals[tool] as number) + score;
      matchedWords[tool] = (matchedWords[tool] as number) + cover;
      const nameTerm = bestInName[tool] === 1 ? (optionIds[bestOptions[tool] as number] as number) : (nameTermOf[tool] as number);
      if (nameTerm !== -1 && !actionWord) {
        // Each term of the name counts once, however many query words it answers ("bug ticket" → "issue").
        const count = nameTermCounts[tool] as number;
        let seen = false;
        for (let slot = 0; slot < count && !seen; slot += 1) seen = nameTermIds[tool * NAME_SLOTS + slot] === nameTerm;
        if (!seen && count < NAME_SLOTS) {
          nameTermIds[tool * NAME_SLOTS + count] = nameTerm;
          nameTermCounts[tool] = count + 1;
        }
        if (word === leadWord) leadInName[tool] = 1;
      }
      option[tool] = bestOptions[tool] as number;
      // A word in the tool's name is reported there: what the tool is called says more than where it scored most.
      field[tool] = bestInName[tool] === 1 ? NAME_FIELD : (bestFieldIndexes[tool] as number);
      if (!actionWord || intentWords === 0)
        summaryMatched[tool] = (summaryMatched[tool] as number) + wordWeight * (inSummary[tool] as number);
      bestScores[tool] = 0;
      nameTermOf[tool] = -1;
      inSummary[tool] = 0;
    }
    perWord.push({ word, options, option, field });
  }
  // Adjacent query words found side by side in a name or summary ("custom field", "payment intent").
  const terms = chosen.map(term);
  for (let i = 0; i + 1 < terms.length; i += 1) {
    const postings = index.postings.get(bigram(terms[i] as string, terms[i + 1] as string));
    if (!postings) continue;
    // "list branches": the query's verb and its object. "List branch protections" has the pair too, but there the
    // branch only qualifies what is listed; the pair speaks for a tool whose head noun the object is, or whose action
    // is none the action factor weighs ("START RECORDING" in an in-meeting recording control).
    const objectHead = actionAt[i] === true ? (index.postings.get(terms[i + 1] as string)?.id ?? -2) : undefined;
    for (let j = 0; j < postings.tools.length; j += 1) {
      const tool = postings.tools[j] as number;
      if (objectHead !== undefined && index.heads[tool] !== objectHead && index.actions[tool] !== null) continue;
      if (totals[tool] === 0) matchedTools.push(tool);
      totals[tool] = (totals[tool] as number) + (postings.scores[j] as number) * L.bigramWeight;
    }
  }

  // "my", "me", "I": the tools about the caller ("Get current user", "… for the authenticated user"), as a boost only.
  // "who starred MY repo" asks about other people: "my" only says whose the repo is, not that the caller is asked about.
  const asksAboutOthers = PERSON_QUESTION_TERMS.has(term(plainWords[0] ?? ''));
  if (plainWords.some((word) => SELF_WORDS.has(word) && !(asksAboutOthers && POSSESSIVE_SELF_WORDS.has(word)))) {
    for (const self of SELF_TERMS) {
      const postings = index.postings.get(self);
      if (!postings) continue;
      for (let j = 0; j < postings.tools.length; j += 1) {
        const tool = postings.tools[j] as number;
        if (totals[tool] === 0) continue;
        totals[tool] = (totals[tool] as number) + (postings.scores[j] as number) * L.selfWeight;
      }
    }
  }

  // "what did this commit change", "who is assigned": a question about what is or was so asks to look, whatever verb follows.
  const said =
    questionAction(plainWords) ??
    queryAction(merged) ??
    (terms.slice(0, 2).some((t) => undoneTerm(t, index) !== undefined) ? 'delete' : null);
  // "show me the pods", "cards a customer has on file": a plural object asks for many, not one.
  // "register 50 people": a number counts the object, it is not the object.
  const object = chosen.find((word, position) => actionAt[position] !== true && !/^\d+$/.test(word));
  // "commit log of a repo", "history of changes to a ticket": a record over time lists its entries.
  const plural =
    L.pluralMeansList &&
    (said === 'read' || said === null) &&
    object !== undefined &&
    (isPlural(object) || merged.some((word, at) => at > 0 && RECORD_WORDS.has(word)));
  // "is the branch protected", "does this repo have a wiki": a yes-or-no question asks to look, not to change.
  const asks = said === null && YES_NO_OPENERS.has(plainWords[0] ?? '');
  const queryWanted = plural ? 'list' : asks ? 'read' : said;
  // The query is about many: its object is plural, or a word says so ("all", "bulk").
  const queryMany = (object !== undefined && isPlural(object)) || merged.some((word) => MANY_WORDS.has(word));
  // "scale my deployment", "concede a dispute": a verb the action words lack, before its object, asks to do something.
  const doesSomething = said === null && L.otherVerbReads < 1 && isImperative(plainWords);
  const candidates: Candidate[] = matchedTools.map((tool) => {
    const coverage = Math.min(1, (matchedWords[tool] as number) / (coverageTotal || 1));
    let score = (totals[tool] as number) * (1 - L.coverageShare + L.coverageShare * coverage * coverage);
    const action = index.actions[tool];
    const wanted = queryWanted === null && leadIsHead[tool] === 1 && action === 'create' ? 'create' : queryWanted;
    const agrees = wanted !== null && action !== null && action !== undefined && actionFactor(wanted, action, L) >= 1;
    if (wanted !== null && action !== null && action !== undefined) score *= actionFactor(wanted, action, L);
    else if (doesSomething && (action === 'read' || action === 'list')) score *= L.otherVerbReads;
    // "follow an issue", "upvote a ticket": a query that names no action seldom means the tool that deletes.
    if (wanted === null && action === 'delete') score *= L.unaskedDelete;
    // How much of the tool's name the query accounts for ("create a screen": createScreen over createScreenScheme);
    // the name's verb counts when the query asks for the same action.
    const nameCoverage = Math.min(1, ((nameTermCounts[tool] as number) + (agrees ? 1 : 0)) / Math.max(1, index.nameTerms[tool] as number));
    score *= L.nameCoverageFloor + (1 - L.nameCoverageFloor) * nameCoverage;
    if (leadInName[tool] === 1) score *= L.leadInName;
    // "mark ALL my notifications as read", "remove the labels": a query about many favours the tool that acts on many
    // (reading and listing tell one from many already).
    if (queryMany && index.many[tool] === 1 && action !== 'read' && action !== 'list') score *= L.manyAgrees;
    // What the tool's name is about, its head noun, is something the query asks for.
    if (headMatched[tool] === 1) score *= L.headMatch;
    // "upload a binary to a release": the release is where the thing goes, so "Create a release" is not it.
    else if (headMatched[tool] === 2) score *= L.contextHead;
    // Second look: how much of the query the tool's name and summary explain, beyond matches in its prose.
    const summaryCoverage = Math.min(1, (summaryMatched[tool] as number) / (coverageTotal || 1));
    score *= L.summaryCoverageFloor + (1 - L.summaryCoverageFloor) * summaryCoverage;
    if (typeof (tools[tool] as ServedTool).manifest.deprecated === 'string' || (L.deprecatedInText && index.deprecatedInText[tool] === 1))
      score *= L.deprecatedFactor;
    return { tool, score: Math.round(score * 1000) / 1000, coverage: Math.round(coverage * 100) / 100 };
  });
  if (L.unnamedScope < 1) narrowerYield(candidates, index, namedTerms, L.unnamedScope);
  const ranksBefore = (a: Candidate, b: Candidate): number =>
    b.score - a.score || byCodeUnit((tools[a.tool] as ServedTool).slug, (tools[b.tool] as ServedTool).slug) || a.tool - b.tool;
  // One past the limit, so the last hit shown knows whether the next one ties with it.
  const top = topRanked(diversified(candidates, index.heads, ranksBefore, L.repeatedHead), limit + 1, ranksBefore);
  return top.slice(0, limit).map(({ tool: toolIndex, score, coverage }, position) => {
    const tool = tools[toolIndex] as ServedTool;
    const reasons: string[] = [];
    const matched: string[] = [];
    for (const { word, options, option, field } of perWord) {
      const expansion = options[option[toolIndex] ?? -1];
      if (!expansion) continue;
      const surface = index.postings.get(expansion.term)?.surface ?? expansion.term;
      matched.push(surface);
      const label = FIELD_LABELS[FIELDS[field[toolIndex] ?? 0] as FieldName];
      reasons.push(`${expansion.via === 'exact' ? word : `${word} (as ${surface})`} in ${label}`);
    }
    const counts = parameterCounts(tool);
    const annotations = tool.manifest.annotations;
    const neighbours = [top[position - 1], top[position + 1]].filter((other): other is Candidate => other !== undefined);
    return {
      slug: tool.slug,
      name: String(tool.manifest.name ?? ''),
      description: String(tool.manifest.description ?? ''),
      purpose: firstLine(descriptionText(tool)),
      score,
      reason: `matched: ${reasons.join(', ')}`,
      matched,
      coverage,
      requiredParams: counts.required,
      totalParams: counts.total,
      required: requiredFields(tool),
      readOnly: typeof annotations?.readOnlyHint === 'boolean' ? annotations.readOnlyHint : null,
      destructive: typeof annotations?.destructiveHint === 'boolean' ? annotations.destructiveHint : null,
      deprecated: typeof tool.manifest.deprecated === 'string',
      withheld: tool.withheldReason !== null,
      nearTie: neighbours.some((other) => Math.abs(other.score - score) <= NEAR_TIE_SHARE * Math.max(other.score, score)),
    };
  });
}

/**
 * "list all fields": of tools about the same thing doing the same, one that needs more things picked out first which
 * the query does not name ("Get all screen tab fields" needs a screen and a tab) yields to the one needing fewest,
 * by the factor per thing more. A thing every tool of a kind needs (the user whose meetings they are) weighs alike.
 */
function narrowerYield(candidates: Candidate[], index: SearchIndex, named: ReadonlySet<number>, factor: number): void {
  const unnamed = candidates.map(({ tool }) => {
    const scopes = index.scopes[tool] as readonly Int32Array[];
    return scopes.length ? unnamedScopes(scopes, named) : 0;
  });
  if (!unnamed.some((count) => count > 0)) return;
  // A kind: the head noun's term number and the action, as one number.
  const kindOf = ({ tool }: Candidate): number =>
    (index.heads[tool] as number) * ACTION_KINDS.length + ACTION_KINDS.indexOf(index.actions[tool] ?? null);
  const fewest = new Map<number, number>();
  candidates.forEach((candidate, at) => {
    const kind = kindOf(candidate);
    fewest.set(kind, Math.min(fewest.get(kind) ?? Infinity, unnamed[at] as number));
  });
  candidates.forEach((candidate, at) => {
    const more = (unnamed[at] as number) - (fewest.get(kindOf(candidate)) as number);
    if (index.heads[candidate.tool] !== -1 && more > 0) candidate.score = Math.round(candidate.score * factor ** more * 1000) / 1000;
  });
}

const ACTION_KINDS: readonly (ActionKind | null)[] = [null, 'create', 'read', 'list', 'update', 'delete'];

/** How many of the things a tool needs picked out (SearchIndex.scopes) the query names by none of their terms. */
function unnamedScopes(scopes: readonly Int32Array[], named: ReadonlySet<number>): number {
  let unnamed = 0;
  for (const scope of scopes) if (!scope.some((id) => named.has(id))) unnamed += 1;
  return unnamed;
}

/**
 * A file's name with a common extension ("README.md", "package.json", "ci.yml"), unless "file" already follows it. It
 * starts only where a run of name characters starts, so that a long run ("a-a-a-…") is scanned once, not from each
 * of its word boundaries: a query is the caller's text, of any length.
 */
const FILE_NAME =
  /(?<![\w-])[\w-]+\.(?:md|markdown|rst|txt|json|ya?ml|toml|ini|cfg|conf|xml|csv|lock|js|mjs|cjs|ts|tsx|jsx|py|rb|go|rs|java|kt|php|cs|cpp|c|h|sh|html|css|sql|patch|diff|zip|tar|gz|tgz|png|jpe?g|gif|svg|pdf)\b(?!\s+files?\b)/gi;

/** Names of platforms spelled like a script's file name ("node.js"). */
const PLATFORM_NAMES = /^(?:node|vue|next|nuxt|deno|express|react|three|chart|d3)\.js$/i;

/** The query with "file" after each file name in it: "read README.md from the repo" asks for a file's content. */
function namingFiles(query: string): string {
  return query.includes('.') ? query.replace(FILE_NAME, (name) => (PLATFORM_NAMES.test(name) ? name : `${name} file`)) : query;
}

/** Nouns of a record kept over time, whose entries a query about it asks for ("audit log", "chat history"). */
const RECORD_WORDS = new Set(['history', 'log', 'logs', 'timeline', 'feed']);

/**
 * "who am I", "who am I logged in as": the caller is what the question asks about, as the current user, and the words
 * that must match say so ("I" is a stop word).
 */
function callerAsked(merged: readonly string[]): readonly string[] {
  const [first, second, third] = merged;
  return first === 'who' && second === 'am' && (third === 'i' || third === 'me') ? [first, second, 'current', ...merged.slice(3)] : merged;
}

/** Question words. */
const QUESTION_WORDS = new Set(['what', 'which', 'who', 'whom', 'when', 'where', 'how']);
/** Verbs after a question word that ask what is or was so, not how to do it ("how DO I" asks for a way). */
const PAST_OR_STATE = new Set(['am', 'is', 'are', 'was', 'were', 'did', 'does', 'has', 'have', 'had']);

/**
 * The action of a question about what is or was so, whatever verb follows ("what did this commit change"): who or
 * which lists, except "who am I", which reads one person; the other question words read. null: not such a question.
 */
function questionAction(plainWords: readonly string[]): 'list' | 'read' | null {
  const [first = '', second = ''] = plainWords;
  if (!QUESTION_WORDS.has(first) || !PAST_OR_STATE.has(second)) return null;
  return WHO_WHICH_WORDS.has(first) && second !== 'am' ? 'list' : 'read';
}

/** Words that open a yes-or-no question. */
const YES_NO_OPENERS = new Set(['is', 'are', 'was', 'were', 'does', 'do', 'did', 'has', 'have', 'can', 'could']);

/** Prepositions after which a query names the context of what it asks about ("issues IN a project"). */
const CONTEXT_PREPOSITIONS = new Set(['in', 'on', 'to', 'of', 'for', 'from', 'into', 'onto', 'at', 'across', 'within', 'inside', 'under']);

/** The terms a query (its phrases merged) names only after its first preposition: the parent or place of its object. */
function contextTermsOf(merged: readonly string[]): Set<string> {
  // "subscribe TO jira events", "comment ON the issue": a preposition right after the leading verb opens its object.
  const opens = !isPlural(merged[0] ?? '') && (merged[1] === 'to' || merged[1] === 'on');
  const cut = merged.findIndex((word, position) => position > (opens ? 1 : 0) && CONTEXT_PREPOSITIONS.has(word));
  if (cut === -1) return new Set();
  const before = new Set(merged.slice(0, cut).map(term));
  return new Set(
    merged
      .slice(cut + 1)
      .filter((word) => !STOP_WORDS.has(word))
      .map(term)
      .filter((indexed) => !before.has(indexed)),
  );
}

/** Words that open a clause saying why or which, past a query's start ("cordon a node SO nothing new lands on it"). */
const CLAUSE_OPENERS = new Set(['so', 'because', 'that', 'which', 'who', 'whom', 'where', 'when', 'until']);

/**
 * The terms a query names only in such a clause: what it says there ("nothing NEW lands", "that can only READ pods")
 * describes the outcome, not the action asked for.
 */
function clauseTermsOf(merged: readonly string[]): Set<string> {
  const cut = merged.findIndex((word, position) => position > 1 && CLAUSE_OPENERS.has(word));
  if (cut === -1) return new Set();
  const before = new Set(merged.slice(0, cut).map(term));
  return new Set(
    merged
      .slice(cut + 1)
      .map(term)
      .filter((indexed) => !before.has(indexed)),
  );
}

/** Words that open a noun phrase: the word before one, leading a query, is a verb ("cancel THE order"). */
const DETERMINERS = new Set([
  'a',
  'an',
  'the',
  'my',
  'our',
  'your',
  'their',
  'its',
  'this',
  'that',
  'these',
  'those',
  'some',
  'every',
  'all',
]);
/** Question words and the like, which lead a query without being its verb ("which pods", "how many"). */
const NOT_VERBS = new Set([
  'which',
  'what',
  'who',
  'whom',
  'whose',
  'how',
  'where',
  'when',
  'why',
  'is',
  'are',
  'can',
  'do',
  'does',
  'did',
]);

/** Whether a query opens with a verb in the imperative: its first word, not a question word, right before a determiner. */
function isImperative(list: readonly string[]): boolean {
  const [first, second] = list;
  return first !== undefined && second !== undefined && !NOT_VERBS.has(first) && !STOP_WORDS.has(first) && DETERMINERS.has(second);
}

/** Whether a query's first word acts on what follows it: a determiner or "on"/"to" comes next ("reply TO the thread"). */
function actsOn(list: readonly string[]): boolean {
  const [first, second] = list;
  return (
    first !== undefined && second !== undefined && !NOT_VERBS.has(first) && (DETERMINERS.has(second) || second === 'on' || second === 'to')
  );
}

function actionFactor(wanted: ActionKind, action: ActionKind, L: RankingLevers): number {
  if (wanted === action) return L.actionAgrees;
  // Reading one and listing many are close: "show the customers" may mean either.
  if ((wanted === 'read' && action === 'list') || (wanted === 'list' && action === 'read')) return 1;
  // So are adding and changing: "set a price", "put users into a group", "post to a channel" may mean either.
  if ((wanted === 'create' && action === 'update') || (wanted === 'update' && action === 'create')) return 1;
  return L.actionDiffers;
}

/** The first line of a description, cut at a sentence end when one comes within 160 characters. */
function firstLine(description: string): string {
  const line = description.split('\n')[0]?.trim() ?? '';
  const sentence = /^(.{1,160}?[.!?])(\s|$)/.exec(line);
  return sentence ? (sentence[1] as string) : line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

/**
 * A tool whose name's head noun three better tools already have (a fourth "time tracking configuration") yields to
 * others at a share of its score, so the first hits cover more than one reading of the query.
 */
function diversified(
  candidates: readonly Candidate[],
  heads: ArrayLike<number>,
  ranksBefore: (a: Candidate, b: Candidate) => number,
  share: number,
): readonly Candidate[] {
  if (share >= 1) return candidates;
  const byHead = new Map<number, Candidate[]>();
  for (const candidate of candidates) {
    const head = heads[candidate.tool] as number;
    if (head !== -1) (byHead.get(head) ?? (byHead.set(head, []).get(head) as Candidate[])).push(candidate);
  }
  // Past the three best of each head noun, scores change in place: the candidates are this query's own.
  for (const group of byHead.values()) {
    if (group.length <= REPEATED_HEADS) continue;
    const best = new Set(topRanked(group, REPEATED_HEADS, ranksBefore));
    for (const candidate of group) if (!best.has(candidate)) candidate.score = Math.round(candidate.score * share * 1000) / 1000;
  }
  return candidates;
}
const REPEATED_HEADS = 3;

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
