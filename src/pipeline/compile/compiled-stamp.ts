// What the last successful compile of a package saw and left: a digest of its sources (every file under `src/`, with
// `package.json`, `tsconfig.json` and the installed dependencies' versions as npm records them in
// `node_modules/.package-lock.json`, by content), of the compiler, generator and prebuilt runtime that compiled them,
// and of the `dist/` it wrote (each file's path, size and modification time). Equal stamps, nothing to compile: the
// compile stage keeps `dist/` as it is. The stamp is removed before a compile starts, so a compile that fails or is
// cut short never leaves one behind.

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ts } from 'ts-morph';
import { cacheDir, generatorFingerprint, hashCodeIn } from '../cache/build-cache.js';
import { writeFileAtomic } from '../write/atomic-write.js';
import type { PrebuiltRuntime } from './runtime-prebuilt.js';

const STAMP_FILE = 'compiled.json';
const STAMP_FORMAT = 'nexusbloom-gen-compiled/1';

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
  compilerCode ??= hashCodeIn(createHash('sha256').update(`${ts.version}\0${generatorFingerprint()}\0`), [
    new URL('./', import.meta.url),
  ]).digest('base64url');
  return compilerCode;
}

/** The digest of what a compile of `root` reads: its sources and configuration, and what compiles them. */
export function sourcesDigest(root: string, prebuilt: PrebuiltRuntime | null): string {
  const hash = createHash('sha256').update(`${STAMP_FORMAT}\0${compilerDigest()}\0${prebuilt?.fingerprint ?? 'no prebuilt runtime'}\0`);
  const files = [
    ...filesUnder(join(root, 'src')).map((path) => `src/${path}`),
    'package.json',
    'tsconfig.json',
    'node_modules/.package-lock.json',
  ];
  for (const path of files) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(root, path));
    } catch {
      hash.update(`${path}\0missing\0`);
      continue;
    }
    hash.update(`${path}\0${bytes.length}\0`).update(bytes);
  }
  return hash.digest('base64url');
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

function stampPath(root: string): string {
  return join(cacheDir(root), STAMP_FILE);
}

/** Whether the last successful compile saw these sources and left `dist/` as it is now. */
export function compiledAsStamped(root: string, sources: string): boolean {
  try {
    const stamp = JSON.parse(readFileSync(stampPath(root), 'utf8')) as { sources?: string; dist?: string };
    return stamp.sources === sources && stamp.dist === distDigest(root);
  } catch {
    return false;
  }
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
 * Records a successful compile of `sources`, with the `dist/` it left. The stamp only saves time: failing to write it
 * fails nothing.
 */
export function writeStamp(root: string, sources: string): void {
  try {
    writeFileAtomic(stampPath(root), `${JSON.stringify({ format: STAMP_FORMAT, sources, dist: distDigest(root) })}\n`);
  } catch {
    // The next compile compiles.
  }
}
