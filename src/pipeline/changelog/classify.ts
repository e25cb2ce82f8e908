// How much each change matters, judged separately for a caller of the typed SDK (compiles against the generated
// types) and for an MCP client (reads tools/list and the schemas at run time), and the semver bump that follows.

import type { SchemaChange, SchemaChangeKind } from './schema-diff.js';

/** `breaking` asks for a major release, `minor` is new ability, `patch` documentation only, `none` nothing visible. */
export type Impact = 'breaking' | 'minor' | 'patch' | 'none';
export type Bump = 'major' | 'minor' | 'patch' | 'none';
export type SchemaSide = 'input' | 'output';

export interface AudienceImpact {
  sdk: Impact;
  mcp: Impact;
}

export type ToolChangeKind =
  | 'tool-added'
  | 'tool-removed'
  | 'tool-withheld'
  | 'tool-advertised'
  | 'tool-renamed'
  | 'identifier-changed'
  | 'file-changed'
  | 'tool-deprecated'
  | 'tool-metadata-changed'
  | 'annotation-changed';

const IMPACT_ORDER: readonly Impact[] = ['none', 'patch', 'minor', 'breaking'];
const BUMP_OF: Readonly<Record<Impact, Bump>> = { breaking: 'major', minor: 'minor', patch: 'patch', none: 'none' };

export function highestImpact(impacts: Iterable<Impact>): Impact {
  let highest: Impact = 'none';
  for (const impact of impacts) if (IMPACT_ORDER.indexOf(impact) > IMPACT_ORDER.indexOf(highest)) highest = impact;
  return highest;
}

export function bumpOf(impact: Impact): Bump {
  return BUMP_OF[impact];
}

const both = (impact: Impact): AudienceImpact => ({ sdk: impact, mcp: impact });

/** Accepting fewer inputs breaks callers who sent the others; accepting more is a new ability. */
const inputByEffect = (change: SchemaChange): AudienceImpact =>
  both(change.effect === 'loosened' ? 'minor' : change.effect === 'annotation' ? 'patch' : 'breaking');
/** Producing values callers have never seen breaks their handling; producing fewer is only a sharper promise. */
const outputByEffect = (change: SchemaChange): AudienceImpact =>
  both(change.effect === 'tightened' || change.effect === 'annotation' ? 'patch' : 'breaking');
/** A bound or format callers rarely branch on: a looser one is new ability, a different one changes meaning. */
const outputConstraint = (change: SchemaChange): AudienceImpact =>
  both(change.effect === 'tightened' ? 'patch' : change.effect === 'loosened' ? 'minor' : 'breaking');

type Rule = (change: SchemaChange) => AudienceImpact;

const INPUT_RULES: Readonly<Record<SchemaChangeKind, Rule>> = {
  'property-added': (change) => both(change.required ? 'breaking' : 'minor'),
  'property-removed': () => both('breaking'),
  'required-added': () => both('breaking'),
  'required-removed': () => both('minor'),
  'type-changed': inputByEffect,
  'enum-added': inputByEffect,
  'enum-removed': inputByEffect,
  'enum-values-added': inputByEffect,
  'enum-values-removed': inputByEffect,
  'format-changed': inputByEffect,
  'pattern-changed': inputByEffect,
  'constraint-changed': inputByEffect,
  'additional-properties-changed': inputByEffect,
  'variant-added': inputByEffect,
  'variant-removed': inputByEffect,
  'keyword-changed': inputByEffect,
  // A caller who omits the field now gets other behaviour without any error: worth a minor release note.
  'default-changed': () => both('minor'),
  'description-changed': () => both('patch'),
  'deprecated-added': () => both('minor'),
  'deprecated-removed': () => both('patch'),
};

