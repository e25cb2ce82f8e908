// The runtime compiled once, when the generator is built (prebuild-runtime.ts): its JavaScript and declarations, with
// a fingerprint of the sources and compiler they came from. The runtime is the same in every package, so the compile
// stage type-checks a package's own modules against these declarations and copies the JavaScript, instead of
// checking and emitting ~12k lines of runtime again; a package whose `src/runtime/` differs is compiled in full.

import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ts } from 'ts-morph';
import { TSCONFIG } from '../emit/package-json.js';

/** Where the generator keeps it: `dist/runtime-build/` (`runtime/**` as tsc emits it into a package's dist/, and `manifest.json`). */
export const PREBUILT_DIR = fileURLToPath(new URL('../../../dist/runtime-build/', import.meta.url));
export const MANIFEST_FILE = 'manifest.json';

export interface PrebuiltRuntime {
  /** Folder holding `runtime/**\/*.js` and `.d.ts`. */
  dir: string;
  fingerprint: string;
}

/**
 * What the prebuilt output depends on: every runtime source (path relative to `src/runtime/`, text), the compiler's
 * version and the package's compiler options. Equal fingerprints, byte-identical `dist/runtime/`.
 */
export function runtimeFingerprint(files: ReadonlyMap<string, string>): string {
  const hash = createHash('sha256').update(`${ts.version}\0${JSON.stringify(TSCONFIG.compilerOptions)}\0`);
  for (const path of [...files.keys()].sort()) hash.update(`${path}\0${files.get(path)!}\0`);
  return hash.digest('hex');
}

/** The `.ts` sources under a package's `src/runtime/` as written on disk (relative POSIX path → text), sorted. */
export function packageRuntimeSources(root: string): Map<string, string> {
  const dir = join(root, 'src', 'runtime');
  const files = new Map<string, string>();
  if (!existsSync(dir)) return files;
  const entries = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile() && entry.name.endsWith('.ts'));
  for (const entry of entries) {
    const full = join(entry.parentPath ?? entry.path, entry.name);
    files.set(full.slice(dir.length + 1).split('\\').join('/'), readFileSync(full, 'utf8'));
  }
  return files;
}

export function readPrebuiltManifest(dir: string = PREBUILT_DIR): PrebuiltRuntime | null {
  try {
    const manifest = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8')) as { fingerprint?: unknown };
    return typeof manifest.fingerprint === 'string' ? { dir, fingerprint: manifest.fingerprint } : null;
  } catch {
    return null;
  }
}

/** The prebuilt runtime when it was built from exactly the runtime sources the package at `root` holds, else null. */
export function prebuiltRuntimeFor(root: string, dir: string = PREBUILT_DIR): PrebuiltRuntime | null {
  const prebuilt = readPrebuiltManifest(dir);
  if (prebuilt === null) return null;
  const sources = packageRuntimeSources(root);
  return sources.size > 0 && runtimeFingerprint(sources) === prebuilt.fingerprint ? prebuilt : null;
}
