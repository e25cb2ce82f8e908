// What the last successful compile of a package saw and left: each file under `src/` by its content and by the part
// of it a type-check reads (type-relevant-text.ts); what else the compile reads (`package.json`, `tsconfig.json`, the
// installed dependencies' versions as npm records them in `node_modules/.package-lock.json`, the compiler, generator
// and prebuilt runtime); the sources the bin's bundle holds; and the `dist/` it wrote (each file's path, size and
// modification time). Against it, a compile knows whether there is nothing to do, only some modules' JavaScript and
// declarations to write again (their docs changed, not their types), or a compile to run. The stamp is removed before
// anything is written, so a compile that fails or is cut short never leaves one behind.

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir, generatorFingerprint, hashCodeIn } from '../cache/build-cache.js';
import { writeFileAtomic } from '../write/atomic-write.js';
import type { PrebuiltRuntime } from './runtime-prebuilt.js';
import { typeRelevantHash } from './type-relevant-text.js';
import { COMPILER } from './compiler-version.js';

const STAMP_FILE = 'compiled.json';
const STAMP_FORMAT = 'nexusbloom-gen-compiled/2';

/** The files under `dir` (relative POSIX paths), sorted; none when it does not exist. */
function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) =>
        join(entry.parentPath, entry.name)
          .slice(dir.length + 1)
          .split('\\')
          .join('/'),
      )
      .sort();
  } catch {
    return [];
  }
}

let compilerCode: string | undefined;

/** A hash of the compiler's version, the generator's fingerprint (its version, dependencies and emit's code) and this stage's code. */
function compilerDigest(): string {
  compilerCode ??= hashCodeIn(createHash('sha256').update(`${COMPILER}\0${generatorFingerprint()}\0`), [
    new URL('./', import.meta.url),
  ]).digest('base64url');
  return compilerCode;
}

const hashOf = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('base64url');

/** What a compile of a package reads, as it stands. */
export interface CompileSources {
  /** A digest of everything but `src/`: the configuration, the installed dependencies, and what compiles them. */
  context: string;
  /** Each file under `src/` (`src/tools/a.ts`) → the hash of its content. */
  files: Map<string, string>;
}

export function compileSources(root: string, prebuilt: PrebuiltRuntime | null): CompileSources {
  const context = createHash('sha256').update(`${STAMP_FORMAT}\0${compilerDigest()}\0${prebuilt?.fingerprint ?? 'no prebuilt runtime'}\0`);
  for (const path of ['package.json', 'tsconfig.json', 'node_modules/.package-lock.json']) {
    try {
      context.update(`${path}\0`).update(hashOf(readFileSync(join(root, path))));
    } catch {
      context.update(`${path}\0missing\0`);
    }
  }
  const files = new Map<string, string>();
  for (const path of filesUnder(join(root, 'src'))) files.set(`src/${path}`, hashOf(readFileSync(join(root, 'src', path))));
  return { context: context.digest('base64url'), files };
}

/** The digest of `dist/` as it stands: each file's path, size and modification time. */
function distDigest(root: string): string {
  const dist = join(root, 'dist');
  const hash = createHash('sha256');
  for (const path of filesUnder(dist)) {
    const { size, mtimeMs } = statSync(join(dist, path));
    hash.update(`${path}\0${size}\0${mtimeMs}\0`);
  }
  return hash.digest('base64url');
}

export interface Stamp {
  format: typeof STAMP_FORMAT;
  context: string;
  /** Path → [content hash, type-relevant hash]. */
  files: Record<string, [string, string]>;
  /** The files under `src/` that `dist/bin.js` bundles. */
  bundled: string[];
  dist: string;
}

function stampPath(root: string): string {
  return join(cacheDir(root), STAMP_FILE);
}

/** The stamp of the last successful compile, or null (none, unreadable, or of another format). */
export function readStamp(root: string): Stamp | null {
  try {
    const stamp = JSON.parse(readFileSync(stampPath(root), 'utf8')) as Partial<Stamp>;
    if (stamp.format !== STAMP_FORMAT || typeof stamp.files !== 'object' || stamp.files === null || !Array.isArray(stamp.bundled))
      return null;
    return stamp as Stamp;
  } catch {
    return null;
  }
}

