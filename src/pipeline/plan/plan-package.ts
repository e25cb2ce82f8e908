// The plan stage: decides every name in the package once, from the checked tools, before anything is emitted.

import type { Manifest } from '../../runtime/contracts.js';
import type { CheckedTool } from '../check/check-catalogue.js';
import { PipelineError } from '../problems.js';
import { baseNames, isCanonicalSpelling, isReservedIdentifier, typeNameOf, withHashSuffix, type BaseNames } from './naming.js';
import { planTypeNames, type TypeNames } from './type-names.js';

export interface PlannedTool extends BaseNames {
  slug: string;
  manifest: Manifest;
  withheldReason: string | null;
  inputTypeName: string;
  outputTypeName: string;
  /** Every exported type of the tool's module, by the JSON pointer of its schema (see type-names.ts). */
  typeNames: TypeNames;
}

export interface PackagePlan {
  /** Sorted by slug, by code unit. */
  tools: PlannedTool[];
}

export const NAMES_LOCK_FILE = 'names.lock.json';

/** The committed record of every name decided so far (`names.lock.json`), so later builds keep them. */
export interface NamesLock {
  format: 'nexusbloom-names/1';
  tools: Record<string, { tool: string | null; identifier: string; file: string }>;
}

const LOCKED_IDENTIFIER = /^[a-z][A-Za-z0-9_]{0,127}$/;
const LOCKED_FILE = /^[a-z0-9][a-z0-9-]{0,127}$/;

/** The names a lock holds for `slug`, when it holds usable ones (a hand-edited lock is data, never trusted code). */
function lockedNames(lock: NamesLock | null, slug: string): BaseNames | null {
  if (!lock || !lock.tools || !Object.prototype.hasOwnProperty.call(lock.tools, slug)) return null;
  const entry = lock.tools[slug];
  if (!entry || typeof entry.identifier !== 'string' || typeof entry.file !== 'string') return null;
  // A reserved identifier (a lock written before `then` was reserved, or edited by hand) cannot be kept.
  if (!LOCKED_IDENTIFIER.test(entry.identifier) || isReservedIdentifier(entry.identifier) || !LOCKED_FILE.test(entry.file)) return null;
  return { identifier: entry.identifier, typeName: typeNameOf(entry.identifier), fileName: entry.file };
}

export function namesLockOf(plan: PackagePlan): NamesLock {
  const tools: NamesLock['tools'] = {};
  for (const tool of plan.tools) {
    Object.defineProperty(tools, tool.slug, {
      value: { tool: tool.withheldReason === null ? tool.slug : null, identifier: tool.identifier, file: tool.fileName },
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return { format: 'nexusbloom-names/1', tools };
}

const keyOf = (names: BaseNames): string[] => [`id:${names.identifier.toLowerCase()}`, `file:${names.fileName.toLowerCase()}`, `type:${names.typeName}`];

/**
 * Slugs whose base names clash (case-insensitively, since file systems and some hosts fold case) are told apart by
 * a hash of each slug; the one canonical spelling among them (lower-case words joined by `-`) keeps the plain name.
 */
export function planPackage(tools: readonly CheckedTool[], lock: NamesLock | null = null): PackagePlan {
  // Names already in the lock are kept; only new slugs get names, and never one a locked slug holds.
  const base = tools.map((tool) => {
    const locked = lockedNames(lock, tool.manifest.slug);
    return { tool, locked, names: locked ?? baseNames(tool.manifest.slug) };
  });
  const lockedKeys = new Set(base.flatMap(({ locked }) => (locked ? keyOf(locked) : [])));
  const claims = new Map<string, number>();
  const canonicalClaims = new Map<string, number>();
  for (const { tool, names, locked } of base) {
    if (locked) continue;
    for (const key of keyOf(names)) {
      claims.set(key, (claims.get(key) ?? 0) + 1);
      if (isCanonicalSpelling(tool.manifest.slug)) canonicalClaims.set(key, (canonicalClaims.get(key) ?? 0) + 1);
    }
  }
  const named = base.map(({ tool, names, locked }) => {
    const slug = tool.manifest.slug;
    const clashes = keyOf(names).some((key) => (claims.get(key) ?? 0) > 1 || lockedKeys.has(key));
    const keepsPlain = isCanonicalSpelling(slug) && keyOf(names).every((key) => canonicalClaims.get(key) === 1 && !lockedKeys.has(key));
    const chosen = locked ?? (clashes && !keepsPlain ? withHashSuffix(names, slug) : names);
    return { slug, manifest: tool.manifest, withheldReason: tool.withheldReason, ...chosen };
  });
  const taken = new Map<string, string>();
  for (const tool of named) {
    for (const key of keyOf(tool)) {
      const other = taken.get(key);
      if (other !== undefined) {
        throw new PipelineError(`tools ${JSON.stringify(other)} and ${JSON.stringify(tool.slug)} map to the same name ${key}`, [
          { severity: 'error', slug: tool.slug, pointer: '/slug', message: `name ${key} is also taken by ${JSON.stringify(other)}`, hint: 'rename one of the slugs' },
        ]);
      }
      taken.set(key, tool.slug);
    }
  }
  const typeNames = planTypeNames(named);
  const planned = named.map((tool): PlannedTool => {
    const own = typeNames.get(tool.slug) ?? {};
    return { ...tool, inputTypeName: own['/input_schema'] ?? `${tool.typeName}Input`, outputTypeName: own['/output_schema'] ?? `${tool.typeName}Output`, typeNames: own };
  });
  return { tools: planned };
}
