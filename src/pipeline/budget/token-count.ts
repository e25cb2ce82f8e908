// Token counts for the context budget: the tokenizer, kept linear over long runs, and counting many texts at once.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { writeFileAtomic } from '../write/atomic-write.js';

/**
 * Counts are OpenAI's o200k_base encoding (GPT-4o and later) over the JSON of tools/list; other vendors' tokenizers
 * (Anthropic's, Google's) count the same text differently, and hosts wrap tools in their own prompt format, so read
 * these as a close relative measure, not an exact bill.
 */
export const BUDGET_ENCODING = 'o200k_base';

export type TokenCounter = (text: string) => number;

/**
 * Catalogue text is plain text to a host: `<|endoftext|>` in a description is counted as the characters it is, never
 * as a special token (gpt-tokenizer's default would throw on it).
 */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** The tokenizer, loaded on first use: its rank table is large and most commands never need it. `ranksFile`: see o200kRanks. */
export async function loadTokenCounter(ranksFile: string = shippedRanksFile()): Promise<TokenCounter> {
  const ranks = await o200kRanks(ranksFile);
  // What gpt-tokenizer/encoding/o200k_base builds from its own table.
  const { GptEncoding } = await import('gpt-tokenizer/GptEncoding');
  const { countTokens } = GptEncoding.getEncodingApi(BUDGET_ENCODING, () => ranks);
  return boundedCounter((text) => countTokens(text, PLAIN_TEXT));
}

type Ranks = Array<string | number[]>;

/** Where the generator's build puts the tokenizer's table: `dist/tokenizer/` beside `dist/pipeline/`. */
export const SHIPPED_RANKS_DIR = new URL('../../tokenizer/', import.meta.url);

/** The table's file in `dir`, named by the version of the tokenizer that gave it. */
export function shippedRanksFile(dir: URL = SHIPPED_RANKS_DIR): string {
  const { version } = createRequire(import.meta.url)('gpt-tokenizer/package.json') as { version: string };
  return fileURLToPath(new URL(`${BUDGET_ENCODING}-ranks-${version}.json`, dir));
}

/** The library's own table: a 2.4 MB JavaScript module. */
async function libraryRanks(): Promise<Ranks> {
  return (await import('gpt-tokenizer/bpeRanks/o200k_base')).default;
}

/**
 * The tokenizer's rank table. gpt-tokenizer ships it as a 2.4 MB JavaScript module, which takes V8 some 100–200 ms to
 * compile on every load; the same table as JSON parses in half that, and a small catalogue's build waits for it. So the
 * generator's build writes the table as JSON (writeShippedRanks), and a build reads it from `ranksFile`; the library's
 * own when that file is missing (the generator run from source) or not a table.
 */
async function o200kRanks(ranksFile: string): Promise<Ranks> {
  try {
    const shipped = JSON.parse(readFileSync(ranksFile, 'utf8')) as unknown;
    if (isRanks(shipped)) return shipped;
  } catch {
    // Not built, or unreadable: the library's own.
  }
  return libraryRanks();
}

const isRanks = (value: unknown): value is Ranks =>
  Array.isArray(value) &&
  value.length > 0 &&
  value.every((rank) => typeof rank === 'string' || (Array.isArray(rank) && rank.every(Number.isInteger)));

/** Writes the library's table as JSON where the build reads it (run by the generator's build, see prebuild-tokenizer-table.ts). */
export async function writeShippedRanks(dir: URL = SHIPPED_RANKS_DIR): Promise<string> {
  const file = shippedRanksFile(dir);
  writeFileAtomic(file, JSON.stringify(await libraryRanks()));
  return file;
}

/** The longest run of one character class counted whole; see boundedCounter. */
export const MAX_COUNTED_RUN = 256;

/** Runs of letters, of white space, or of punctuation and symbols: the tokenizer's chunks never cross these classes. */
const LONG_RUN = new RegExp(
  `[\\p{L}\\p{M}]{${MAX_COUNTED_RUN + 1},}|\\s{${MAX_COUNTED_RUN + 1},}|[^\\s\\p{L}\\p{M}\\p{N}]{${MAX_COUNTED_RUN + 1},}`,
  'gu',
);

/** A character's class for LONG_RUN: 1 letter or mark, 2 white space, 3 punctuation or symbol, 0 a number (no run). */
function runClass(character: string): number {
  return /[\p{L}\p{M}]/u.test(character) ? 1 : /\s/u.test(character) ? 2 : /\p{N}/u.test(character) ? 0 : 3;
}

const ASCII_RUN_CLASS = Uint8Array.from({ length: 128 }, (_, code) => runClass(String.fromCharCode(code)));

/**
 * Whether LONG_RUN matches anywhere in `text`: one pass over its characters, most of them ASCII and classed by table.
 * Nearly every text has no such run, and the regular expression alone costs a 3,000-tool build some 150 ms.
 */
export function hasLongRun(text: string): boolean {
  if (text.length <= MAX_COUNTED_RUN) return false;
  let kind = -1;
  let run = 0;
  for (let at = 0; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    let next: number;
    if (code < 128) next = ASCII_RUN_CLASS[code]!;
    else {
      // Code points, as LONG_RUN counts them under its u flag.
      const point = text.codePointAt(at)!;
      if (point > 0xffff) at += 1;
      next = runClass(String.fromCodePoint(point));
    }
    if (next === kind && next !== 0) {
      run += 1;
      if (run > MAX_COUNTED_RUN) return true;
    } else {
      kind = next;
      run = 1;
    }
  }
  return false;
}

/**
 * `count`, made linear. Byte-pair encoding costs the square of a chunk's length, and one unbroken run is one chunk: a
 * 40,000-character description in Japanese (no spaces) takes half a minute to count. So a run longer than
 * MAX_COUNTED_RUN characters is counted in pieces of that length, which can over-count by about a token a piece.
 * Text without such a run (all ordinary prose and JSON) is counted exactly, in one piece.
 */
export function boundedCounter(count: TokenCounter): TokenCounter {
  return (text) => {
    if (!hasLongRun(text)) return count(text);
    const runs = [...text.matchAll(LONG_RUN)];
    let total = 0;
    let from = 0;
    for (const run of runs) {
      const start = run.index;
      const end = start + run[0].length;
      let cut = start;
      // The first piece keeps what precedes the run, so that its chunk boundaries stay as they are.
      for (let next = pieceEnd(text, cut, end); next < end; next = pieceEnd(text, cut, end)) {
        total += count(text.slice(from, next));
        from = cut = next;
      }
    }
    return total + count(text.slice(from));
  };
}

/** Where the piece from `start` ends: MAX_COUNTED_RUN characters on, or at `end`, never inside a surrogate pair. */
function pieceEnd(text: string, start: number, end: number): number {
  let at = Math.min(start + MAX_COUNTED_RUN, end);
  if (at < end && (text.charCodeAt(at) & 0xfc00) === 0xdc00) at -= 1;
  return at;
}

/** Counts many texts at once, in order: in this thread, or on a worker thread (see counting-thread.ts). */
export type BatchCounter = (texts: readonly string[]) => Promise<number[]>;

/** A BatchCounter in this thread, loading the tokenizer here. */
export async function loadBatchCounter(): Promise<BatchCounter> {
  const count = await loadTokenCounter();
  return async (texts) => texts.map(count);
}
