// The runtime compiled once, when the generator is built (prebuild-runtime.ts): its JavaScript and declarations, with
// a fingerprint of the sources and compiler they came from. The runtime is the same in every package, so the compile
// stage type-checks a package's own modules against these declarations and copies the JavaScript, instead of
// checking and emitting ~12k lines of runtime again; a package whose `src/runtime/` differs is compiled in full.
// With it, the declarations of the entry modules every package has word for word (`src/bin.ts`, `client.ts`,
// `index.ts`: the server and its SDK types, which the tool modules never reach), each by the hash of its text.

import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TSCONFIG } from '../emit/package-json.js';
import { COMPILER } from './compiler-version.js';

/** Where the generator keeps it: `dist/runtime-build/` (`runtime/**` as tsc emits it into a package's dist/, and `manifest.json`). */
export const PREBUILT_DIR = fileURLToPath(new URL('../../../dist/runtime-build/', import.meta.url));
export const MANIFEST_FILE = 'manifest.json';

/** The entry modules prebuilt with the runtime: templates rendered without a view, the same in every package. */
export const CONSTANT_ENTRIES = ['bin.ts', 'client.ts', 'index.ts'] as const;

export interface PrebuiltRuntime {
  /** Folder holding `runtime/**\/*.js` and `.d.ts`, and `entries/*.d.ts`. */
  dir: string;
  fingerprint: string;
  /** Entry module (`client.ts`, relative to `src/`) → sha256 of the text its prebuilt declarations were checked from. */
  entries: Readonly<Record<string, string>>;
}

export function textHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * What the prebuilt output depends on: every runtime source (path relative to `src/runtime/`, text), the compiler's
 * version and the package's compiler options. Equal fingerprints, byte-identical `dist/runtime/`.
 */
export function runtimeFingerprint(files: ReadonlyMap<string, string>): string {
  const hash = createHash('sha256').update(`${COMPILER}\0${JSON.stringify(TSCONFIG.compilerOptions)}\0`);
  for (const path of [...files.keys()].sort()) hash.update(`${path}\0${files.get(path)!}\0`);
  return hash.digest('hex');
}

/** The `.ts` sources under a package's `src/runtime/` as written on disk (relative POSIX path → text), sorted. */
export function packageRuntimeSources(root: string): Map<string, string> {
  const dir = join(root, 'src', 'runtime');
  const files = new Map<string, string>();
  if (!existsSync(dir)) return files;
  const entries = readdirSync(dir, { recursive: true, withFileTypes: true }).filter(
    (entry) => entry.isFile() && entry.name.endsWith('.ts'),
  );
  for (const entry of entries) {
    const full = join(entry.parentPath ?? entry.path, entry.name);
    files.set(
      full
        .slice(dir.length + 1)
        .split('\\')
        .join('/'),
      readFileSync(full, 'utf8'),
    );
  }
  return files;
}

export function readPrebuiltManifest(dir: string = PREBUILT_DIR): PrebuiltRuntime | null {
  try {
    const manifest = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8')) as {
      fingerprint?: unknown;
      entries?: Record<string, string>;
    };
    return typeof manifest.fingerprint === 'string' ? { dir, fingerprint: manifest.fingerprint, entries: manifest.entries ?? {} } : null;
  } catch {
    return null;
  }
}

/**
 * The prebuilt runtime when it was built from exactly the runtime sources the package at `root` holds, else null;
 * its `entries` narrowed to the entry modules the package holds word for word.
 */
export function prebuiltRuntimeFor(root: string, dir: string = PREBUILT_DIR): PrebuiltRuntime | null {
  const prebuilt = readPrebuiltManifest(dir);
  if (prebuilt === null) return null;
  const sources = packageRuntimeSources(root);
  if (sources.size === 0 || runtimeFingerprint(sources) !== prebuilt.fingerprint) return null;
  const entries: Record<string, string> = {};
  for (const [entry, hash] of Object.entries(prebuilt.entries)) {
    const file = join(root, 'src', entry);
    if (existsSync(file) && textHash(readFileSync(file, 'utf8')) === hash) entries[entry] = hash;
  }
  return { ...prebuilt, entries };
}
