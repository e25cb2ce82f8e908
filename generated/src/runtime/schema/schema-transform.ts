// Pure transforms over JSON Schema documents (never mutating their input): walking subschemas and inlining `$ref`s.

import type { JsonObject } from '../shared/contracts.js';
import { defineOwn, isJsonObject, pointerToken } from '../shared/json-values.js';

/** A schema is an object or a boolean (`true` accepts anything, `false` nothing). */
export type SchemaNode = JsonObject | boolean;

// The subschema keywords of draft-07 and 2020-12, for every walker of schemas (the generator's too), in one place.
/** Keywords whose value is one subschema (`items` too, unless it is the draft-07 tuple form). */
export const SCHEMA_KEYWORDS = [
  'not',
  'if',
  'then',
  'else',
  'additionalItems',
  'contains',
  'propertyNames',
  'additionalProperties',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
  'items',
] as const;
/** Keywords whose value is an array of subschemas (`items` too, in its draft-07 tuple form). */
export const SCHEMA_ARRAY_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'] as const;
/** Keywords whose value maps names to subschemas, every value a subschema. */
export const SCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'] as const;
/** draft-07's `dependencies`: maps names to subschemas or to arrays of names. */
export const SCHEMA_OR_NAMES_MAP_KEYWORDS = ['dependencies'] as const;

/** What each subschema-holding keyword holds; one lookup per key of a node instead of one per keyword. */
const KEYWORD_KINDS: ReadonlyMap<string, ReadonlySet<'schema' | 'array' | 'map'>> = (() => {
  const kinds = new Map<string, Set<'schema' | 'array' | 'map'>>();
  const add = (keyword: string, kind: 'schema' | 'array' | 'map') => kinds.set(keyword, (kinds.get(keyword) ?? new Set()).add(kind));
  for (const keyword of SCHEMA_KEYWORDS) add(keyword, 'schema');
  for (const keyword of SCHEMA_ARRAY_KEYWORDS) add(keyword, 'array');
  for (const keyword of [...SCHEMA_MAP_KEYWORDS, ...SCHEMA_OR_NAMES_MAP_KEYWORDS]) add(keyword, 'map');
  return kinds;
})();

/** Where a subschema sits under its parent: the keyword, and the property name or index when there is one. */
export interface SubschemaLocation {
  keyword: string;
  key?: string | number;
}

function isSchemaValue(value: unknown): value is SchemaNode {
  return typeof value === 'boolean' || isJsonObject(value);
}

/**
 * A copy of `node` with every direct subschema replaced by `map(subschema, location)`. Data keywords (`enum`, `const`,
 * `default`, `examples`) and property names are never treated as schemas. Returns `node` itself when nothing changed.
 */
export function mapSubschemas(node: JsonObject, map: (schema: SchemaNode, at: SubschemaLocation) => SchemaNode): JsonObject {
  let copy: JsonObject | undefined;
  for (const keyword of Object.keys(node)) {
    const kinds = KEYWORD_KINDS.get(keyword);
    if (kinds === undefined) continue;
    const value = node[keyword];
    let next: unknown = value;
    if (kinds.has('schema') && isSchemaValue(value)) {
      next = map(value, { keyword });
    } else if (kinds.has('array') && Array.isArray(value)) {
      next = mapArray(value, keyword, map);
    } else if (kinds.has('map') && isJsonObject(value)) {
      let mapped: JsonObject | undefined;
      for (const name of Object.keys(value)) {
        const sub = value[name];
        if (!isSchemaValue(sub)) continue;
        const replaced = map(sub, { keyword, key: name });
        if (replaced === sub) continue;
        mapped ??= copyOwn(value);
        defineOwn(mapped, name, replaced);
      }
      if (mapped !== undefined) next = mapped;
    }
    if (next === value) continue;
    copy ??= { ...node };
    copy[keyword] = next;
  }
  return copy ?? node;
}

