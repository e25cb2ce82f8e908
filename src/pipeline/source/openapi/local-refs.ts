// Gathers the component schemas one tool schema reaches into that schema's own `$defs`, so each tool stays
// self-contained; refs are looked up through the parser's resolved `$refs`, never by hand.

import { createHash } from 'node:crypto';
import type { JsonObject } from '../../../runtime/shared/contracts.js';
import { byCodeUnit } from '../../../runtime/shared/order.js';
import { toJsonSchema2020, type SchemaDialect } from './schema-dialect.js';

/** Reads a local pointer (`#/components/schemas/Pet`) of the document; throws when it points nowhere. */
export type PointerReader = (ref: string) => unknown;

const SAFE_NAME = /^[A-Za-z0-9._-]+$/;

/** `#/components/schemas/Pet` → `Pet`; any other pointer → its decoded segments joined by `_`. */
export function defNameOf(ref: string): string {
  const segments = ref
    .replace(/^#\/?/, '')
    .split('/')
    .map((s) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~'));
  const named =
    (segments[0] === 'components' && segments[1] === 'schemas' && segments.length === 3) ||
    (segments[0] === 'definitions' && segments.length === 2);
  const raw = named ? segments[segments.length - 1]! : segments.join('_');
  if (raw !== '' && SAFE_NAME.test(raw)) return raw;
  // A name a pointer cannot carry plainly (`Foo«Bar»`, spaces): its safe characters, told apart by a hash of the original.
  const safe = raw.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^_+|_+$/g, '') || 'schema';
  return `${safe}_${createHash('sha256').update(raw, 'utf8').digest('hex').slice(0, 6)}`;
}

/** Converts schemas of one tool, gathering every local ref they reach into one shared `$defs`. */
export interface DefsCollector {
  /** `schema` in 2020-12, its refs pointing into the collected `$defs`. */
  convert(schema: unknown): unknown;
  /** Every def reached so far (transitively), sorted by name; recursive refs stay refs. */
  defs(): JsonObject;
}

export function createDefsCollector(dialect: SchemaDialect, read: PointerReader): DefsCollector {
  const names = new Map<string, string>();
  const owners = new Map<string, string>();
  const pending: string[] = [];
  const converted = new Map<string, unknown>();
  const rewrite = (ref: string): string => {
    if (!ref.startsWith('#')) throw new Error(`external $ref ${JSON.stringify(ref)} is not allowed`);
    let name = names.get(ref);
    if (name === undefined) {
      name = defNameOf(ref);
      // Two pointers with one name (`#/definitions/a_b` and `#/components/a/b`): the later one by its pointer's hash.
      if (owners.has(name) && owners.get(name) !== ref)
        name = `${name}_${createHash('sha256').update(ref, 'utf8').digest('hex').slice(0, 6)}`;
      names.set(ref, name);
      owners.set(name, ref);
      pending.push(ref);
    }
    return `#/$defs/${name}`;
  };
  return {
    convert: (schema) => toJsonSchema2020(schema, dialect, rewrite),
    defs() {
      while (pending.length > 0) {
        const ref = pending.shift()!;
        converted.set(names.get(ref)!, toJsonSchema2020(read(ref), dialect, rewrite));
      }
      const sorted: JsonObject = {};
      for (const name of [...converted.keys()].sort(byCodeUnit)) sorted[name] = converted.get(name);
      return sorted;
    },
  };
}

/** One schema in 2020-12 with the local refs it reaches under its own `$defs` (only those). */
export function withLocalDefs(schema: unknown, dialect: SchemaDialect, read: PointerReader): JsonObject {
  const collector = createDefsCollector(dialect, read);
  const root = collector.convert(schema);
  const out: JsonObject = typeof root === 'boolean' ? (root ? {} : { not: {} }) : { ...(root as JsonObject) };
  const defs = collector.defs();
  return Object.keys(defs).length === 0 ? out : { ...out, $defs: defs };
}