const OUTPUT_RULES: Readonly<Record<SchemaChangeKind, Rule>> = {
  'property-added': () => both('minor'),
  'property-removed': () => both('breaking'),
  'required-added': () => both('patch'),
  // The field may now be missing: the SDK type turns optional, clients reading it find nothing.
  'required-removed': () => both('breaking'),
  'type-changed': outputByEffect,
  // A new enum value breaks an SDK caller's exhaustive switch; MCP clients read values as data.
  'enum-removed': () => ({ sdk: 'breaking', mcp: 'minor' }),
  'enum-values-added': () => ({ sdk: 'breaking', mcp: 'minor' }),
  'enum-added': () => both('patch'),
  'enum-values-removed': () => both('patch'),
  'format-changed': outputConstraint,
  'pattern-changed': outputConstraint,
  'constraint-changed': outputConstraint,
  'additional-properties-changed': (change) => both(change.effect === 'tightened' ? 'patch' : 'minor'),
  'variant-added': outputByEffect,
  'variant-removed': outputByEffect,
  'keyword-changed': outputByEffect,
  'default-changed': () => both('patch'),
  'description-changed': () => both('patch'),
  'deprecated-added': () => both('minor'),
  'deprecated-removed': () => both('patch'),
};

export function classifySchemaChange(side: SchemaSide, change: SchemaChange): AudienceImpact {
  return (side === 'input' ? INPUT_RULES : OUTPUT_RULES)[change.kind](change);
}

const TOOL_RULES: Readonly<Record<Exclude<ToolChangeKind, 'annotation-changed'>, AudienceImpact>> = {
  'tool-added': both('minor'),
  'tool-removed': both('breaking'),
  // The typed wrapper still calls it; an MCP client no longer sees it in tools/list (only through the meta-tool).
  'tool-withheld': { sdk: 'none', mcp: 'breaking' },
  'tool-advertised': { sdk: 'none', mcp: 'minor' },
  // A new slug under the same SDK wrapper: code keeps calling it; MCP clients lose the tool name (and the meta-tool slug).
  'tool-renamed': { sdk: 'patch', mcp: 'breaking' },
  // The exported wrapper and its types are renamed: imports break. MCP names come from the slug, not this.
  'identifier-changed': { sdk: 'breaking', mcp: 'none' },
  // Module files are not exported from the package (only ./tools, ./types): an internal move.
  'file-changed': { sdk: 'patch', mcp: 'none' },
  'tool-deprecated': both('minor'),
  'tool-metadata-changed': both('patch'),
};

export type AnnotationHint = 'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint';

/** The hint that, when it turns true (or, for readOnlyHint, stops being true), raises the risk a host infers. */
const RISK_RAISED: Readonly<Record<AnnotationHint, (before: boolean | undefined, after: boolean | undefined) => boolean>> = {
  // A trust policy's risk ceiling (maxRisk) is judged from these hints: a tool that becomes destructive or reaches the
  // open world may be denied registration on the next connect, whatever its schema. Absent counts as not declared:
  // hosts that gate on a hint do not assume the spec's defaults.
  destructiveHint: (before, after) => after === true && before !== true,
  openWorldHint: (before, after) => after === true && before !== true,
  readOnlyHint: (before, after) => before === true && after !== true,
  // A retry that was safe may now repeat an effect.
  idempotentHint: (before, after) => before === true && after !== true,
};

/**
 * One annotation hint that changed. A change that raises the risk a host infers can get the tool denied by a trust
 * policy, so it is breaking for MCP clients; one that lowers it lets the tool through more policies (minor). The
 * typed SDK does not read annotations.
 */
export function classifyAnnotationChange(hint: AnnotationHint, before: boolean | undefined, after: boolean | undefined): AudienceImpact {
  if (RISK_RAISED[hint](before, after)) return { sdk: 'patch', mcp: 'breaking' };
  if (RISK_RAISED[hint](after, before)) return { sdk: 'patch', mcp: 'minor' };
  return { sdk: 'patch', mcp: 'patch' };
}

/** Tool-level changes other than annotations (see classifyAnnotationChange). */
export function classifyToolChange(kind: Exclude<ToolChangeKind, 'annotation-changed'>): AudienceImpact {
  return TOOL_RULES[kind];
}
