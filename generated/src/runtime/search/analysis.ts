// Text analysis shared by the index and the query: words, abbreviations, phrases, Porter stems, and the fields of a
// tool that search reads, with the kind of action its name says it performs.
import { stemmer } from 'stemmer';
import type { JsonObject, ServedTool, ToolAnnotations } from '../shared/contracts.js';
import { plainText } from './plain-text.js';
import {
  ACTION_WORDS,
  AGENT_NOUNS,
  CANONICAL_WORDS,
  IRREGULAR_PLURALS,
  IRREGULAR_VERB_FORMS,
  NOUN_OR_VERB_WORDS,
  PHRASES,
  STATE_VERBS,
  STATE_WORDS,
  STOP_WORDS,
  SYNONYM_GROUPS,
  WHO_WHICH_WORDS,
  type ActionKind,
} from './vocabulary.js';

/** An upper-case abbreviation's plural ("CRDs", "PRs", the "URLs" of "getURLs"): one word, not "CR" and "Ds". */
const PLURAL_ABBREVIATION = /([A-Z])([A-Z]+)s(?![a-z])/g;

/** Lower-case words of a text, camelCase and snake/kebab-case split; ".env" gives "env", "CRDs" gives "crds". */
export function words(text: string): string[] {
  // The camelCase splits need an upper-case ASCII letter; most catalogue text has few, so skip them when there is none.
  const spaced = /[A-Z]/.test(text)
    ? text
        .replace(PLURAL_ABBREVIATION, (_, first: string, rest: string) => `${first}${rest.toLowerCase()}s`)
        .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
        .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    : text;
  return spaced
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

/** Porter stem of a lower-case word; words that are not plain ASCII letters, or have two letters or fewer, stay as they are. */
export function stem(word: string): string {
  if (word.length <= 2 || !/^[a-z]+$/.test(word)) return word;
  if (Object.hasOwn(IRREGULAR_PLURALS, word)) return stemmer(IRREGULAR_PLURALS[word] as string);
  if (Object.hasOwn(AGENT_NOUNS, word)) return stemmer(AGENT_NOUNS[word] as string);
  // The plural of an agent noun stems as its singular does ("runners" as "runner", "importers" as "importer").
  const singular = word.endsWith('s') ? word.slice(0, -1) : '';
  return stemmer(Object.hasOwn(AGENT_NOUNS, singular) ? (AGENT_NOUNS[singular] as string) : word);
}

const termCache = new Map<string, string>();

/** Index term of one word: canonical abbreviation, then stem. */
export function term(word: string): string {
  const lower = word.toLowerCase();
  let found = termCache.get(lower);
  if (found === undefined) {
    // Own keys only: "constructor" is a word, not Object.prototype.constructor.
    found = stem(Object.hasOwn(CANONICAL_WORDS, lower) ? (CANONICAL_WORDS[lower] as string) : lower);
    if (termCache.size < 50_000) termCache.set(lower, found);
  }
  return found;
}

/** Words that start some phrase: most word pairs need no phrase lookup at all. */
const PHRASE_STARTS = new Set(Object.keys(PHRASES).map((phrase) => phrase.slice(0, phrase.indexOf(' '))));

/** Document side: every word stays, and each phrase adds its own word. */
export function withPhrases(list: readonly string[]): string[] {
  const found: string[] = [];
  for (let index = 0; index + 1 < list.length; index += 1) {
    if (!PHRASE_STARTS.has(list[index] as string)) continue;
    const phrase = PHRASES[`${list[index]} ${list[index + 1]}`];
    if (phrase !== undefined) found.push(phrase);
  }
  return found.length ? [...list, ...found] : [...list];
}

/** Words that may stand inside a verb's phrase, as its object ("kick SOMEONE out", "log ME in", "pay THEM back"). */
const PHRASE_OBJECTS = new Set(['a', 'an', 'the', 'me', 'my', 'it', 'them', 'him', 'her', 'us', 'someone', 'somebody', 'this', 'that']);

/** Query side: a phrase replaces its two words, so "pretty print" counts once, as one intent. */
export function mergePhrases(list: readonly string[]): string[] {
  const merged: string[] = [];
  for (let index = 0; index < list.length; index += 1) {
    const starts = PHRASE_STARTS.has(list[index] as string);
    let phrase = starts ? PHRASES[`${list[index]} ${list[index + 1] ?? ''}`] : undefined;
    let skip = 1;
    if (phrase === undefined && starts && PHRASE_OBJECTS.has(list[index + 1] ?? '')) {
      phrase = PHRASES[`${list[index]} ${list[index + 2] ?? ''}`];
      skip = 2;
    }
    if (phrase !== undefined) {
      merged.push(phrase);
      index += skip;
    } else {
      merged.push(list[index] as string);
    }
  }
  return merged;
}

/** The term naming two adjacent terms together ("custom field"): indexed for names, matched for adjacent query words. */
export const bigram = (first: string, second: string): string => `${first}_${second}`;

/** Adjacent-term pairs of a list of words, stop words left out. */
export function bigramsOf(list: readonly string[]): string[] {
  const terms = list.filter((word) => !STOP_WORDS.has(word)).map(term);
  const pairs: string[] = [];
  for (let index = 0; index + 1 < terms.length; index += 1) {
    if (terms[index] !== terms[index + 1]) pairs.push(bigram(terms[index] as string, terms[index + 1] as string));
  }
  return pairs;
}

/** Hand-kept synonyms by term: each member of a group counts for every other. */
export const HAND_SYNONYMS: ReadonlyMap<string, readonly string[]> = (() => {
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

const ACTION_OF_TERM: ReadonlyMap<string, ActionKind> = new Map(
  [
    ...Object.entries(ACTION_WORDS),
    ['creates', 'create'],
    ['adds', 'create'],
    ['returns', 'read'],
    ['retrieves', 'read'],
    ['gets', 'read'],
    ['lists', 'list'],
    ['searches', 'list'],
    ['finds', 'list'],
    ['updates', 'update'],
    ['sets', 'update'],
    ['changes', 'update'],
    ['deletes', 'delete'],
    ['removes', 'delete'],
  ].map(([word, kind]) => [term(word as string), kind as ActionKind]),
);
/** Verbs that say "write" without saying whether the write creates or changes (HTTP POST, PUT). */
const AMBIGUOUS_VERBS = new Set(['post', 'put'].map(term));
const LIST_MARKERS = new Set(['all', 'list', 'paginated', 'search', 'find', 'every'].map(term));

/** The action a text's leading verb names, if it starts with one ("Returns a list of …" lists). */
function leadingAction(list: readonly string[]): ActionKind | null {
  const first = list[0];
  if (first === undefined) return null;
  const kind = ACTION_OF_TERM.get(term(first));
  if (kind === 'read' && list.slice(1, 4).some((word) => LIST_MARKERS.has(term(word)))) return 'list';
  // "Get fields", "Get a project's commits for a ref": reading a plural lists.
  if (kind === 'read' && isPlural(beforePreposition(list).at(-1) ?? '')) return 'list';
  return kind ?? null;
}

/** A text's words before its first preposition past the start ("Get commits FOR a ref" gives "Get commits"). */
function beforePreposition(list: readonly string[]): readonly string[] {
  const cut = list.findIndex((word, position) => position > 0 && NAME_PREPOSITIONS.has(word));
  return cut === -1 ? list : list.slice(0, cut);
}

/** Words that say a text acts on many at once ("BULK delete", "delete COLLECTION of jobs", "ALL labels"). */
export const MANY_WORDS: ReadonlySet<string> = new Set(['all', 'every', 'bulk', 'batch', 'collection', 'multiple', 'many']);

/**
 * Whether a tool's name acts on many at once: a word of MANY_WORDS before its first preposition, or a plural there last.
 * A word the tool's tags hold names its group, not how many it acts on ("Delete Batch V1 Namespaced Job", tagged
 * "batch_v1", deletes one job).
 */
export function namesMany(name: string, slug: string, groupWords: ReadonlySet<string> = new Set()): boolean {
  const head = beforePreposition(words(name || slug));
  return head.some((word) => MANY_WORDS.has(word) && !groupWords.has(word)) || isPlural(head.at(-1) ?? '');
}

/** A tool's category and tags, as one text: the group of the catalogue it sits in. */
const groupText = (tool: ServedTool): string =>
  [String(tool.manifest.category ?? ''), ...(Array.isArray(tool.manifest.tags) ? tool.manifest.tags : [])].join(' ');

/** The words of a tool's category and tags. */
export const groupWordsOf = (tool: ServedTool): ReadonlySet<string> => new Set(words(groupText(tool)));

/** A plain plural noun ("pods", "branches", "recordings"), not a word that merely ends in s ("status", "access", "analysis"). */
export function isPlural(word: string): boolean {
  if (Object.hasOwn(IRREGULAR_PLURALS, word)) return true;
  return word.length > 3 && /^[a-z]+s$/.test(word) && !/(ss|us|is|ics|news)$/.test(word) && term(word) !== word;
}

/** The action a term names ("remove" deletes), if any. */
export const termAction = (indexed: string): ActionKind | undefined => ACTION_OF_TERM.get(indexed);

/** Whether a term is a verb of action ("remove", "show"): the action factor speaks for it, not its synonyms. */
export const isActionTerm = (indexed: string): boolean => ACTION_OF_TERM.has(indexed);

/** Action words that are as often nouns or adjectives ("upload a file", "an open invoice"): verbs only when they lead. */
const NOUN_VERBS = new Set(NOUN_OR_VERB_WORDS.map(term));

/** Whether the query word at this position (among its meaningful words) speaks as an action verb. */
export const isActionAt = (indexed: string, position: number): boolean =>
  ACTION_OF_TERM.has(indexed) && (position === 0 || !NOUN_VERBS.has(indexed));

/** The terms naming each action ("remove", "delete", "erase" … for delete), in a fixed order. */
const ACTION_TERMS: ReadonlyMap<ActionKind, readonly string[]> = (() => {
  const map = new Map<ActionKind, string[]>();
  for (const [indexed, kind] of ACTION_OF_TERM)
    if (!(map.get(kind) ?? (map.set(kind, []).get(kind) as string[])).includes(indexed)) (map.get(kind) as string[]).push(indexed);
  return map;
})();

/** Action words that are as often nouns or other words ("file", "post", "all"): never matched for another verb. */
const LOOSE_ACTION_WORDS = new Set(
  [
    'file',
    'post',
    'store',
    'start',
    'open',
    'new',
    'define',
    'upload',
    'detail',
    'query',
    'search',
    'find',
    'browse',
    'all',
    'every',
    'which',
    'who',
    'whom',
    'paginated',
    'set',
    'put',
    'patch',
    'replace',
    'trash',
    'drop',
    'setup',
  ].map(term),
);

/** The verbs that name the same action as an action term ("remove" gives "delete", "erase" …), plain verbs only. */
export function sameActionTerms(indexed: string): readonly string[] {
  const kind = ACTION_OF_TERM.get(indexed);
  return kind === undefined ? [] : (ACTION_TERMS.get(kind) ?? []).filter((other) => other !== indexed && !LOOSE_ACTION_WORDS.has(other));
}

/** What a tool does, from the verb of its name (or, for POST/PUT-style names, of its description's first words). */
function actionOfText(name: string, slug: string, description: string): ActionKind | null {
  const nameWords = words(name || slug);
  // "Check if a user is a member", "Check whether a repo is starred": a yes-or-no question about a thing reads it.
  if (nameWords[0] === 'check' && (nameWords[1] === 'if' || nameWords[1] === 'whether')) return 'read';
  const fromName = leadingAction(nameWords);
  if (nameWords[0] !== undefined && !AMBIGUOUS_VERBS.has(term(nameWords[0])) && fromName !== null) return fromName;
  return leadingAction(words(description.slice(0, 80))) ?? fromName;
}

/**
 * What a tool does: its text's verb, corrected by its annotations where they say more (a destructive tool deletes; a
 * read-only one reads or lists whatever its name's verb).
 */
export function toolAction(
  name: string,
  slug: string,
  description: string,
  annotations?: ToolAnnotations,
  readOnlyMeansRead = true,
): ActionKind | null {
  const fromText = actionOfText(name, slug, description);
  if (annotations?.destructiveHint === true && annotations.readOnlyHint !== true) return 'delete';
  if (readOnlyMeansRead && annotations?.readOnlyHint === true && fromText !== 'read' && fromText !== 'list') return 'read';
  if (annotations?.readOnlyHint === false && annotations.destructiveHint === false && fromText === 'delete') return null;
  return fromText;
}

/** The action a query asks for: its first action word among its first three words ("remove a ticket" deletes). */
export function queryAction(queryWords: readonly string[]): ActionKind | null {
  // "follow an issue TO GET updates": past the start, a verb after "to" says what for, not what to do.
  const purpose = new Set(queryWords.flatMap((word, at) => (at > 0 && queryWords[at - 1] === 'to' ? [at] : [])));
  for (const [position, [at, word]] of [...queryWords.entries()]
    .filter(([, w]) => !STOP_WORDS.has(w) || Object.hasOwn(ACTION_WORDS, w))
    .slice(0, 3)
    .entries()) {
    // "approve the people WHO registered": past the start, a question word opens a relative clause, asking nothing.
    if (position > 0 && (WHO_WHICH_WORDS.has(word) || purpose.has(at))) continue;
    const kind = ACTION_OF_TERM.get(term(word));
    if (kind !== undefined && isActionAt(term(word), position)) return kind;
  }
  return null;
}

/**
 * "make a repo private", "make an old project read-only": a leading verb that puts its object into a state changes
 * the object, so it reads as "update", not as the "create" that "make" otherwise says.
 */
export function statesChanged(list: readonly string[]): readonly string[] {
  if (!STATE_VERBS.has(list[0] ?? '')) return list;
  const rest = list.slice(2);
  // "read-only" and "write-only" are words apart by now.
  const stated = rest.some(
    (word, at) => STATE_WORDS.has(word) || (word === 'only' && (rest[at - 1] === 'read' || rest[at - 1] === 'write')),
  );
  return stated ? ['update', ...list.slice(1)] : list;
}

/**
 * A query's past forms of verbs as the verbs ("be GIVEN to" as "give"). The query's only: in a tool's text, "the
 * given user" says which user, not that one is given.
 */
export function verbsOfPastForms(list: readonly string[]): readonly string[] {
  return list.some((word) => Object.hasOwn(IRREGULAR_VERB_FORMS, word))
    ? list.map((word) => (Object.hasOwn(IRREGULAR_VERB_FORMS, word) ? (IRREGULAR_VERB_FORMS[word] as string) : word))
    : list;
}

/** Words that end the head of a tool's name: what follows them is context ("Add user to group"). */
const NAME_PREPOSITIONS = new Set(['by', 'for', 'from', 'in', 'of', 'on', 'to', 'with', 'into', 'as', 'at', 'using', 'via']);

/**
 * The head noun of a tool's name: its last word before any preposition, action verbs and list markers aside. English
 * compounds end on what they name: an "issue type" is a type, a "cash balance" a balance.
 */
export function headTerm(name: string, slug: string): string | null {
  const list = words(name || slug);
  const cut = list.findIndex((word, position) => position > 0 && NAME_PREPOSITIONS.has(word));
  const head = (cut === -1 ? list : list.slice(0, cut)).filter(
    (word, position) => !STOP_WORDS.has(word) && !LIST_MARKERS.has(term(word)) && !namesAction(term(word), position),
  );
  const last = head[head.length - 1];
  return last === undefined ? null : term(last);
}

/**
 * Whether a name's word at this position names its action rather than its thing. Past the verb, an action word that is
 * as often a noun names the thing ("Create a FILE in a repository"), unless it only says that the tool reads ("Get
 * meeting DETAILS" is about the meeting).
 */
function namesAction(indexed: string, position: number): boolean {
  if (!ACTION_OF_TERM.has(indexed)) return false;
  return position === 0 || !NOUN_VERBS.has(indexed) || ACTION_OF_TERM.get(indexed) === 'read';
}

/** Last words of an input field's name that say it identifies one thing ("screenId", "milestone_id", "tab_key"). */
const IDENTIFIER_WORDS = new Set(['id', 'ids', 'key', 'uuid', 'slug']);

/**
 * The things a tool needs one of picked out before it runs: per required input field named as an identifier
 * ("screenId", "merge_request_id"), the terms of what it identifies ("screen"; "merge", "request", "pull").
 */
export function requiredScopes(tool: ServedTool): string[][] {
  const required = tool.manifest.input_schema?.required;
  if (!Array.isArray(required)) return [];
  const scopes: string[][] = [];
  for (const field of required) {
    if (typeof field !== 'string') continue;
    const list = words(field);
    if (list.length < 2 || !IDENTIFIER_WORDS.has(list.at(-1) as string)) continue;
    const things = list.filter((word) => !STOP_WORDS.has(word) && !IDENTIFIER_WORDS.has(word));
    if (things.length) scopes.push(withPhrases(things).map(term));
  }
  return scopes;
}

/** The searchable fields of a tool, in the order of FIELDS. */
export const FIELDS = ['slug', 'name', 'lead', 'tags', 'fieldNames', 'description', 'fieldDescriptions', 'bigrams'] as const;
export type FieldName = (typeof FIELDS)[number];

const isObject = (value: unknown): value is JsonObject => value !== null && typeof value === 'object' && !Array.isArray(value);

/** How deep search reads nested input fields: past it, a field's name and description but not its own fields. */
export const FIELD_DEPTH = 3;

/** Names and descriptions of input fields, nested ones included (to FIELD_DEPTH; refs not followed). */
function collectFields(schema: unknown, names: string[], descriptions: string[], depth: number): void {
  if (!isObject(schema) || depth > FIELD_DEPTH) return;
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

/**
 * The first sentence of a description (up to 200 characters, else its words that fit), which says what the tool is
 * for. Never cut inside a word: the rest of the description is indexed from where the lead ends.
 */
export function leadSentence(description: string): string {
  const match = /^(.{1,200}?[.!?])(\s|$)/s.exec(description);
  if (match) return (match[1] as string).trim();
  if (description.length <= 200) return description.trim();
  const cut = /^.{0,200}(?=\s)/s.exec(description);
  return (cut ? cut[0] : description.slice(0, 200)).trim();
}

/**
 * What a tool is called: its name's first sentence. "Create a group. Available only for users who can create groups."
 * is called "Create a group"; the rest says when it may be used, as a description does.
 */
export function nameAndRest(name: string): { name: string; rest: string } {
  // A sentence ends where the next begins with a capital: "(e.g. a user)" goes on.
  const match = /^(.+?[.!?])\s+(\p{Lu}.*)$/su.exec(name);
  return match ? { name: (match[1] as string).trim(), rest: (match[2] as string).trim() } : { name, rest: '' };
}

/** A tool's name as search reads it: its first sentence (nameAndRest), as plain text (plain-text.ts). */
export const calledName = (tool: ServedTool): string => nameAndRest(plainText(String(tool.manifest.name ?? ''))).name;

/** A tool's description as search reads it: the plain text of what the catalogue says (plain-text.ts). */
export const descriptionText = (tool: ServedTool): string => plainText(String(tool.manifest.description ?? ''));

/** The text of each searchable field of a tool, in FIELDS order: everything an index is built from. */
export function searchableTexts(tool: ServedTool): string[] {
  const manifest = tool.manifest;
  const fieldNames: string[] = [];
  const fieldDescriptions: string[] = [];
  collectFields(manifest.input_schema, fieldNames, fieldDescriptions, 0);
  const description = descriptionText(tool);
  const lead = leadSentence(description);
  // A name that only spells the slug out ("Post Customers Customer" for PostCustomersCustomer) says nothing twice.
  const { name: called, rest } = nameAndRest(plainText(String(manifest.name ?? '')));
  const name = words(called).join(' ') === words(tool.slug).join(' ') ? '' : called;
  const texts: Record<FieldName, string> = {
    slug: tool.slug,
    name,
    lead,
    tags: groupText(tool),
    fieldNames: fieldNames.join(' '),
    description: rest === '' ? description.slice(lead.length) : `${rest} ${description.slice(lead.length)}`,
    fieldDescriptions: fieldDescriptions.map(plainText).join(' '),
    // Stored as the text it is made from; the index turns it into adjacent-term pairs.
    bigrams: `${name} | ${lead}`,
  };
  return FIELDS.map((field) => texts[field]);
}

/** The index terms of one field's text: its words' terms, or for the bigram field the pairs of each part. */
export function fieldTerms(field: FieldName, text: string): string[] {
  if (field === 'bigrams') return text.split(' | ').flatMap((part) => bigramsOf(words(part)));
  return withPhrases(words(text)).map(term);
}
