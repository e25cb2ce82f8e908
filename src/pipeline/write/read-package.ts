// What an earlier build left in a package folder, read once before a build: its names lock, version, served
// catalogue and changelog. The one place the generator reads a package folder.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LAYOUT } from '../plan/layout.js';
import type { NamesLock } from '../plan/plan-package.js';

export interface PackageFolder {
  /** The names lock, when the folder holds a usable one: a folder a build wrote. */
  lock: NamesLock | null;
  /** package.json `version`, whatever wrote the file. */
  version: string | null;
  /** The served catalogue's text; null when absent or not asked for. */
  catalogueText: string | null;
  /** CHANGELOG.md; null when absent or not asked for. */
  changelogText: string | null;
}

/** A file of the package in `dir`, or null when it cannot be read. */
export async function readPackageFile(dir: string, path: string): Promise<string | null> {
  try {
    return await readFile(join(dir, path), 'utf8');
  } catch {
    return null;
  }
}

function parsed(text: string | null): unknown {
  try {
    return text === null ? null : (JSON.parse(text) as unknown);
  } catch {
    return null;
  }
}

/** The names lock a previous build left in `dir`, or null (none, or not ours). */
export async function readNamesLock(dir: string): Promise<NamesLock | null> {
  const lock = parsed(await readPackageFile(dir, LAYOUT.namesLock)) as NamesLock | null;
  return lock && lock.format === 'nexusbloom-names/1' && typeof lock.tools === 'object' ? lock : null;
}

/** The package in `dir`: its lock and version always, its catalogue and changelog when `tools` (a changelog needs them). */
export async function readPackageFolder(dir: string, what: { tools: boolean }): Promise<PackageFolder> {
  const [lock, manifest, catalogueText, changelogText] = await Promise.all([
    readNamesLock(dir),
    readPackageFile(dir, LAYOUT.packageJson).then(parsed) as Promise<{ version?: unknown } | null>,
    what.tools ? readPackageFile(dir, LAYOUT.servedCatalogue) : null,
    what.tools ? readPackageFile(dir, LAYOUT.changelog) : null,
  ]);
  return { lock, version: typeof manifest?.version === 'string' ? manifest.version : null, catalogueText, changelogText };
}
