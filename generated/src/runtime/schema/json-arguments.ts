// Tool arguments as JSON would carry them. JSON.stringify leaves out an object member whose value is `undefined`, so a
// caller in code (SDK wrappers, an in-process MCP client) that writes `{ page: maybePage }` means "no page", exactly
// as a named optional field set to `undefined` does. The arguments are validated, run and recorded as that JSON form.

import { toolFailure, type ToolFailure } from '../shared/contracts.js';
import { pointerToken } from '../shared/json-values.js';

export type JsonArguments = { ok: true; value: unknown } | { ok: false; failure: ToolFailure };

/**
 * Containers nested deeper than this are refused before anything else walks the arguments (validation, redaction,
 * history, the request body): no tool's input is that deep, and each of those walks is recursive.
 */
export const MAX_ARGUMENT_DEPTH = 256;

/**
 * `value` without its `undefined` object members, at any depth (map entries included). The caller's value is never
 * changed: an object or array that had one is copied, anything else is returned as is (a JSON-shaped value arriving
 * from a transport costs one walk and no copy). `undefined` as an array element has no JSON form that means "absent"
 * (JSON.stringify writes null), and a value that contains itself has none at all: both are a VALIDATION_ERROR naming
 * the place, for the tool `slug`, as are containers nested past MAX_ARGUMENT_DEPTH and a top-level member named
 * `__proto__` (a JSON-RPC layer parsing the request may drop or mishandle it, so it is refused, never silently lost).
 */
export function withoutUndefinedMembers(value: unknown, slug: string): JsonArguments {
  if (value !== null && typeof value === 'object' && Object.hasOwn(value, '__proto__'))
    return { ok: false, failure: protoMemberFailure(slug) };
  const walk: Walk = { slug, ancestors: new Set(), failure: null };
  const cleaned = walkValue(walk, value, '');
  return walk.failure === null ? { ok: true, value: cleaned } : { ok: false, failure: walk.failure };
}

interface Walk {
  slug: string;
  /** The containers on the path to the current node: meeting one again means a cycle. */
  ancestors: Set<object>;
  /** The first problem found; the walk stops there. */
  failure: ToolFailure | null;
}

function walkValue(walk: Walk, node: unknown, pointer: string): unknown {
  if (walk.failure !== null || typeof node !== 'object' || node === null) return node;
  if (!isPlainObject(node) && !Array.isArray(node)) return node;
  if (walk.ancestors.has(node)) {
    walk.failure = invalid(walk.slug, pointer, 'contains itself, and JSON cannot carry a cycle', 'cycle');
    return node;
  }
  if (walk.ancestors.size >= MAX_ARGUMENT_DEPTH) {
    walk.failure = invalid(walk.slug, pointer, `is nested deeper than ${MAX_ARGUMENT_DEPTH} levels, more than any tool takes`, 'maxDepth');
    return node;
  }
  walk.ancestors.add(node);
  const walked = Array.isArray(node) ? walkArray(walk, node, pointer) : walkObject(walk, node as Record<string, unknown>, pointer);
  walk.ancestors.delete(node);
  return walked;
}

function walkObject(walk: Walk, node: Record<string, unknown>, pointer: string): Record<string, unknown> {
  const keys = Object.keys(node);
  let copy: [string, unknown][] | null = null;
  for (let index = 0; index < keys.length && walk.failure === null; index += 1) {
    const key = keys[index] as string;
    const member = node[key];
    const dropped = member === undefined;
    const walked = dropped ? undefined : walkValue(walk, member, `${pointer}/${pointerToken(key)}`);
    // The first member dropped or changed starts the copy, with the members before it as they were.
    if (copy === null && (dropped || walked !== member)) copy = keys.slice(0, index).map((kept) => [kept, node[kept]]);
    if (copy !== null && !dropped) copy.push([key, walked]);
  }
  // fromEntries defines each key as an own property, so a member named `__proto__` stays a member.
  return copy === null ? node : Object.fromEntries(copy);
}

function walkArray(walk: Walk, node: readonly unknown[], pointer: string): readonly unknown[] {
  let copy: unknown[] | null = null;
  for (let index = 0; index < node.length && walk.failure === null; index += 1) {
    const element = node[index];
    const at = `${pointer}/${index}`;
    if (element === undefined) {
      walk.failure = invalid(
        walk.slug,
        at,
        'is undefined, which JSON cannot carry in an array (it would be sent as null): use null, or leave the element out',
        'type',
      );
      break;
    }
    const walked = walkValue(walk, element, at);
    if (copy === null && walked !== element) copy = node.slice(0, index);
    if (copy !== null) copy.push(walked);
  }
  return copy ?? node;
}

/** The answer to arguments with a top-level member named `__proto__`, for the tool (or tool name) `slug`. */
export function protoMemberFailure(slug: string): ToolFailure {
  return invalid(
    slug,
    '/__proto__',
    'is a member named `__proto__`, which this server does not accept (JSON-RPC layers drop it): rename it',
    'additionalProperties',
  );
}

function invalid(slug: string, pointer: string, problem: string, keyword: string): ToolFailure {
  const message = `\`${pointer === '' ? '/' : pointer}\` ${problem}`;
  return toolFailure('VALIDATION_ERROR', `Invalid arguments for ${JSON.stringify(slug)}: ${message}.`, {
    slug,
    errors: [{ pointer, message, keyword }],
  });
}

/** Objects as JSON writes them member by member: `{}` literals and `Object.create(null)`, not class instances or Dates. */
function isPlainObject(value: object): value is Record<string, unknown> {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}
