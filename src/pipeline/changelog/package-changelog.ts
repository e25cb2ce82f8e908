// `build --changelog`: after a build, prepends to the package's CHANGELOG.md what changed since the package that
// was in the folder before, titled with the suggested next version (no date, so the same inputs give the same bytes).

import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Bump } from './classify.js';
import { buildChangelog, bumpVersion, compareVersions, type Changelog } from './changelog.js';
import { loadPackageSide, type CatalogueSide } from './load-side.js';
import { CHANGELOG_FILE, latestChangelogVersion, prependChangelogEntry, renderMarkdown } from './render-markdown.js';

export interface PackageChangelogResult {
  /** Path of CHANGELOG.md inside the package. */
  file: string;
  bump: Bump;
  /** The entry's title, or null when nothing changed and nothing was written. */
  version: string | null;
  changelog: Changelog;
}

async function readIfExists(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return null;
  }
}

/**
 * Compares `previous` (read from `outDir` before the build wrote it) with the package now in `outDir`. The next
 * version counts from the higher of the old package.json version and the newest CHANGELOG.md entry, so entries keep
 * climbing even when the configured packageVersion has not been raised yet.
 */
export async function updatePackageChangelog(outDir: string, previous: CatalogueSide): Promise<PackageChangelogResult> {
  const current = await loadPackageSide(outDir);
  const changelog = buildChangelog(previous, current);
  const file = join(outDir, CHANGELOG_FILE);
  if (changelog.bump === 'none') return { file, bump: 'none', version: null, changelog };
  const existing = await readIfExists(file);
  const candidates = [previous.packageVersion ?? '0.0.0', latestChangelogVersion(existing) ?? '0.0.0'];
  const base = candidates.sort(compareVersions)[candidates.length - 1]!;
  const version = bumpVersion(base, changelog.bump);
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, prependChangelogEntry(existing, renderMarkdown(changelog, version)));
  await rename(temporary, file);
  return { file, bump: changelog.bump, version, changelog };
}
