// The plan stage: decides every name in the package once, from the checked tools, before anything is emitted.

import type { Manifest } from '../../runtime/shared/contracts.js';
import { defineOwn } from '../../runtime/shared/json-values.js';
import type { CheckedTool } from '../check/check-catalogue.js';
import { PipelineError } from '../problems.js';
import { TOOL_NAME_GRAMMAR } from '../../runtime/catalogue/advertise.js';
import { sanitizedToolName, withToolNameHash } from './tool-names.js';
import { baseNames, isCanonicalSpelling, isReservedIdentifier, typeNameOf, withHashSuffix, type BaseNames } from './naming.js';
import { planSharedTypes, planTypeNames, schemaOutline, type SchemaOutline, type SharedType, type TypeNames } from './type-names.js';

export interface PlannedTool extends BaseNames {
  slug: string;
  manifest: Manifest;
  withheldReason: string | null;
  /** The valid name tools/list shows for a foreign slug (`toolNames: "sanitize"`); absent when listed by slug, or withheld. */
  toolName?: string;
  inputTypeName: string;
  outputTypeName: string;
  /** Every exported type of the tool's module, by the JSON pointer of its schema (see type-names.ts). */
  typeNames: TypeNames;
  /** The tool's definitions typed once in the shared types module: JSON pointer from the manifest → shared name. */
  sharedTypeNames?: Readonly<Record<string, string>>;
}

export interface PackagePlan {
  /** Sorted by slug, by code unit. */
  tools: PlannedTool[];
  /** Definitions more than one tool schema holds, each typed once (see type-names.ts); sorted by name. */
  sharedTypes?: SharedType[];
}

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
    defineOwn(tools, tool.slug, {
      tool: tool.withheldReason === null ? (tool.toolName ?? tool.slug) : null,
      identifier: tool.identifier,
      file: tool.fileName,
    });
  }
  return { format: 'nexusbloom-names/1', tools };
}

const keyOf = (names: BaseNames): string[] => [
  `id:${names.identifier.toLowerCase()}`,
  `file:${names.fileName.toLowerCase()}`,
  `type:${names.typeName}`,
];

/**
 * Slugs whose base names clash (case-insensitively, since file systems and some hosts fold case) are told apart by
 * a hash of each slug; the one canonical spelling among them (lower-case words joined by `-`) keeps the plain name.
 */
/** How slugs outside the tool-name grammar are treated: `withheld` (the reference behaviour) or mapped to valid names. */
export type ToolNamesMode = 'withheld' | 'sanitize';

export interface PlanOptions {
  toolNames?: ToolNamesMode;
  /** Each tool's SchemaOutline, in the order of the tools (the build's, from its cache); made here when not given. */
  outlines?: readonly SchemaOutline[];
}

/**
 * With `sanitize`, each withheld slug gets a valid tool name (`issues/create` → `issues_create`): the one the lock
 * recorded when it still fits, else its sanitized spelling, with a hash of the slug when that is taken by a listed
 * slug or another mapped name (compared case-insensitively, as some hosts fold case).
 */
function mappedToolNames(tools: readonly CheckedTool[], lock: NamesLock | null, mode: ToolNamesMode): Map<string, string> {
  const mapped = new Map<string, string>();
  if (mode !== 'sanitize') return mapped;
  const taken = new Set(tools.filter((t) => t.withheldReason === null).map((t) => t.manifest.slug.toLowerCase()));
  const foreign = tools.filter((t) => t.withheldReason !== null).map((t) => t.manifest.slug);
  const lockedName = (slug: string): string | null => {
    const entry = lock?.tools && Object.prototype.hasOwnProperty.call(lock.tools, slug) ? lock.tools[slug] : undefined;
    return typeof entry?.tool === 'string' && entry.tool !== slug && TOOL_NAME_GRAMMAR.test(entry.tool) ? entry.tool : null;
  };
  // Locked names first, so a new slug never takes a name an earlier build gave another.
  for (const slug of foreign) {
    const name = lockedName(slug);
    if (name !== null && !taken.has(name.toLowerCase())) {
      mapped.set(slug, name);
      taken.add(name.toLowerCase());
    }
  }
  const wanted = new Map<string, number>();
  for (const slug of foreign)
    if (!mapped.has(slug)) wanted.set(sanitizedToolName(slug).toLowerCase(), (wanted.get(sanitizedToolName(slug).toLowerCase()) ?? 0) + 1);
  for (const slug of foreign) {
    if (mapped.has(slug)) continue;
    const plain = sanitizedToolName(slug);
    const name = taken.has(plain.toLowerCase()) || (wanted.get(plain.toLowerCase()) ?? 0) > 1 ? withToolNameHash(plain, slug) : plain;
    if (taken.has(name.toLowerCase())) {
      throw new PipelineError(`tool name ${JSON.stringify(name)} for ${JSON.stringify(slug)} is taken`, [
        {
          severity: 'error',
          slug,
          pointer: '/slug',
          message: `its mapped tool name ${JSON.stringify(name)} is taken by another tool`,
          hint: 'rename one of the slugs',
        },
      ]);
    }
    mapped.set(slug, name);
    taken.add(name.toLowerCase());
  }
  return mapped;
}

export function planPackage(tools: readonly CheckedTool[], lock: NamesLock | null = null, options: PlanOptions = {}): PackagePlan {
  const toolNames = mappedToolNames(tools, lock, options.toolNames ?? 'withheld');
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
    const toolName = toolNames.get(slug);
    return {
      slug,
      manifest: tool.manifest,
      withheldReason: toolName === undefined ? tool.withheldReason : null,
      ...(toolName === undefined ? {} : { toolName }),
      ...chosen,
    };
  });
  const taken = new Map<string, string>();
  for (const tool of named) {
    for (const key of keyOf(tool)) {
      const other = taken.get(key);
      if (other !== undefined) {
        throw new PipelineError(`tools ${JSON.stringify(other)} and ${JSON.stringify(tool.slug)} map to the same name ${key}`, [
          {
            severity: 'error',
            slug: tool.slug,
            pointer: '/slug',
            message: `name ${key} is also taken by ${JSON.stringify(other)}`,
            hint: 'rename one of the slugs',
          },
        ]);
      }
      taken.set(key, tool.slug);
    }
  }
  const outlines = options.outlines ?? tools.map((tool) => schemaOutline(tool.manifest));
  const typeNames = planTypeNames(named, outlines);
  const shared = planSharedTypes(named, typeNames, outlines);
  const planned = named.map((tool): PlannedTool => {
    const own = typeNames.get(tool.slug) ?? {};
    const sharedTypeNames = shared.byTool.get(tool.slug);
    return {
      ...tool,
      inputTypeName: own['/input_schema'] ?? `${tool.typeName}Input`,
      outputTypeName: own['/output_schema'] ?? `${tool.typeName}Output`,
      typeNames: own,
      ...(sharedTypeNames && { sharedTypeNames }),
    };
  });
  return { tools: planned, sharedTypes: shared.types };
}
