// A content-keyed cache of per-tool work (schema checks, emitted modules), so a rebuild redoes only the tools that
// changed. Keys hash the tool's inputs together with a fingerprint of the generator code that produces the output,
// so a new generator never reuses an old answer. Lives in `<out>/node_modules/.cache/nexusbloom-gen/`, beside the
// package and out of its files.

import { createHash } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../write/atomic-write.js';

const CACHE_FORMAT = 'nexusbloom-gen-cache/1';

export interface BuildCache {
  get<T>(kind: string, key: string): T | undefined;
  has(kind: string, key: string): boolean;
  set(kind: string, key: string, value: unknown): void;
  /** Entries reused from an earlier build (hits) and computed in this one (misses), for reports and tests. */
  readonly stats: { hits: number; misses: number };
}

/**
 * A key for `parts`. An object part counts by the hash of its JSON, memoised per object: the check, module and
 * budget keys of one tool all hash the same schemas, which are most of a large catalogue's bytes.
 */
export function contentKey(...parts: unknown[]): string {
  const hash = createHash('sha256');
  for (const part of parts)
    hash
      .update(typeof part === 'string' ? part : part !== null && typeof part === 'object' ? digestOf(part) : JSON.stringify(part))
      .update('\u0000');
  return hash.digest('base64url');
}

const digests = new WeakMap<object, string>();

function digestOf(part: object): string {
  let digest = digests.get(part);
  if (digest === undefined) digests.set(part, (digest = createHash('sha256').update(JSON.stringify(part)).digest('base64url')));
  return digest;
}

let fingerprint: string | undefined;

/** A hash of the generator code, runtime and templates that shape per-tool output. */
export function generatorFingerprint(): string {
  if (fingerprint) return fingerprint;
  const hash = createHash('sha256');
  // The budget's counts also depend on the runtime's advertiser (advertise, host profiles, schema transforms).
  const dirs = ['../check/', '../emit/', '../budget/', '../../runtime/', '../../../templates/'].map((dir) => new URL(dir, import.meta.url));
  // Recursively: the runtime's code lives in rooms (runtime/catalogue/, runtime/schema/, …).
  for (const dir of dirs) {
    for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
      // Declarations (`.d.ts` beside the `.js` of dist/) say nothing the code does not.
      if (/\.(ts|js|hbs)$/.test(name) && !name.endsWith('.d.ts')) hash.update(name).update(readFileSync(new URL(name, dir)));
    }
  }
  const manifest = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
    version: string;
    dependencies: Record<string, string>;
  };
  hash.update(JSON.stringify([manifest.version, manifest.dependencies]));
  fingerprint = hash.digest('base64url').slice(0, 16);
  return fingerprint;
}

/** An in-memory cache, for one process (tests, `--check`, or when nothing is to be kept). */
export function memoryCache(entries: Map<string, unknown> = new Map()): BuildCache & { entries: Map<string, unknown>; used: Set<string> } {
  const used = new Set<string>();
  const computed = new Set<string>();
  const stats = { hits: 0, misses: 0 };
  return {
    entries,
    used,
    stats,
    get<T>(kind: string, key: string): T | undefined {
      const id = `${kind}:${key}`;
      const value = entries.get(id);
      if (value !== undefined && !used.has(id)) {
        if (!computed.has(id)) stats.hits++;
        used.add(id);
      }
      return value as T | undefined;
    },
    has: (kind, key) => entries.has(`${kind}:${key}`),
    set(kind, key, value) {
      const id = `${kind}:${key}`;
      entries.set(id, value);
      used.add(id);
      if (!computed.has(id)) {
        computed.add(id);
        stats.misses++;
      }
    },
  };
}

export function cacheDir(outDir: string): string {
  return join(outDir, 'node_modules', '.cache', 'nexusbloom-gen');
}

/** A cache kept in a folder, where other remembered files (the tokenizer's table, see budget/token-count.ts) may live too. */
export type KeptCache = ReturnType<typeof memoryCache> & { dir: string };

/** Loads the cache kept for `outDir` (empty when there is none, or it is unreadable or from another generator). */
export async function loadCache(outDir: string): Promise<KeptCache> {
  const dir = cacheDir(outDir);
  try {
    const parsed = JSON.parse(await readFile(join(dir, 'entries.json'), 'utf8')) as {
      format?: string;
      fingerprint?: string;
      entries?: Record<string, unknown>;
    };
    if (parsed.format === CACHE_FORMAT && parsed.fingerprint === generatorFingerprint() && parsed.entries) {
      return { ...memoryCache(new Map(Object.entries(parsed.entries))), dir };
    }
  } catch {
    // No cache yet, or a broken one: start empty.
  }
  return { ...memoryCache(), dir };
}

/** Keeps only the entries this build used, written atomically. */
export async function saveCache(outDir: string, cache: ReturnType<typeof memoryCache>): Promise<void> {
  const dir = cacheDir(outDir);
  writeFileAtomic(join(dir, 'entries.json'), (put) => putCacheFile(put, cache));
  // Remove leftovers of interrupted writes.
  for (const name of await readdir(dir)) if (name.endsWith('.tmp')) await rm(join(dir, name), { force: true });
}

/**
 * The same text as `JSON.stringify({ format, fingerprint, entries })`, put out an entry at a time: a large catalogue's
 * cache is tens of megabytes, and one string of it (plus its encoded copy) would be the build's peak of memory.
 */
function putCacheFile(put: (part: string) => void, cache: ReturnType<typeof memoryCache>): void {
  put(`{"format":${JSON.stringify(CACHE_FORMAT)},"fingerprint":${JSON.stringify(generatorFingerprint())},"entries":{`);
  let first = true;
  for (const id of [...cache.used].sort()) {
    const value = cache.entries.get(id);
    if (value === undefined) continue;
    put(`${first ? '' : ','}${JSON.stringify(id)}:${JSON.stringify(value)}`);
    first = false;
  }
  put('}}');
}
