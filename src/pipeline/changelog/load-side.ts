// One side of a changelog: a bundle file, an API URL or a generated package folder, read into its tools and the
// names a build gives them (SDK identifier, module file, advertised or withheld).

import { readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Manifest, ServedCatalogueFile } from '../../runtime/contracts.js';
import { namesLockOf, planPackage, type NamesLock } from '../plan/plan-package.js';
import { PipelineError } from '../problems.js';
import { failOnErrors, readAndCheck } from '../run-pipeline.js';
import { isApiSource, type SourceOptions } from '../source/read-source.js';
import { readNamesLock } from '../write/write-package.js';

export const SERVED_CATALOGUE_FILE = 'data/catalogue.json';
const SERVED_CATALOGUE_FORMAT = 'nexusbloom-served-catalogue/1';

export interface SideTool {
  slug: string;
  manifest: Manifest;
  /** camelCase name of the typed SDK wrapper. */
  identifier: string;
  /** Module file name under src/tools/ (without .ts); null when a package predates names.lock.json. */
  file: string | null;
  withheldReason: string | null;
}

export interface CatalogueSide {
  /** What was read, for reports: a URL, a bundle file or a package folder. */
  origin: string;
  kind: 'api' | 'bundle' | 'openapi' | 'package';
  /** Sorted by slug, by code unit. */
  tools: SideTool[];
  /** The names this side holds, which a build of the other side would keep (null: a package without a lock). */
  lock: NamesLock | null;
  /** The package's own version (package.json), for packages. */
  packageVersion: string | null;
}

export interface LoadSideOptions {
  sourceOptions?: SourceOptions;
  /** Names a previous build decided; a catalogue is planned with them, exactly as `build` would. */
  lock?: NamesLock | null;
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** A generated package folder: its served catalogue, names lock and version. */
export async function loadPackageSide(dir: string): Promise<CatalogueSide> {
  const cataloguePath = join(dir, SERVED_CATALOGUE_FILE);
  let served: ServedCatalogueFile;
  try {
    served = JSON.parse(await readFile(cataloguePath, 'utf8')) as ServedCatalogueFile;
  } catch (error) {
    throw new PipelineError(`${dir} is not a generated package: cannot read ${SERVED_CATALOGUE_FILE} (${(error as Error).message})`);
  }
  if (!served || served.format !== SERVED_CATALOGUE_FORMAT || !Array.isArray(served.tools)) {
    throw new PipelineError(`${cataloguePath} is not a served catalogue (format "${SERVED_CATALOGUE_FORMAT}")`);
  }
  const lock = await readNamesLock(dir);
  const lockedFile = (slug: string): string | null => {
    if (!lock || !Object.prototype.hasOwnProperty.call(lock.tools, slug)) return null;
    const file = lock.tools[slug]?.file;
    return typeof file === 'string' ? file : null;
  };
  const tools = served.tools.map((tool): SideTool => ({
    slug: tool.slug,
    manifest: tool.manifest,
    identifier: tool.identifier,
    file: lockedFile(tool.slug),
    withheldReason: tool.withheldReason,
  }));
  let packageVersion: string | null;
  try {
    const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { version?: unknown };
    packageVersion = typeof manifest.version === 'string' ? manifest.version : null;
  } catch {
    packageVersion = null;
  }
  return { origin: dir, kind: 'package', tools: tools.sort((a, b) => byCodeUnit(a.slug, b.slug)), lock, packageVersion };
}

/** A catalogue (API or bundle), checked and planned as a build would; fails on any error the check finds. */
async function loadCatalogueSide(source: string, options: LoadSideOptions): Promise<CatalogueSide> {
  const { raw, check } = await readAndCheck(source, options.sourceOptions ?? {});
  failOnErrors(check.problems, `catalogue ${raw.origin} has problems`);
  const plan = planPackage(check.tools, options.lock ?? null);
  const tools = plan.tools.map((tool): SideTool => ({
    slug: tool.slug,
    manifest: tool.manifest,
    identifier: tool.identifier,
    file: tool.fileName,
    withheldReason: tool.withheldReason,
  }));
  return { origin: raw.origin, kind: raw.kind, tools, lock: namesLockOf(plan), packageVersion: null };
}

/** Whether `path` is a package's served catalogue (its data/catalogue.json), which is no bundle. */
async function isServedCatalogueFile(path: string): Promise<boolean> {
  try {
    return (JSON.parse(await readFile(path, 'utf8')) as { format?: unknown } | null)?.format === SERVED_CATALOGUE_FORMAT;
  } catch {
    return false;
  }
}

/** `source` is an API base URL, a generated package folder (holding data/catalogue.json) or a bundle file. */
export async function loadSide(source: string, options: LoadSideOptions = {}): Promise<CatalogueSide> {
  if (isApiSource(source)) return loadCatalogueSide(source, options);
  if (await isDirectory(source)) return loadPackageSide(source);
  // Read as a bundle, it would fail with an error for every field of every tool.
  if (await isServedCatalogueFile(source)) {
    throw new PipelineError(`${source} is the ${SERVED_CATALOGUE_FILE} of a generated package, not a bundle: pass the package folder (${dirname(dirname(source))})`);
  }
  return loadCatalogueSide(source, options);
}

/** The package a previous build left in `dir`, or null when there is none. */
export async function loadPreviousPackage(dir: string): Promise<CatalogueSide | null> {
  try {
    await stat(join(dir, SERVED_CATALOGUE_FILE));
  } catch {
    return null;
  }
  return loadPackageSide(dir);
}