/**
 * Whether the file under `src/` is one of the package's own modules, which a compile writes the JavaScript and
 * declarations of from its text alone (see compile-package.ts): not the runtime, whose output is the prebuilt one's.
 */
export function isOwnModule(path: string): boolean {
  return path.startsWith('src/') && path.endsWith('.ts') && !path.endsWith('.d.ts') && !path.startsWith('src/runtime/');
}

/** The file's text, while its content is the one `sources` hashed; null once it changed (a build then compiles). */
function textAsHashed(root: string, path: string, contentHash: string): string | null {
  try {
    const bytes = readFileSync(join(root, path));
    return hashOf(bytes) === contentHash ? bytes.toString('utf8') : null;
  } catch {
    return null;
  }
}

/** The type-relevant hash of an own module's text (type-relevant-text.ts); of any other file, its content's hash. */
function typesHashOf(path: string, text: string, contentHash: string): string {
  return isOwnModule(path) ? typeRelevantHash(text) : contentHash;
}

/** A module to write again, with the text whose type-relevant part the last compile checked. */
export interface ReemittedModule {
  path: string;
  text: string;
}

/**
 * What a compile of `sources` has to do, by the stamp: `kept`, nothing (the sources and `dist/` are as the last compile
 * left them); `reemit`, write the JavaScript and declarations of these own modules again, whose changes a type-check
 * does not read (no file added or removed, none that the bin bundles, nothing else changed); else `compile`.
 */
export type CompileNeed = { kind: 'kept' } | { kind: 'reemit'; modules: ReemittedModule[] } | { kind: 'compile' };

export function compileNeed(root: string, sources: CompileSources, stamp: Stamp | null): CompileNeed {
  if (stamp === null || stamp.context !== sources.context) return { kind: 'compile' };
  const stamped = Object.keys(stamp.files);
  if (stamped.length !== sources.files.size || stamped.some((path) => !sources.files.has(path))) return { kind: 'compile' };
  const changed = stamped.filter((path) => stamp.files[path]![0] !== sources.files.get(path));
  // dist/ last: a stat of every file, the dearest of these checks.
  if (stamp.dist !== distDigest(root)) return { kind: 'compile' };
  if (changed.length === 0) return { kind: 'kept' };
  const bundled = new Set(stamp.bundled);
  const modules: ReemittedModule[] = [];
  for (const path of changed) {
    if (!isOwnModule(path) || bundled.has(path)) return { kind: 'compile' };
    const content = sources.files.get(path)!;
    const text = textAsHashed(root, path, content);
    if (text === null || typesHashOf(path, text, content) !== stamp.files[path]![1]) return { kind: 'compile' };
    modules.push({ path, text });
  }
  return { kind: 'reemit', modules };
}

/** Removes the stamp; where it cannot be removed, reports false, and the compile goes ahead without one. */
export function removeStamp(root: string): boolean {
  try {
    rmSync(stampPath(root), { force: true });
    return true;
  } catch {
    return false;
  }
}

/**
 * Records a successful compile of `sources`, with the sources its bin bundle holds and the `dist/` it left. A file's
 * type-relevant hash is taken from `previous` (the stamp this one replaces) where its content is the same. The stamp
 * only saves time: failing to write it fails nothing.
 */
export function writeStamp(root: string, sources: CompileSources, bundled: readonly string[], previous: Stamp | null): void {
  try {
    const files: Record<string, [string, string]> = {};
    for (const [path, content] of sources.files) {
      const known = previous?.files[path];
      if (known !== undefined && known[0] === content) {
        files[path] = known;
        continue;
      }
      // A file changed since the compile read it: its text was not what was checked, so no stamp says it was.
      const text = textAsHashed(root, path, content);
      if (text === null) return;
      files[path] = [content, typesHashOf(path, text, content)];
    }
    const stamp: Stamp = { format: STAMP_FORMAT, context: sources.context, files, bundled: [...bundled].sort(), dist: distDigest(root) };
    writeFileAtomic(stampPath(root), `${JSON.stringify(stamp)}\n`);
  } catch {
    // The next compile compiles.
  }
}