function mapArray(values: unknown[], keyword: string, map: (schema: SchemaNode, at: SubschemaLocation) => SchemaNode): unknown[] {
  let changed = false;
  const next = values.map((value, index) => {
    if (!isSchemaValue(value)) return value;
    const mapped = map(value, { keyword, key: index });
    if (mapped !== value) changed = true;
    return mapped;
  });
  return changed ? next : values;
}

/** Keywords that map names to subschemas, where readers of tool schemas expect each value to be an object. */
export const NAMED_SCHEMA_KEYWORDS: ReadonlySet<string> = new Set([...SCHEMA_MAP_KEYWORDS, ...SCHEMA_OR_NAMES_MAP_KEYWORDS]);

/**
 * `schema` with every boolean subschema that a name maps to (under `properties`, `$defs` and the other map keywords)
 * spelled as an object of the same meaning: `true` as `{}`, `false` as `{"not":{}}`. The MCP SDK's Tool schema (1.32)
 * requires `inputSchema.properties` values to be objects and rejects a whole tools/list otherwise. Booleans elsewhere
 * (`additionalProperties: false` above all, which strict hosts require spelled so) stay as written. Returns `schema`
 * itself when nothing changed.
 */
export function namedBooleanSubschemasAsObjects(schema: JsonObject): JsonObject {
  return mapSubschemas(schema, (sub, at) => {
    if (typeof sub !== 'boolean') return namedBooleanSubschemasAsObjects(sub);
    if (at.key === undefined || !NAMED_SCHEMA_KEYWORDS.has(at.keyword)) return sub;
    return sub ? {} : { not: {} };
  });
}

/** Calls `visit` on `schema` and every subschema below it, depth first, with the JSON pointer of each. */
export function forEachSchema(schema: SchemaNode, visit: (node: SchemaNode, pointer: string) => void, pointer = ''): void {
  visit(schema, pointer);
  if (!isJsonObject(schema)) return;
  mapSubschemas(schema, (sub, at) => {
    const key = at.key === undefined ? '' : `/${pointerToken(String(at.key))}`;
    forEachSchema(sub, visit, `${pointer}/${at.keyword}${key}`);
    return sub;
  });
}

/**
 * A shallow copy that keeps keys such as `__proto__` as own data properties (a plain spread would too, but
 * assignment would not), since property names in catalogue schemas are arbitrary text.
 */
export function copyOwn(source: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(source)) defineOwn(out, key, value);
  return out;
}

/**
 * How deep a recursive `$ref` is spelled out by default before the rest is left to the server's own validation. Each
 * level multiplies a branching recursion's size (the example catalogue's JSON-schema tool: 0.9k characters as written,
 * 2.8k at depth 2, 6k at depth 3), and agents rarely need more than the shape of two levels to build a call.
 */
export const DEFAULT_RECURSION_DEPTH = 2;
/** Above this many characters of JSON, recursion is spelled out less deeply (down to 0) to keep tools/list small. */
export const MAX_INLINED_CHARS = 20_000;

const DEFINITION_KEYWORDS = ['$defs', 'definitions'] as const;
/** Keywords that only annotate: merging them next to an inlined target cannot change what validates. */
const ANNOTATION_KEYWORDS = new Set(['description', 'title', 'default', 'examples', '$comment', 'deprecated', 'readOnly', 'writeOnly']);

export interface InlinedSchema {
  /** The schema with every internal reference replaced by its target and no `$defs`/`definitions` left. */
  schema: JsonObject;
  /** References that are recursive and were cut below `depth` levels, sorted. Empty when none was cut. */
  cutRefs: string[];
  /** How many levels of each recursive reference are spelled out (meaningful only when `cutRefs` is not empty). */
  depth: number;
  /** References that could not be resolved (external, or pointing nowhere) and now accept anything, sorted. */
  unresolvedRefs: string[];
}

export interface InlineOptions {
  /** Levels of a recursive reference spelled out; DEFAULT_RECURSION_DEPTH by default. */
  depth?: number;
  /** Size guard; MAX_INLINED_CHARS by default. */
  maxChars?: number;
}

