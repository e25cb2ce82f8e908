// Every subschema of a JSON Schema with its JSON pointer and depth, walked with an explicit stack (never recursion), so
// a schema nested thousands of levels deep is measured and reported instead of overflowing the call stack.

export interface Subschema {
  node: Record<string, unknown>;
  /** JSON pointer from the schema's root. */
  pointer: string;
  /** Subschema levels above this one (the root is 0). */
  depth: number;
}

/** Keywords whose value is one subschema. */
const SINGLE = ['not', 'if', 'then', 'else', 'additionalItems', 'contains', 'propertyNames', 'additionalProperties',
  'unevaluatedItems', 'unevaluatedProperties', 'contentSchema', 'items'];
/** Keywords whose value is an array of subschemas. */
const LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
/** Keywords whose value maps names to subschemas. */
const MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies'];

export function escapePointerSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Calls `visit` for every subschema, parents before children; stops descending below `maxDepth` (visit still sees the
 * subschema at maxDepth + 1, so the caller can report it) and stops entirely when `visit` returns false.
 */
export function walkSchema(schema: unknown, maxDepth: number, visit: (subschema: Subschema) => boolean | void): void {
  if (!isObject(schema)) return;
  const stack: Subschema[] = [{ node: schema, pointer: '', depth: 0 }];
  while (stack.length > 0) {
    const current = stack.pop() as Subschema;
    if (visit(current) === false) return;
    if (current.depth > maxDepth) continue;
    const children: Subschema[] = [];
    const push = (value: unknown, pointer: string): void => {
      if (isObject(value)) children.push({ node: value, pointer, depth: current.depth + 1 });
    };
    const { node, pointer } = current;
    for (const keyword of SINGLE) push(node[keyword], `${pointer}/${keyword}`);
    for (const keyword of LISTS) {
      const list = node[keyword];
      if (Array.isArray(list)) list.forEach((item, index) => push(item, `${pointer}/${keyword}/${index}`));
    }
    for (const keyword of MAPS) {
      const map = node[keyword];
      if (isObject(map)) for (const [name, value] of Object.entries(map)) push(value, `${pointer}/${keyword}/${escapePointerSegment(name)}`);
    }
    // Reversed onto the stack, so subschemas are visited in the order they are written.
    for (let index = children.length - 1; index >= 0; index -= 1) stack.push(children[index] as Subschema);
  }
}
