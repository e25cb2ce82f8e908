// The version of the package a build is about to write, decided before emit: never below the package already in the
// output folder, and with `build --bump` / `--changelog` raised by what changed since it. `--changelog` also gives the
// CHANGELOG.md entry titled with that version (no date, so the same inputs give the same bytes); `write` writes both.

import type { PackagePlan } from '../plan/plan-package.js';
import type { PackageFolder } from '../write/read-package.js';
import type { Bump } from './classify.js';
import { buildChangelog, bumpVersion, compareVersions, type Changelog } from './changelog.js';
import { packageSideOf, sideToolsOf, type CatalogueSide } from './load-side.js';
import { latestChangelogVersion, prependChangelogEntry, renderMarkdown } from './render-markdown.js';

/** keep: the configured version, or the folder's when higher; bump: raised by the changes; changelog: bump and log them. */
export type ReleaseMode = 'keep' | 'bump' | 'changelog';

/** What a previous build left in the output folder, as far as the version needs it. */
export interface PreviousPackage {
  /** package.json `version` of a package a build wrote (one with names.lock.json); null otherwise. */
  version: string | null;
  /** Its tools, read only when the changes are asked for (bump, changelog). */
  side: CatalogueSide | null;
  /** Its CHANGELOG.md, read with the tools. */
  changelogText: string | null;
}

export interface Release {
  /** The version package.json and server.json are emitted with. */
  version: string;
  bump: Bump;
  changelog: Changelog | null;
  /** CHANGELOG.md as the package holds it after this build; null: not emitted (a file there is left alone). */
  changelogText: string | null;
  /** The title of the entry this build adds to CHANGELOG.md, or null when it adds none. */
  entry: string | null;
}

/**
 * What `planRelease` needs of the folder an earlier build wrote, from what readPackageFolder read there: its version
 * counts only when a build wrote it (a hand-made package.json is not this package's history), its tools when read.
 */
export function previousPackageOf(dir: string, folder: PackageFolder): PreviousPackage {
  const version = folder.lock === null ? null : folder.version;
  const side = folder.catalogueText === null ? null : packageSideOf(dir, folder);
  return { version, side, changelogText: side === null ? null : folder.changelogText };
}

/** The side of the changelog a plan is: the tools and names the package about to be written holds. */
export function planSide(plan: PackagePlan): CatalogueSide {
  return { origin: 'this build', kind: 'package', tools: sideToolsOf(plan), lock: null, packageVersion: null };
}

function highest(...versions: Array<string | null>): string {
  return (
    versions
      .filter((version): version is string => version !== null)
      .sort(compareVersions)
      .at(-1) ?? '0.0.0'
  );
}

/**
 * The release a build writes. The next version counts from the higher of the folder's package.json version and the
 * newest CHANGELOG.md entry, and never goes below the configured packageVersion (raising it by hand still wins).
 */
export function planRelease(previous: PreviousPackage, plan: PackagePlan, configured: string, mode: ReleaseMode): Release {
  const kept = highest(configured, previous.version);
  if (mode === 'keep' || previous.side === null) return { version: kept, bump: 'none', changelog: null, changelogText: null, entry: null };
  const changelog = buildChangelog(previous.side, planSide(plan));
  const existing = mode === 'changelog' ? previous.changelogText : null;
  const base = highest(previous.version, latestChangelogVersion(previous.changelogText));
  if (changelog.bump === 'none') return { version: highest(kept, base), bump: 'none', changelog, changelogText: existing, entry: null };
  const version = highest(bumpVersion(base, changelog.bump), configured);
  const changelogText = mode === 'changelog' ? prependChangelogEntry(existing, renderMarkdown(changelog, version)) : null;
  return { version, bump: changelog.bump, changelog, changelogText, entry: mode === 'changelog' ? version : null };
}
