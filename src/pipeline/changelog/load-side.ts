// One side of a changelog: a bundle file, an API URL or a generated package folder, read into its tools and the
// names a build gives them (SDK identifier, module file, advertised or withheld).

import { readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { byCodeUnit } from '../../runtime/shared/order.js';
import type { Manifest, ServedCatalogueFile } from '../../runtime/shared/contracts.js';
import { LAYOUT } from '../plan/layout.js';
import { namesLockOf, planPackage, type NamesLock, type PackagePlan } from '../plan/plan-package.js';
import { failOnErrors, PipelineError } from '../problems.js';
import { readAndCheck } from '../read-and-check.js';
import { isApiSource, type SourceOptions } from '../source/read-source.js';
import { readPackageFolder, type PackageFolder } from '../write/read-package.js';

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

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** A generated package folder: its served catalogue, names lock and version. */
export async function loadPackageSide(dir: string): Promise<CatalogueSide> {
  return packageSideOf(dir, await readPackageFolder(dir, { tools: true }));
}

/** The side a package folder read by readPackageFolder is; fails when it holds no served catalogue. */
export function packageSideOf(dir: string, folder: PackageFolder): CatalogueSide {
  let served: ServedCatalogueFile;
  try {
    if (folder.catalogueText === null) throw new Error('no such file');
    served = JSON.parse(folder.catalogueText) as ServedCatalogueFile;
  } catch (error) {
    throw new PipelineError(`${dir} is not a generated package: cannot read ${LAYOUT.servedCatalogue} (${(error as Error).message})`);
  }
  if (!served || served.format !== SERVED_CATALOGUE_FORMAT || !Array.isArray(served.tools)) {
    throw new PipelineError(`${join(dir, LAYOUT.servedCatalogue)} is not a served catalogue (format "${SERVED_CATALOGUE_FORMAT}")`);
  }
  const { lock } = folder;
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
  return { origin: dir, kind: 'package', tools: tools.sort((a, b) => byCodeUnit(a.slug, b.slug)), lock, packageVersion: folder.version };
}

/** A catalogue (API or bundle), checked and planned as a build would; fails on any error the check finds. */
async function loadCatalogueSide(source: string, options: LoadSideOptions): Promise<CatalogueSide> {
  const { raw, check } = await readAndCheck(source, options.sourceOptions ?? {});
  failOnErrors(check.problems, `catalogue ${raw.origin} has problems`);
  const plan = planPackage(check.tools, options.lock ?? null);
  return { origin: raw.origin, kind: raw.kind, tools: sideToolsOf(plan), lock: namesLockOf(plan), packageVersion: null };
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
    throw new PipelineError(
      `${source} is the ${LAYOUT.servedCatalogue} of a generated package, not a bundle: pass the package folder (${dirname(dirname(source))})`,
    );
  }
  return loadCatalogueSide(source, options);
}

/** A plan's tools as a side of the changelog holds them. */
export function sideToolsOf(plan: PackagePlan): SideTool[] {
  return plan.tools.map((tool): SideTool => ({
    slug: tool.slug,
    manifest: tool.manifest,
    identifier: tool.identifier,
    file: tool.fileName,
    withheldReason: tool.withheldReason,
  }));
}
