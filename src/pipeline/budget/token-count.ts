// Token counts for the context budget: the tokenizer, kept linear over long runs, and counting many texts at once.

import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { temporaryBeside, writeFileAtomic, writeTextSync } from '../write/atomic-write.js';

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
export async function loadTokenCounter(ranksFile?: string): Promise<TokenCounter> {
  const ranks = await o200kRanks(ranksFile);
  // What gpt-tokenizer/encoding/o200k_base builds from its own table.
  const { GptEncoding } = await import('gpt-tokenizer/GptEncoding');
  const { countTokens } = GptEncoding.getEncodingApi(BUDGET_ENCODING, () => ranks);
  return boundedCounter((text) => countTokens(text, PLAIN_TEXT));
}

type Ranks = Array<string | number[]>;

/** Where a build kept in `dir` keeps the tokenizer's rank table, by the version of the tokenizer that gave it. */
export function ranksFileIn(dir: string): string {
  const { version } = createRequire(import.meta.url)('gpt-tokenizer/package.json') as { version: string };
  return join(dir, `${BUDGET_ENCODING}-ranks-${version}.json`);
}

/**
 * The tokenizer's rank table. gpt-tokenizer ships it as a 2.4 MB JavaScript module, which takes V8 some 200 ms to
 * compile on every load; the same table as JSON parses in a third of that. So the table is read from `ranksFile` when
 * an earlier build kept it there, else from the library, and then kept there for the next build.
 */
async function o200kRanks(ranksFile: string | undefined): Promise<Ranks> {
  if (ranksFile !== undefined) {
    try {
      const kept = JSON.parse(readFileSync(ranksFile, 'utf8')) as unknown;
      if (isRanks(kept)) return kept;
    } catch {
      // None kept yet, or unreadable: the library's own.
    }
  }
  const { default: ranks } = await import('gpt-tokenizer/bpeRanks/o200k_base');
  if (ranksFile !== undefined) keepRanks(ranksFile, ranks);
  return ranks;
}

const isRanks = (value: unknown): value is Ranks =>
  Array.isArray(value) &&
  value.length > 0 &&
  value.every((rank) => typeof rank === 'string' || (Array.isArray(rank) && rank.every(Number.isInteger)));

/**
 * Where this process keeps the table meanwhile when `ranksFile`'s folder does not exist yet: a first build makes no
 * folder before it writes the package (see writeNewFolder), so the table waits in the OS temp folder until then.
 */
export function pendingRanksFile(ranksFile: string): string {
  return join(tmpdir(), `nexusbloom-gen-${process.pid}-${basename(ranksFile)}`);
}

/**
 * Writes the table whole or not at all (an interrupted write leaves a temporary file, which the build cache removes):
 * into the folder an earlier build made, else to pendingRanksFile, for settleKeptRanks to move once the build is written.
 */
function keepRanks(ranksFile: string, ranks: Ranks): void {
  const target = existsSync(dirname(ranksFile)) ? ranksFile : pendingRanksFile(ranksFile);
  const temporary = temporaryBeside(target, 1);
  try {
    writeTextSync(temporary, JSON.stringify(ranks));
    renameSync(temporary, target);
  } catch {
    // Keeping it only saves time.
  } finally {
    rmSync(temporary, { force: true });
  }
}

/**
 * Once the build has written its folder: the table this process kept meanwhile (pendingRanksFile) moves to
 * `ranksFile`, so that the first rebuild reads it too; what is left of it is removed either way. Never throws: it runs
 * as a build ends, whether or not it wrote its folder, and must not stand in for the build's own error.
 */
export function settleKeptRanks(ranksFile: string): void {
  const pending = pendingRanksFile(ranksFile);
  try {
    // Only into a folder the build made: writeFileAtomic would make one for a build that wrote none.
    if (existsSync(pending) && !existsSync(ranksFile) && existsSync(dirname(ranksFile)))
      writeFileAtomic(ranksFile, (put) => put(readFileSync(pending)));
  } catch {
    // Keeping it only saves time.
  } finally {
    dropPendingRanks(ranksFile);
  }
}

/** Removes what this process kept meanwhile for `ranksFile` (a build that writes no folder, or failed before it). */
function dropPendingRanks(ranksFile: string): void {
  const pending = pendingRanksFile(ranksFile);
  try {
    rmSync(pending, { force: true });
    rmSync(temporaryBeside(pending, 1), { force: true });
  } catch {
    // In the OS temp folder: nothing of the build's depends on it.
  }
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

/** A BatchCounter in this thread, loading the tokenizer here (`ranksFile`: see o200kRanks). */
export async function loadBatchCounter(ranksFile?: string): Promise<BatchCounter> {
  const count = await loadTokenCounter(ranksFile);
  return async (texts) => texts.map(count);
}
