// Measuring helpers for the benchmark: medians, repeated runs under a time budget, and child processes timed
// with their peak RSS (`/usr/bin/time -f %M` when present, else the child's own `process.resourceUsage()`).

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * Runs `once` up to `maxRuns` times, but stops early when another run would likely overrun `budgetMs`
 * (judged by the slowest run so far). Always runs at least once. Returns every run's value.
 */
export async function repeat<T>(maxRuns: number, budgetMs: number, once: (run: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  const started = performance.now();
  let slowest = 0;
  for (let run = 0; run < maxRuns; run += 1) {
    if (run > 0 && performance.now() - started + slowest > budgetMs) break;
    const runStarted = performance.now();
    results.push(await once(run));
    slowest = Math.max(slowest, performance.now() - runStarted);
  }
  return results;
}

/** Folders that retire moved aside, for removeRetired. */
const retired = new Set<string>();
let retiredCount = 0;

/**
 * Moves `dir` (when present) aside, into a `.retired` folder beside it that removeRetired deletes when the bench is
 * done, instead of removing it now: a rename, which writes nothing. On this kind of disk (ext4 mounted with `discard`)
 * removing a large package folder slows the writes that follow for seconds while the freed blocks are discarded: a
 * 3,000-tool build's write stage took 0.5 s into a fresh folder and 0.7–2.6 s right after the last run's folder was
 * removed, so a measure would time the bench's own cleanup of the run before.
 */
export async function retire(dir: string): Promise<void> {
  const aside = join(dirname(dir), '.retired');
  await mkdir(aside, { recursive: true });
  retired.add(aside);
  try {
    // The process id too: a bench cut short leaves its folders there until the next one ends.
    await rename(dir, join(aside, `${process.pid}-${(retiredCount += 1)}-${basename(dir)}`));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** Removes what retire moved aside (at the end of the bench, when nothing is measured any more). */
export async function removeRetired(): Promise<void> {
  for (const aside of retired) await rm(aside, { recursive: true, force: true });
  retired.clear();
}

export interface ProcessRun {
  code: number | null;
  wallMs: number;
  /** Peak resident set size in KiB, or null when it could not be read. */
  peakRssKb: number | null;
  stdout: string;
  stderr: string;
}

export const HAS_GNU_TIME = existsSync('/usr/bin/time');

/** Preloaded into a node child when GNU time is missing: writes the child's own maxRSS (KiB) to a file at exit. */
const RSS_REPORTER = `data:text/javascript,${encodeURIComponent(
  "import { writeFileSync } from 'node:fs';" +
    "process.on('exit', () => writeFileSync(process.env.BENCH_RSS_FILE, String(process.resourceUsage().maxRSS)));",
)}`;

/** Runs `node ARGS` and measures wall time (spawn to exit) and peak RSS. */
export async function runNode(args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<ProcessRun> {
  const scratch = await mkdtemp(join(tmpdir(), 'nexusbloom-bench-'));
  const rssFile = join(scratch, 'rss');
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env, BENCH_RSS_FILE: rssFile };
  const [command, commandArgs] = HAS_GNU_TIME
    ? ['/usr/bin/time', ['-f', '%M', '-o', rssFile, process.execPath, ...args]]
    : [process.execPath, ['--import', RSS_REPORTER, ...args]];
  try {
    const started = performance.now();
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(command, commandArgs, { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
      child.on('error', reject);
      child.on('close', (exitCode) =>
        resolve({ code: exitCode, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() }),
      );
    });
    const wallMs = performance.now() - started;
    const rssText = await readFile(rssFile, 'utf8').catch(() => '');
    // GNU time may prefix "Command exited with non-zero status N" lines; the number is the last line.
    const rss = Number.parseInt(rssText.trim().split('\n').pop() ?? '', 10);
    return { code, wallMs, peakRssKb: Number.isFinite(rss) ? rss : null, stdout, stderr };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Last `lines` lines of a process's output without terminal colours, for failure messages. */
export function tail(text: string, lines = 3): string {
  return stripVTControlCharacters(text).trim().split('\n').slice(-lines).join(' | ').slice(0, 400);
}