/**
 * Replaces internal `$ref`s (`#`, `#/$defs/x`, `#/definitions/x`, any JSON pointer, `#anchor`) with their targets.
 * Without recursion the result accepts exactly what the input accepts. A recursive reference is spelled out `depth`
 * levels deep; below that the schema accepts anything (`{}` with a description saying so), and the root description
 * says how deep it goes. A `$ref` with validating siblings becomes `allOf: [target, siblings]` so both still apply.
 */
export function inlineRefs(schema: JsonObject, options: InlineOptions = {}): InlinedSchema {
  const maxChars = options.maxChars ?? MAX_INLINED_CHARS;
  let depth = Math.max(1, options.depth ?? DEFAULT_RECURSION_DEPTH);
  let result = inlineAtDepth(schema, depth);
  while (result.cutRefs.length > 0 && depth > 1 && JSON.stringify(result.schema).length > maxChars) {
    depth -= 1;
    result = inlineAtDepth(schema, depth);
  }
  return result;
}

/**
 * The schema with its refs inlined where that keeps its meaning exactly, else as it is (refs and `$defs` kept): a
 * recursive schema spelled out to a depth accepts deeper instances the original rejects. A 2019-09 `$recursiveRef` or
 * a ref that does not resolve is inlined as far as it goes, since a 2020-12 reader could not follow it either.
 */
export function inlineRefsExactly(schema: JsonObject, options: InlineOptions = {}): JsonObject {
  const inlined = inlineRefs(schema, options);
  if (inlined.cutRefs.length === 0 || inlined.unresolvedRefs.length > 0 || usesRecursiveRef(schema)) return inlined.schema;
  return schema;
}

function usesRecursiveRef(schema: JsonObject): boolean {
  let found = false;
  forEachSchema(schema, (node) => {
    if (typeof node !== 'boolean' && ('$recursiveRef' in node || '$dynamicRef' in node)) found = true;
  });
  return found;
}

function inlineAtDepth(root: JsonObject, depth: number): InlinedSchema {
  if (!containsRefsOrDefinitions(root)) return { schema: root, cutRefs: [], depth, unresolvedRefs: [] };
  let anchors: Map<string, SchemaNode> | undefined;
  const anchorsOf = (): Map<string, SchemaNode> => (anchors ??= collectAnchors(root));
  const cut = new Set<string>();
  const unresolved = new Set<string>();

  const walk = (node: SchemaNode, stack: readonly string[], isTop = false): SchemaNode => {
    if (!isJsonObject(node)) return node;
    const ref = refOf(node);
    if (ref === undefined)
      return withoutIdentifiers(
        mapSubschemas(node, (sub) => walk(sub, stack)),
        isTop,
      );
    const { $ref: _ref, $recursiveRef: _recursiveRef, ...siblings } = node;
    const rest = walk(siblings, stack, isTop) as JsonObject;
    // The first occurrence on a path is not recursion; an occurrence inside its own expansion is.
    if (stack.filter((entry) => entry === ref).length >= depth) {
      cut.add(ref);
      return {
        ...rest,
        ...('description' in rest ? {} : { description: `Deeper levels (${ref}) are not spelled out here; the server checks them.` }),
      };
    }
    const target = resolveRef(root, ref, anchorsOf);
    if (target === undefined) {
      unresolved.add(ref);
      return rest;
    }
    const expanded = walk(target, [...stack, ref]);
    return combine(expanded, rest);
  };

  const inlined = walk(root, ['#'], true) as JsonObject;
  const cutRefs = [...cut].sort();
  let schema = inlined;
  if (cutRefs.length > 0) {
    const note =
      `Recursive parts (${cutRefs.join(', ')}) are spelled out ${depth} level${depth === 1 ? '' : 's'} deep; ` +
      'deeper values are accepted here and checked by the server against the full schema.';
    schema = {
      ...inlined,
      description: typeof inlined.description === 'string' && inlined.description !== '' ? `${inlined.description}\n${note}` : note,
    };
  }
  return { schema, cutRefs, depth, unresolvedRefs: [...unresolved].sort() };
}

