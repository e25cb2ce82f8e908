// A content-keyed cache of per-tool work (schema checks, emitted modules), so a rebuild redoes only the tools that
// changed. Keys hash the tool's inputs together with a fingerprint of the generator code that produces the output,
// so a new generator never reuses an old answer. Lives in `<out>/node_modules/.cache/nexusbloom-gen/`, beside the
// package and out of its files. The entries are kept in V8's serialization (node:v8), a frame of entries at a time:
// read back in a third of the time JSON takes, and never one string or buffer of the whole.

import { createHash, type Hash } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { writeFileAtomic } from '../write/atomic-write.js';
import type { SegmentRecord, SegmentRecords } from '../write/segment-reuse.js';

const CACHE_FORMAT = 'nexusbloom-gen-cache/2';
const ENTRIES_FILE = 'entries.v8';
/** Entries per frame: each frame is serialized (and read back) on its own. */
const FRAME_ENTRIES = 256;

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

/** The fields of a manifest that hold most of a catalogue's bytes: the ones a key counts by their memoised digests. */
const LARGE_FIELDS = new Set(['input_schema', 'output_schema', 'examples']);

/**
 * The parts of a key for every field of `value` (a manifest), names in code-unit order: the schemas and examples by
 * their memoised digests, so a key over a whole tool hashes none of the schemas that an earlier key of the same build
 * hashed already; every other field in one JSON text with its name (a digest of each small object would cost a hash
 * apiece, more than hashing its text).
 */
export function fieldsKeyParts(value: object): unknown[] {
  const record = value as Record<string, unknown>;
  const names = Object.keys(record).sort();
  const small = names.filter((name) => !LARGE_FIELDS.has(name));
  return [
    JSON.stringify(small.map((name) => [name, record[name] ?? null])),
    ...names.filter((name) => LARGE_FIELDS.has(name)).flatMap((name) => [name, record[name] ?? null]),
  ];
}

const digests = new WeakMap<object, string>();

function digestOf(part: object): string {
  let digest = digests.get(part);
  if (digest === undefined) digests.set(part, (digest = createHash('sha256').update(JSON.stringify(part)).digest('base64url')));
  return digest;
}

let fingerprint: string | undefined;

/**
 * Adds to `hash` every code file under each of `dirs`, recursively (the runtime's code lives in rooms), by its path and
 * content: `.ts`, `.js` and `.hbs`, not the declarations beside dist/'s `.js`, which say nothing the code does not.
 */
export function hashCodeIn(hash: Hash, dirs: readonly URL[]): Hash {
  for (const dir of dirs) {
    for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
      if (/\.(ts|js|hbs)$/.test(name) && !name.endsWith('.d.ts')) hash.update(name).update(readFileSync(new URL(name, dir)));
    }
  }
  return hash;
}

/** A hash of the generator code, runtime and templates that shape per-tool output (plan's schema outlines among it). */
export function generatorFingerprint(): string {
  if (fingerprint) return fingerprint;
  // The budget's counts also depend on the runtime's advertiser (advertise, host profiles, schema transforms).
  const dirs = ['../check/', '../plan/', '../emit/', '../budget/', '../../runtime/', '../../../templates/'].map(
    (dir) => new URL(dir, import.meta.url),
  );
  const hash = hashCodeIn(createHash('sha256'), dirs);
  const manifest = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
    version: string;
    dependencies: Record<string, string>;
  };
  hash.update(JSON.stringify([manifest.version, manifest.dependencies]));
  fingerprint = hash.digest('base64url').slice(0, 16);
  return fingerprint;
}

