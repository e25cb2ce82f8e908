// The changelog between two sides: tools added, removed and changed (names, visibility, metadata, annotations,
// every input/output schema change), each classified for SDK callers and MCP clients, and the suggested bump.

import { isDeepStrictEqual } from 'node:util';
import { byCodeUnit } from '../../runtime/shared/order.js';
import type { JsonObject } from '../../runtime/shared/contracts.js';
import { defineOwn } from '../../runtime/shared/json-values.js';
import {
  bumpOf,
  classifyAnnotationChange,
  classifySchemaChange,
  classifyToolChange,
  highestImpact,
  type AnnotationHint,
  type Bump,
  type SchemaSide,
  type ToolChangeKind,
} from './classify.js';
import type { CatalogueSide, SideTool } from './load-side.js';
import type { Changelog, ChangelogChange, ToolChangelog } from './changes.js';
import { describeChange } from './describe.js';
import { diffSchemas } from './schema-diff.js';

export type { Changelog, ChangelogChange, ToolChangelog } from './changes.js';

type ChangeInput = Omit<ChangelogChange, 'message'>;
const withMessage = (change: ChangeInput): ChangelogChange => ({ ...change, message: describeChange(change) });

function toolChange(
  kind: Exclude<ToolChangeKind, 'annotation-changed'>,
  keyword: string,
  before?: unknown,
  after?: unknown,
): ChangelogChange {
  const change: ChangeInput = { kind, schema: null, pointer: '', keyword, ...classifyToolChange(kind) };
  if (before !== undefined) change.before = before;
  if (after !== undefined) change.after = after;
  return withMessage(change);
}

/** One hint that changed, whole (before → after), at its pointer in the manifest. */
function annotationChange(hint: AnnotationHint, before: boolean | undefined, after: boolean | undefined): ChangelogChange {
  const change: ChangeInput = {
    kind: 'annotation-changed',
    schema: null,
    pointer: `/annotations/${hint}`,
    keyword: hint,
    ...classifyAnnotationChange(hint, before, after),
  };
  if (before !== undefined) change.before = before;
  if (after !== undefined) change.after = after;
  return withMessage(change);
}

/** What a missing schema means: an input of no declared parameters, an output of any value. */
function schemaOrDefault(side: SchemaSide, schema: JsonObject | null | undefined): unknown {
  if (schema !== null && schema !== undefined) return schema;
  return side === 'input' ? { type: 'object' } : true;
}

const METADATA_FIELDS = ['name', 'description', 'category', 'tags', 'version'] as const;
const ANNOTATION_HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

/** Every change to one tool present on both sides, tool-level first, then input, then output schema. */
export function diffTool(before: SideTool, after: SideTool): ChangelogChange[] {
  const changes: ChangelogChange[] = [];
  if (before.withheldReason === null && after.withheldReason !== null)
    changes.push(toolChange('tool-withheld', 'slug', null, after.withheldReason));
  if (before.withheldReason !== null && after.withheldReason === null)
    changes.push(toolChange('tool-advertised', 'slug', before.withheldReason, null));
  if (before.identifier !== after.identifier)
    changes.push(toolChange('identifier-changed', 'identifier', before.identifier, after.identifier));
  if (before.file !== null && after.file !== null && before.file !== after.file)
    changes.push(toolChange('file-changed', 'file', before.file, after.file));
  const wasDeprecated = before.manifest.deprecated;
  const isDeprecated = after.manifest.deprecated;
  if (wasDeprecated === undefined && isDeprecated !== undefined)
    changes.push(toolChange('tool-deprecated', 'deprecated', undefined, isDeprecated));
  else if (wasDeprecated !== isDeprecated) changes.push(toolChange('tool-metadata-changed', 'deprecated', wasDeprecated, isDeprecated));
  for (const field of METADATA_FIELDS) {
    if (!isDeepStrictEqual(before.manifest[field], after.manifest[field]))
      changes.push(toolChange('tool-metadata-changed', field, before.manifest[field], after.manifest[field]));
  }
  const annotationsBefore = before.manifest.annotations ?? {};
  const annotationsAfter = after.manifest.annotations ?? {};
  for (const hint of ANNOTATION_HINTS) {
    if (annotationsBefore[hint] !== annotationsAfter[hint])
      changes.push(annotationChange(hint, annotationsBefore[hint], annotationsAfter[hint]));
  }
  for (const side of ['input', 'output'] as const) {
    const field = side === 'input' ? 'input_schema' : 'output_schema';
    for (const change of diffSchemas(schemaOrDefault(side, before.manifest[field]), schemaOrDefault(side, after.manifest[field]))) {
      changes.push(withMessage({ ...change, schema: side, ...classifySchemaChange(side, change) }));
    }
  }
  return changes;
}

function summarize(slug: string, status: ToolChangelog['status'], changes: ChangelogChange[]): ToolChangelog {
  return { slug, status, sdk: highestImpact(changes.map((c) => c.sdk)), mcp: highestImpact(changes.map((c) => c.mcp)), changes };
}

/** What a caller sends and gets back: equal for two tools, they are one tool under another name. */
function schemaFingerprint(tool: SideTool): string {
  return JSON.stringify([
    canonicalJson(schemaOrDefault('input', tool.manifest.input_schema)),
    canonicalJson(schemaOrDefault('output', tool.manifest.output_schema)),
  ]);
}

/** JSON with object keys sorted by code unit, so key order (which JSON Schema ignores) does not tell schemas apart. */
function canonicalJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonicalJson);
  if (value === null || typeof value !== 'object') return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort(byCodeUnit)) {
    defineOwn(sorted, key, canonicalJson((value as Record<string, unknown>)[key]));
  }
  return sorted;
}

