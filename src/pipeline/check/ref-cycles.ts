// Finds `$ref` cycles with no base case: a schema that is, through allOf/anyOf/oneOf/not/if/then/else and `$ref` alone,
// itself (`$defs: {a: {allOf: [{$ref: "#/$defs/a"}]}}`). No value type can be written for it (TypeScript: TS2456), so
// check refuses it, naming the cycle. A `$ref` under properties or items is structure, the base case of recursion.

import { isJsonObject, pointerToken } from '../../runtime/shared/json-values.js';

/** Keywords that apply their subschemas to the same value, in place. */
const IN_PLACE_SINGLE = ['not', 'if', 'then', 'else'];
const IN_PLACE_LISTS = ['allOf', 'anyOf', 'oneOf'];

interface RefEdge {
  /** Where the `$ref` stands. */
  at: string;
  /** The pointer it resolves to. */
  target: string;
}

/** The JSON pointer a local `$ref` names (`#` is the root), or null for an anchor or a ref that is not local. */
function refPointer(ref: string): string | null {
  if (!ref.startsWith('#')) return null;
  const fragment = (() => {
    try {
      return decodeURIComponent(ref.slice(1));
    } catch {
      return null;
    }
  })();
  return fragment === null || (fragment !== '' && !fragment.startsWith('/')) ? null : fragment;
}

function resolve(root: unknown, pointer: string): unknown {
  let node = root;
  for (const raw of pointer.split('/').slice(1)) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (isJsonObject(node) && Object.hasOwn(node, segment)) node = node[segment];
    else return undefined;
  }
  return node;
}

/** The `$ref`s a schema applies to its own value, reached without leaving it for a property or an item. */
function inPlaceRefs(schema: unknown, pointer: string): RefEdge[] {
  const edges: RefEdge[] = [];
  const stack: Array<{ node: unknown; pointer: string }> = [{ node: schema, pointer }];
  while (stack.length > 0) {
    const { node, pointer: here } = stack.pop() as { node: unknown; pointer: string };
    if (!isJsonObject(node)) continue;
    if (typeof node.$ref === 'string') {
      const target = refPointer(node.$ref);
      if (target !== null) edges.push({ at: `${here}/$ref`, target });
    }
    for (const keyword of IN_PLACE_SINGLE) stack.push({ node: node[keyword], pointer: `${here}/${pointerToken(keyword)}` });
    for (const keyword of IN_PLACE_LISTS) {
      const list = node[keyword];
      if (Array.isArray(list)) list.forEach((item, index) => stack.push({ node: item, pointer: `${here}/${keyword}/${index}` }));
    }
  }
  return edges;
}

/** The `$ref`s of the first cycle with no base case, in order (each `at` leads to the next), or null. */
export function refCycleWithoutBase(schema: unknown): RefEdge[] | null {
  const edgesOf = new Map<string, RefEdge[]>();
  const edges = (target: string): RefEdge[] => {
    let found = edgesOf.get(target);
    if (found === undefined) {
      const node = resolve(schema, target);
      edgesOf.set(target, (found = node === undefined ? [] : inPlaceRefs(node, target)));
    }
    return found;
  };
  // Depth-first over targets, iteratively: `path` is the chain of refs from the start, `onPath` the targets on it.
  const done = new Set<string>();
  for (const start of ['', ...allRefTargets(schema)]) {
    if (done.has(start)) continue;
    const path: RefEdge[] = [];
    const onPath = new Map<string, number>([[start, 0]]);
    const cursors: Array<{ target: string; next: number }> = [{ target: start, next: 0 }];
    while (cursors.length > 0) {
      const top = cursors[cursors.length - 1] as { target: string; next: number };
      const out = edges(top.target);
      if (top.next >= out.length) {
        done.add(top.target);
        onPath.delete(top.target);
        cursors.pop();
        path.pop();
        continue;
      }
      const edge = out[top.next++] as RefEdge;
      const seenAt = onPath.get(edge.target);
      if (seenAt !== undefined) return [...path.slice(seenAt), edge];
      if (done.has(edge.target)) continue;
      path.push(edge);
      onPath.set(edge.target, path.length);
      cursors.push({ target: edge.target, next: 0 });
    }
  }
  return null;
}

/** Every local pointer some `$ref` of the schema names, in the order they are written. */
function allRefTargets(schema: unknown): string[] {
  const targets: string[] = [];
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (let index = node.length - 1; index >= 0; index -= 1) stack.push(node[index]);
    } else if (isJsonObject(node)) {
      if (typeof node.$ref === 'string') {
        const target = refPointer(node.$ref);
        if (target !== null) targets.push(target);
      }
      const values = Object.values(node);
      for (let index = values.length - 1; index >= 0; index -= 1) stack.push(values[index]);
    }
  }
  return targets;
}
