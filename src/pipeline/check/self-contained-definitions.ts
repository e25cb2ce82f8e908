// The root definitions of a schema (`$defs`, `definitions`) whose meaning is their own text and that of the root
// definitions they name, nothing else: each can be compiled or typed once for every schema that holds the same text.

import { createHash } from 'node:crypto';
import { isJsonObject as isObject, pointerToken } from '../../runtime/shared/json-values.js';

/** Keywords below which a definition would depend on more than its own text and the definitions it names. */
const CONTEXT_KEYWORDS = new Set([
  '$id',
  'id',
  '$anchor',
  '$dynamicRef',
  '$dynamicAnchor',
  '$recursiveRef',
  '$recursiveAnchor',
  '$defs',
  'definitions',
]);
const DEFINITION_MAPS = ['$defs', 'definitions'] as const;

export interface SelfContainedDefinition {
  /** Its key in its map. */
  key: string;
  schema: Record<string, unknown>;
  /** The root definitions it names directly, as JSON pointers (`/$defs/b`), sorted. */
  refs: string[];
  /** A hash of its text and of every definition it reaches, with their pointers: equal identities mean equal meaning. */
  identity: string;
}

/** `#/$defs/<key>` or `#/definitions/<key>` as a JSON pointer (`/$defs/key`), or null for any other reference. */
export function definitionTarget(ref: string): string | null {
  if (!ref.startsWith('#/')) return null;
  let pointer: string;
  try {
    pointer = decodeURIComponent(ref.slice(1));
  } catch {
    return null;
  }
  return /^\/(\$defs|definitions)\/[^/]*$/.test(pointer) ? pointer : null;
}

function definitionRefs(node: unknown, defined: ReadonlyMap<string, unknown>, out: Set<string>): boolean {
  if (Array.isArray(node)) return node.every((item) => definitionRefs(item, defined, out));
  if (!isObject(node)) return true;
  for (const [key, value] of Object.entries(node)) {
    if (CONTEXT_KEYWORDS.has(key) && (key !== 'id' || typeof value === 'string')) return false;
    if (key === '$ref' && typeof value === 'string') {
      const target = definitionTarget(value);
      if (target === null || !defined.has(target)) return false;
      out.add(target);
      continue;
    }
    if (!definitionRefs(value, defined, out)) return false;
  }
  return true;
}

function refPointers(node: unknown, out: string[]): void {
  if (Array.isArray(node)) {
    for (const item of node) refPointers(item, out);
    return;
  }
  if (!isObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#')) {
      try {
        out.push(decodeURIComponent(value.slice(1)));
      } catch {
        // Not a pointer: the check reports it.
      }
    } else refPointers(value, out);
  }
}

const digests = new WeakMap<object, string>();

function digestOf(schema: Record<string, unknown>): string {
  let digest = digests.get(schema);
  if (digest === undefined) digests.set(schema, (digest = createHash('sha256').update(JSON.stringify(schema)).digest('hex')));
  return digest;
}

/**
 * The self-contained root definitions of `schema`, by JSON pointer: no ids, anchors or nested definitions, no
 * reference but to another root definition that is self-contained too, and none pointing inside it from anywhere.
 * `exclude` leaves out more (with what names them).
 */
export function selfContainedDefinitions(
  schema: unknown,
  exclude: (pointer: string) => boolean = () => false,
): Map<string, SelfContainedDefinition> {
  const found = new Map<string, SelfContainedDefinition>();
  if (!isObject(schema)) return found;
  const defs = new Map<string, { key: string; schema: Record<string, unknown> }>();
  for (const map of DEFINITION_MAPS) {
    const held = schema[map];
    if (!isObject(held)) continue;
    for (const [key, value] of Object.entries(held)) if (isObject(value)) defs.set(`/${map}/${pointerToken(key)}`, { key, schema: value });
  }
  if (defs.size === 0) return found;
  const targets: string[] = [];
  refPointers(schema, targets);
  const local = new Map<string, string[]>();
  for (const [pointer, def] of defs) {
    const refs = new Set<string>();
    if (exclude(pointer) || targets.some((target) => target.startsWith(`${pointer}/`))) continue;
    if (definitionRefs(def.schema, defs, refs)) local.set(pointer, [...refs].sort());
  }
  for (const [pointer, direct] of local) {
    const closure = new Set<string>([pointer]);
    const queue = [...direct];
    let closed = true;
    while (queue.length > 0) {
      const next = queue.pop()!;
      if (closure.has(next)) continue;
      const refs = local.get(next);
      if (refs === undefined) {
        closed = false;
        break;
      }
      closure.add(next);
      queue.push(...refs);
    }
    if (!closed) continue;
    const def = defs.get(pointer)!;
    const parts = [...closure].sort().map((at) => [at, digestOf(defs.get(at)!.schema)]);
    found.set(pointer, {
      key: def.key,
      schema: def.schema,
      refs: direct,
      identity: createHash('sha256')
        .update(JSON.stringify([pointer, parts]))
        .digest('hex'),
    });
  }
  return found;
}