/**
 * Removed tools an added tool continues, by the added tool's slug: first the one whose SDK wrapper name it took over
 * (identifiers are unique on each side), then, among the rest, the one with the same input and output schemas when
 * exactly one removed and one added tool share them, whatever their identifiers.
 */
function renamedTools(oldTools: Map<string, SideTool>, newTools: Map<string, SideTool>): Map<string, SideTool> {
  const removed = [...oldTools.values()].filter((t) => !newTools.has(t.slug));
  const added = [...newTools.values()].filter((t) => !oldTools.has(t.slug));
  const removedByIdentifier = new Map(removed.map((t) => [t.identifier, t]));
  const renamed = new Map<string, SideTool>();
  for (const tool of added) {
    const old = removedByIdentifier.get(tool.identifier);
    if (old) renamed.set(tool.slug, old);
  }
  const pairedAway = new Set([...renamed.values()].map((t) => t.slug));
  const bySchemas = (tools: SideTool[]): Map<string, SideTool[]> => {
    const groups = new Map<string, SideTool[]>();
    for (const tool of tools) groups.set(schemaFingerprint(tool), [...(groups.get(schemaFingerprint(tool)) ?? []), tool]);
    return groups;
  };
  const removedBySchemas = bySchemas(removed.filter((t) => !pairedAway.has(t.slug)));
  for (const [fingerprint, candidates] of bySchemas(added.filter((t) => !renamed.has(t.slug)))) {
    const olds = removedBySchemas.get(fingerprint);
    if (candidates.length === 1 && olds?.length === 1) renamed.set(candidates[0]!.slug, olds[0]!);
  }
  return renamed;
}

/**
 * The changelog from `before` to `after`; tools are matched by exact slug, and a removed slug that an added slug
 * continues (same SDK wrapper, or the same schemas) is reported as that tool renamed (under its new slug), not as a
 * removal and an addition.
 */
export function buildChangelog(before: CatalogueSide, after: CatalogueSide): Changelog {
  const oldTools = new Map(before.tools.map((t) => [t.slug, t]));
  const newTools = new Map(after.tools.map((t) => [t.slug, t]));
  const renamed = renamedTools(oldTools, newTools);
  const renamedAway = new Set([...renamed.values()].map((t) => t.slug));
  const slugs = [...new Set([...oldTools.keys(), ...newTools.keys()])].sort(byCodeUnit);
  const tools: ToolChangelog[] = [];
  for (const slug of slugs) {
    const old = oldTools.get(slug);
    const current = newTools.get(slug);
    const renamedFrom = renamed.get(slug);
    if (renamedAway.has(slug)) continue;
    if (renamedFrom && current) {
      const pairedBy = renamedFrom.identifier === current.identifier ? 'identifier' : 'schemas';
      const rename = withMessage({
        kind: 'tool-renamed',
        schema: null,
        pointer: '',
        keyword: 'slug',
        before: renamedFrom.slug,
        after: slug,
        pairedBy,
        ...classifyToolChange('tool-renamed'),
      });
      tools.push(summarize(slug, 'changed', [rename, ...diffTool(renamedFrom, current)]));
    } else if (!old && current)
      tools.push(
        summarize(slug, 'added', [
          toolChange('tool-added', 'slug', undefined, { identifier: current.identifier, withheld: current.withheldReason }),
        ]),
      );
    else if (old && !current)
      tools.push(
        summarize(slug, 'removed', [toolChange('tool-removed', 'slug', { identifier: old.identifier, withheld: old.withheldReason })]),
      );
    else if (old && current) {
      const changes = diffTool(old, current);
      if (changes.length > 0) tools.push(summarize(slug, 'changed', changes));
    }
  }
  const all = tools.flatMap((t) => t.changes);
  const breakingForSdk = all.filter((c) => c.sdk === 'breaking').length;
  const breakingForMcp = all.filter((c) => c.mcp === 'breaking').length;
  return {
    bump: bumpOf(highestImpact(all.flatMap((c) => [c.sdk, c.mcp]))),
    breaking: { sdk: breakingForSdk > 0, mcp: breakingForMcp > 0 },
    counts: {
      added: tools.filter((t) => t.status === 'added').length,
      removed: tools.filter((t) => t.status === 'removed').length,
      changed: tools.filter((t) => t.status === 'changed').length,
      breakingForSdk,
      breakingForMcp,
    },
    tools,
  };
}

/**
 * `1.4.2` bumped by `minor` is `1.5.0`; a pre-release or build suffix is dropped; unreadable versions count as 0.0.0.
 * Below 1.0.0 a breaking change raises the minor number (`0.3.1` → `0.4.0`), as npm's caret ranges read 0.x: a
 * package leaves 0.x when its maintainers set 1.0.0 themselves.
 */
export function bumpVersion(version: string, bump: Bump): string {
  const [major, minor, patch] = parseVersion(version);
  if (bump === 'major') return major === 0 ? `0.${minor + 1}.0` : `${major + 1}.0.0`;
  if (bump === 'minor') return `${major}.${minor + 1}.0`;
  if (bump === 'patch') return `${major}.${minor}.${patch + 1}`;
  return `${major}.${minor}.${patch}`;
}

export function parseVersion(version: string): [number, number, number] {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version.trim());
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : [0, 0, 0];
}

export function compareVersions(a: string, b: string): number {
  const [x, y] = [parseVersion(a), parseVersion(b)];
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
}