/** An in-memory cache, for one process (tests, `--check`, or when nothing is to be kept). */
export function memoryCache(
  entries: Map<string, unknown> = new Map(),
): BuildCache & { entries: Map<string, unknown>; used: Set<string>; computed: ReadonlySet<string> } {
  const used = new Set<string>();
  const computed = new Set<string>();
  const stats = { hits: 0, misses: 0 };
  return {
    entries,
    used,
    computed,
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

/** The records' kind names their format: the fingerprint covers no code of the write stage, which reads them. */
const SEGMENT_RECORD_KIND = 'file-segments/1';

/** The records of the data files written in segments (write/segment-reuse.ts), kept in `cache` by path. */
export function segmentRecordsIn(cache: BuildCache): SegmentRecords {
  return {
    get: (path) => cache.get<SegmentRecord>(SEGMENT_RECORD_KIND, path),
    set: (path, record) => cache.set(SEGMENT_RECORD_KIND, path, record),
  };
}

export function cacheDir(outDir: string): string {
  return join(outDir, 'node_modules', '.cache', 'nexusbloom-gen');
}

/** Where a frame of the loaded cache file lies (its length prefix included), and the ids of the entries it holds. */
interface FrameSpan {
  start: number;
  end: number;
  ids: string[];
}

/**
 * The cache file as it was loaded: its bytes, kept for the save to copy the frames this build reused from (reading the
 * file again took a 3,000-tool rebuild some 30 ms), and its frames of entries.
 */
interface LoadedFile {
  bytes: Buffer;
  frames: FrameSpan[];
}

/** A cache kept in a package's folder: what it holds, and where its entries lay in the file it was loaded from (if any). */
export type KeptCache = ReturnType<typeof memoryCache> & { loaded?: LoadedFile };

/** Loads the cache kept for `outDir` (empty when there is none, or it is unreadable or from another generator). */
export async function loadCache(outDir: string): Promise<KeptCache> {
  const file = join(cacheDir(outDir), ENTRIES_FILE);
  try {
    const bytes = await readFile(file);
    const read = framesOfCache(bytes);
    if (read !== null) return { ...memoryCache(read.entries), loaded: { bytes, frames: read.frames } };
  } catch {
    // No cache yet, or a broken one: start empty.
  }
  return memoryCache();
}

/** The entries of a cache file: a header frame (format, fingerprint), then frames of [id, value] pairs; null when stale. */
export function entriesOfFrames(bytes: Buffer): Map<string, unknown> | null {
  return framesOfCache(bytes)?.entries ?? null;
}

/** entriesOfFrames, with where each frame of entries lies. */
function framesOfCache(bytes: Buffer): { entries: Map<string, unknown>; frames: FrameSpan[] } | null {
  const frames = framesOf(bytes);
  const header = frames.next();
  if (header.done) return null;
  const { format, fingerprint } = deserialize(header.value.bytes) as { format?: string; fingerprint?: string };
  if (format !== CACHE_FORMAT || fingerprint !== generatorFingerprint()) return null;
  const entries = new Map<string, unknown>();
  const spans: FrameSpan[] = [];
  for (const frame of frames) {
    const ids: string[] = [];
    for (const [id, value] of deserialize(frame.bytes) as Array<[string, unknown]>) {
      entries.set(id, value);
      ids.push(id);
    }
    spans.push({ start: frame.start, end: frame.end, ids });
  }
  return { entries, frames: spans };
}

function* framesOf(bytes: Buffer): Generator<{ bytes: Buffer; start: number; end: number }> {
  let offset = 0;
  while (offset < bytes.length) {
    if (offset + 4 > bytes.length) throw new Error('cache file cut short');
    const length = bytes.readUInt32LE(offset);
    const end = offset + 4 + length;
    if (end > bytes.length) throw new Error('cache file cut short');
    yield { bytes: bytes.subarray(offset + 4, end), start: offset, end };
    offset = end;
  }
}

/**
 * Keeps only the entries this build used, written atomically; not rewritten when this build computed nothing and used
 * every entry it loaded (the file holds just that already).
 */
export async function saveCache(outDir: string, cache: KeptCache): Promise<void> {
  const dir = cacheDir(outDir);
  const file = join(dir, ENTRIES_FILE);
  const unchanged = cache.stats.misses === 0 && cache.used.size === cache.entries.size && existsSync(file);
  if (!unchanged) writeFileAtomic(file, (put) => putCacheFrames(put, cache, keptFrames(cache)));
  // Remove leftovers of interrupted writes, and the JSON file of the cache's first format.
  for (const name of await readdir(dir)) if (name.endsWith('.tmp') || name === 'entries.json') await rm(join(dir, name), { force: true });
}

/**
 * The loaded file's frames that may go into the new file as the bytes they are: each full enough to be worth keeping
 * apart (at least half of FRAME_ENTRIES), every entry of it reused by this build and none computed again. Copying them
 * spares serializing what did not change: most of a large rebuild's cache, some 100 ms at 3,000 tools. They are copied
 * from the bytes loaded, whatever became of the file since.
 */
function keptFrames(cache: KeptCache): { bytes: Buffer; frames: FrameSpan[] } | null {
  const loaded = cache.loaded;
  if (loaded === undefined) return null;
  const frames = loaded.frames.filter(
    (frame) => frame.ids.length >= FRAME_ENTRIES / 2 && frame.ids.every((id) => cache.used.has(id) && !cache.computed.has(id)),
  );
  return frames.length === 0 ? null : { bytes: loaded.bytes, frames };
}

/**
 * The header frame, the kept frames as their bytes, then the other used entries in order of id, FRAME_ENTRIES to a
 * frame: each frame its length, then its bytes.
 */
function putCacheFrames(
  put: (part: Uint8Array) => void,
  cache: ReturnType<typeof memoryCache>,
  kept: { bytes: Buffer; frames: FrameSpan[] } | null,
): void {
  const putFrame = (value: unknown): void => {
    const bytes = serialize(value);
    const length = Buffer.alloc(4);
    length.writeUInt32LE(bytes.length);
    put(length);
    put(bytes);
  };
  putFrame({ format: CACHE_FORMAT, fingerprint: generatorFingerprint() });
  const copied = new Set<string>();
  for (const frame of kept?.frames ?? []) {
    put(kept!.bytes.subarray(frame.start, frame.end));
    for (const id of frame.ids) copied.add(id);
  }
  let frame: Array<[string, unknown]> = [];
  for (const id of [...cache.used].sort()) {
    const value = cache.entries.get(id);
    if (value === undefined || copied.has(id)) continue;
    frame.push([id, value]);
    if (frame.length === FRAME_ENTRIES) {
      putFrame(frame);
      frame = [];
    }
  }
  if (frame.length > 0) putFrame(frame);
}
