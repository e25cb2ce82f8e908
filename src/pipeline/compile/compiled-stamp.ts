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
  /** Each file under `src/` (`src/tools/a.ts`) → [the hash of its content, its type-relevant hash]. */
  files: Map<string, [string, string]>;
}

/** The type-relevant hash of an own module's text (type-relevant-text.ts); of any other file, its content's hash. */
const typesHashOf = (path: string, bytes: Buffer, content: string): string =>
  isOwnModule(path) ? typeRelevantHash(bytes.toString('utf8')) : content;

/**
 * The package's sources, each file read once. A file whose content the stamp of the same context holds takes its
 * type-relevant hash from there; an own module that differs from it is handed back with its text too (`changed`):
 * what a re-emit writes from is the very text that was compared.
 */
export function compileSources(
  root: string,
  prebuilt: PrebuiltRuntime | null,
  stamp: Stamp | null,
): { sources: CompileSources; changed: Map<string, string> } {
  const hash = createHash('sha256').update(`${STAMP_FORMAT}\0${compilerDigest()}\0${prebuilt?.fingerprint ?? 'no prebuilt runtime'}\0`);
  for (const path of ['package.json', 'tsconfig.json', 'node_modules/.package-lock.json']) {
    try {
      hash.update(`${path}\0`).update(hashOf(readFileSync(join(root, path))));
    } catch {
      hash.update(`${path}\0missing\0`);
    }
  }
  const context = hash.digest('base64url');
  // Only a stamp of this context says what the type-relevant hash of a content is (the reduction is this stage's code).
  const known = stamp?.context === context ? stamp.files : null;
  const files = new Map<string, [string, string]>();
  const changed = new Map<string, string>();
  for (const name of filesUnder(join(root, 'src'))) {
    const path = `src/${name}`;
    const bytes = readFileSync(join(root, path));
    const content = hashOf(bytes);
    const stamped = known?.[path];
    if (stamped !== undefined && stamped[0] === content) {
      files.set(path, stamped);
      continue;
    }
    files.set(path, [content, typesHashOf(path, bytes, content)]);
    if (known !== null && isOwnModule(path)) changed.set(path, bytes.toString('utf8'));
  }
  return { sources: { context, files }, changed };
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
export type CompileNeed =
  | { kind: 'kept' }
  | { kind: 'reemit'; modules: ReemittedModule[]; /** What the bin bundles, unchanged. */ bundled: string[] }
  | { kind: 'compile' };

export function compileNeed(
  root: string,
  sources: CompileSources,
  stamp: Stamp | null,
  changedTexts: ReadonlyMap<string, string>,
): CompileNeed {
  if (stamp === null || stamp.context !== sources.context) return { kind: 'compile' };
  const stamped = Object.keys(stamp.files);
  if (stamped.length !== sources.files.size || stamped.some((path) => !sources.files.has(path))) return { kind: 'compile' };
  const changed = stamped.filter((path) => stamp.files[path]![0] !== sources.files.get(path)![0]);
  // dist/ last: a stat of every file, the dearest of these checks.
  if (stamp.dist !== distDigest(root)) return { kind: 'compile' };
  if (changed.length === 0) return { kind: 'kept' };
  const bundled = new Set(stamp.bundled);
  const modules: ReemittedModule[] = [];
  for (const path of changed) {
    // Only an own module's text is handed in (compileSources): any other file changed needs a compile.
    const text = changedTexts.get(path);
    if (text === undefined || bundled.has(path) || sources.files.get(path)![1] !== stamp.files[path]![1]) return { kind: 'compile' };
    modules.push({ path, text });
  }
  return { kind: 'reemit', modules, bundled: stamp.bundled };
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
 * Records a successful compile of `sources` as they were read before it, with the sources its bin bundle holds and the
 * `dist/` it left. A file changed while the compile ran is recorded as it was read, so the next build sees it changed.
 * The stamp only saves time: failing to write it fails nothing.
 */
export function writeStamp(root: string, sources: CompileSources, bundled: readonly string[]): void {
  try {
    const stamp: Stamp = {
      format: STAMP_FORMAT,
      context: sources.context,
      files: Object.fromEntries(sources.files),
      bundled: [...bundled].sort(),
      dist: distDigest(root),
    };
    writeFileAtomic(stampPath(root), `${JSON.stringify(stamp)}\n`);
  } catch {
    // The next compile compiles.
  }
}