/** `$ref`, or the draft 2019-09 `$recursiveRef: "#"` (which, without `$recursiveAnchor` scopes, means the root). */
function refOf(node: JsonObject): string | undefined {
  if (typeof node.$ref === 'string') return node.$ref;
  if (node.$recursiveRef === '#') return '#';
  return undefined;
}

/** The inlined target next to the `$ref`'s own siblings, keeping what both validate. */
function combine(target: SchemaNode, siblings: JsonObject): SchemaNode {
  if (Object.keys(siblings).length === 0) return target;
  const annotationsOnly = Object.keys(siblings).every((key) => ANNOTATION_KEYWORDS.has(key));
  if (annotationsOnly) {
    if (target === true) return siblings;
    if (target === false) return { ...siblings, not: {} };
    return { ...target, ...siblings };
  }
  const existing = Array.isArray(siblings.allOf) ? siblings.allOf : [];
  return { ...siblings, allOf: [target, ...existing] };
}

/** Identifiers an inlined copy must not repeat (ajv rejects a duplicate anchor) and definitions nothing refers to any more. */
const IDENTIFIER_KEYWORDS = ['$id', '$anchor', '$dynamicAnchor', '$recursiveAnchor'] as const;

function withoutIdentifiers(node: JsonObject, isRoot: boolean): JsonObject {
  const dropped = [...DEFINITION_KEYWORDS, ...IDENTIFIER_KEYWORDS, ...(isRoot ? [] : ['$schema'])];
  if (!dropped.some((keyword) => keyword in node)) return node;
  const copy = { ...node };
  for (const keyword of dropped) delete copy[keyword];
  return copy;
}

/** A quick textual test first: most schemas have no references at all, and JSON.stringify is native. */
function containsRefsOrDefinitions(schema: JsonObject): boolean {
  const text = JSON.stringify(schema);
  if (!/"(\$ref|\$recursiveRef|\$defs|definitions)"/.test(text)) return false;
  let found = false;
  visitSchemas(schema, (node) => {
    if (!found && isJsonObject(node) && (refOf(node) !== undefined || DEFINITION_KEYWORDS.some((keyword) => keyword in node))) found = true;
  });
  return found;
}

/** Like forEachSchema without pointers, for passes that do not report where. */
function visitSchemas(schema: SchemaNode, visit: (node: SchemaNode) => void): void {
  visit(schema);
  if (!isJsonObject(schema)) return;
  mapSubschemas(schema, (sub) => {
    visitSchemas(sub, visit);
    return sub;
  });
}

function collectAnchors(root: JsonObject): Map<string, SchemaNode> {
  const anchors = new Map<string, SchemaNode>();
  visitSchemas(root, (node) => {
    if (!isJsonObject(node)) return;
    if (typeof node.$anchor === 'string') anchors.set(node.$anchor, node);
    if (typeof node.$id === 'string' && node.$id.startsWith('#') && node.$id.length > 1) anchors.set(node.$id.slice(1), node);
  });
  return anchors;
}

function resolveRef(root: JsonObject, ref: string, anchors: () => Map<string, SchemaNode>): SchemaNode | undefined {
  if (!ref.startsWith('#')) return undefined;
  const fragment = safeDecode(ref.slice(1));
  if (fragment === undefined) return undefined;
  if (fragment !== '' && !fragment.startsWith('/')) return anchors().get(fragment);
  let node: unknown = root;
  if (fragment === '') return root;
  for (const raw of fragment.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = node[Number(token)];
    else if (isJsonObject(node) && Object.prototype.hasOwnProperty.call(node, token)) node = node[token];
    else return undefined;
  }
  return isSchemaValue(node) ? node : undefined;
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
