// Every subschema of a JSON Schema with its JSON pointer and depth, walked with an explicit stack (never recursion), so
// a schema nested thousands of levels deep is measured and reported instead of overflowing the call stack.

import {
  SCHEMA_ARRAY_KEYWORDS,
  SCHEMA_KEYWORDS,
  SCHEMA_MAP_KEYWORDS,
  SCHEMA_OR_NAMES_MAP_KEYWORDS,
} from '../../runtime/schema/schema-transform.js';
import { isJsonObject, pointerToken } from '../../runtime/shared/json-values.js';

export interface Subschema {
  node: Record<string, unknown>;
  /** JSON pointer from the schema's root: made when read, since most subschemas are never reported. */
  readonly pointer: string;
  /** Subschema levels above this one (the root is 0). */
  depth: number;
}

/** A subschema and where it stands in its parent: the keyword, and the index or name under it. */
class Visited implements Subschema {
  constructor(
    readonly node: Record<string, unknown>,
    readonly depth: number,
    private readonly parent: Visited | null,
    private readonly keyword: string,
    private readonly key: string | number | null,
  ) {}

  get pointer(): string {
    if (this.parent === null) return '';
    const key = this.key === null ? '' : `/${typeof this.key === 'number' ? this.key : pointerToken(this.key)}`;
    return `${this.parent.pointer}/${this.keyword}${key}`;
  }
}

/** The server's subschema keywords (runtime/schema/schema-transform.ts), in the order subschemas are visited. */
const SINGLE = SCHEMA_KEYWORDS;
const LISTS = SCHEMA_ARRAY_KEYWORDS;
const MAPS = [...SCHEMA_MAP_KEYWORDS, ...SCHEMA_OR_NAMES_MAP_KEYWORDS];

/**
 * Calls `visit` for every subschema, parents before children; stops descending below `maxDepth` (visit still sees the
 * subschema at maxDepth + 1, so the caller can report it) and stops entirely when `visit` returns false.
 */
export function walkSchema(schema: unknown, maxDepth: number, visit: (subschema: Subschema) => boolean | void): void {
  if (!isJsonObject(schema)) return;
  const stack: Visited[] = [new Visited(schema, 0, null, '', null)];
  while (stack.length > 0) {
    const current = stack.pop() as Visited;
    if (visit(current) === false) return;
    if (current.depth > maxDepth) continue;
    const children: Visited[] = [];
    const depth = current.depth + 1;
    const { node } = current;
    for (const keyword of SINGLE) {
      const value = node[keyword];
      if (isJsonObject(value)) children.push(new Visited(value, depth, current, keyword, null));
    }
    for (const keyword of LISTS) {
      const list = node[keyword];
      if (Array.isArray(list))
        list.forEach((item, index) => {
          if (isJsonObject(item)) children.push(new Visited(item, depth, current, keyword, index));
        });
    }
    for (const keyword of MAPS) {
      const map = node[keyword];
      if (isJsonObject(map))
        for (const [name, value] of Object.entries(map))
          if (isJsonObject(value)) children.push(new Visited(value, depth, current, keyword, name));
    }
    // Reversed onto the stack, so subschemas are visited in the order they are written.
    for (let index = children.length - 1; index >= 0; index -= 1) stack.push(children[index] as Visited);
  }
}
