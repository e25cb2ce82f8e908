// The plan stage: decides every name in the package once, from the checked tools, before anything is emitted.

import type { Manifest } from '../../runtime/contracts.js';
import type { CheckedTool } from '../check/check-catalogue.js';
import { PipelineError } from '../problems.js';
import { baseNames, isCanonicalSpelling, withHashSuffix, type BaseNames } from './naming.js';

export interface PlannedTool extends BaseNames {
  slug: string;
  manifest: Manifest;
  withheldReason: string | null;
  inputTypeName: string;
  outputTypeName: string;
}

export interface PackagePlan {
  /** Sorted by slug, by code unit. */
  tools: PlannedTool[];
}

const keyOf = (names: BaseNames): string[] => [`id:${names.identifier.toLowerCase()}`, `file:${names.fileName.toLowerCase()}`];

/**
 * Slugs whose base names clash (case-insensitively, since file systems and some hosts fold case) are told apart by
 * a hash of each slug; the one canonical spelling among them (lower-case words joined by `-`) keeps the plain name.
 */
export function planPackage(tools: readonly CheckedTool[]): PackagePlan {
  const base = tools.map((tool) => ({ tool, names: baseNames(tool.manifest.slug) }));
  const claims = new Map<string, number>();
  const canonicalClaims = new Map<string, number>();
  for (const { tool, names } of base) {
    for (const key of keyOf(names)) {
      claims.set(key, (claims.get(key) ?? 0) + 1);
      if (isCanonicalSpelling(tool.manifest.slug)) canonicalClaims.set(key, (canonicalClaims.get(key) ?? 0) + 1);
    }
  }
  const planned = base.map(({ tool, names }): PlannedTool => {
    const slug = tool.manifest.slug;
    const clashes = keyOf(names).some((key) => (claims.get(key) ?? 0) > 1);
    const keepsPlain = isCanonicalSpelling(slug) && keyOf(names).every((key) => canonicalClaims.get(key) === 1);
    const chosen = clashes && !keepsPlain ? withHashSuffix(names, slug) : names;
    return {
      slug,
      manifest: tool.manifest,
      withheldReason: tool.withheldReason,
      ...chosen,
      inputTypeName: `${chosen.typeName}Input`,
      outputTypeName: `${chosen.typeName}Output`,
    };
  });
  const taken = new Map<string, string>();
  for (const tool of planned) {
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
  return { tools: planned };
}
