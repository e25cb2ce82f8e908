// Turns an OpenAPI 3.0 / Swagger 2.0 schema object (or a 3.1 one) into JSON Schema 2020-12, keyword by keyword.
// Only schema positions are walked, so a property *named* `nullable` or `example` is left alone.

import type { JsonObject } from '../../../runtime/shared/contracts.js';
import { linearRegExp } from '../../../runtime/schema/linear-regexp.js';
import { SCHEMA_ARRAY_KEYWORDS, SCHEMA_KEYWORDS, SCHEMA_MAP_KEYWORDS } from '../../../runtime/schema/schema-transform.js';
import { defineOwn, isJsonObject } from '../../../runtime/shared/json-values.js';

/** Which rules apply: `oas30` for Swagger 2.0 and OpenAPI 3.0 schemas, `oas31` for OpenAPI 3.1 (already 2020-12). */
export type SchemaDialect = 'oas30' | 'oas31';

/** Rewrites a `$ref` into the tool's own `$defs` (see local-refs.ts). */
export type RefRewriter = (ref: string) => string;

/** The server's subschema keywords (runtime/schema/schema-transform.ts); `items`, one schema or a tuple, has a case of its own. */
const ONE_SCHEMA: readonly string[] = SCHEMA_KEYWORDS.filter((keyword) => keyword !== 'items');
const SCHEMA_ARRAYS: readonly string[] = SCHEMA_ARRAY_KEYWORDS.filter((keyword) => keyword !== 'items');
const SCHEMA_MAPS: readonly string[] = SCHEMA_MAP_KEYWORDS;
/** OpenAPI-only keywords with no meaning for validation or typing; dropped so the schemas stay small and plain. */
const DROPPED_KEYWORDS = new Set(['discriminator', 'xml', 'externalDocs', 'x-nullable']);

function compiles(pattern: string, flags: string): boolean {
  try {
    new RegExp(pattern, flags);
    return true;
  } catch {
    return false;
  }
}

/** Whether the server's linear-time engine can run it (no lookaround, no backreference): `check` refuses others. */
function linearTime(pattern: string): boolean {
  try {
    linearRegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

/**
 * `pattern` as a Unicode regular expression, which 2020-12 (and ajv) use, or null when it cannot be one. OpenAPI 3.0
 * patterns are plain ECMA-262, where `\:` or `\_` are harmless identity escapes; with the `u` flag they are errors,
 * so a backslash before a character that needs none is dropped (`\-` inside a class is kept).
 */
export function unicodePattern(pattern: string): string | null {
  const respelled = respelledAsUnicode(pattern);
  // A lookahead password rule from the API's own docs cannot be checked in linear time; the API still checks it.
  return respelled !== null && linearTime(respelled) ? respelled : null;
}

function respelledAsUnicode(pattern: string): string | null {
  if (compiles(pattern, 'u')) return pattern;
  if (!compiles(pattern, '')) return null;
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i += 1) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) {
      const next = pattern[i + 1]!;
      const needed = /[A-Za-z0-9]/.test(next) || '^$\\.*+?()[]{}|/'.includes(next) || (inClass && next === '-');
      out += needed ? c + next : next;
      i += 1;
      continue;
    }
    if (c === '[' && !inClass) inClass = true;
    else if (c === ']' && inClass) inClass = false;
    out += c;
  }
  return compiles(out, 'u') ? out : null;
}

/** One rewrite of a schema object's own keywords (its subschemas are converted already). In/out examples in the tests. */
type Rule = (schema: JsonObject, dialect: SchemaDialect) => JsonObject;

export const DIALECT_RULES: ReadonlyMap<string, Rule> = new Map<string, Rule>([
  // 3.0 `exclusiveMinimum: true` beside `minimum` is 2020-12's numeric `exclusiveMinimum`; `false` says nothing.
  [
    'boolean exclusive bounds become numeric',
    (schema) => {
      const out = { ...schema };
      for (const [exclusive, bound] of [
        ['exclusiveMinimum', 'minimum'],
        ['exclusiveMaximum', 'maximum'],
      ] as const) {
        if (typeof out[exclusive] !== 'boolean') continue;
        if (out[exclusive] === true && typeof out[bound] === 'number') {
          out[exclusive] = out[bound];
          delete out[bound];
        } else delete out[exclusive];
      }
      return out;
    },
  ],
  // `example` (one value) is 2020-12's `examples` (a list).
  [
    'example becomes examples',
    (schema) => {
      if (!('example' in schema)) return schema;
      const { example, ...rest } = schema;
      return Array.isArray(rest.examples) ? rest : { ...rest, examples: [example] };
    },
  ],
  // Swagger 2.0 `type: file` is a string carrying the file's content.
  ['file type becomes a binary string', (schema) => (schema.type === 'file' ? { ...schema, type: 'string', format: 'binary' } : schema)],
  // `nullable: true` (and Swagger's `x-nullable`) adds null to the type, to an enum, or as an alternative.
  [
    'nullable adds null',
    (schema) => {
      const nullable = schema.nullable === true || schema['x-nullable'] === true;
      if (!('nullable' in schema) && !('x-nullable' in schema)) return schema;
      const { nullable: _nullable, 'x-nullable': _xNullable, ...rest } = schema;
      if (!nullable) return rest;
      if (Array.isArray(rest.enum) && !rest.enum.includes(null)) rest.enum = [...rest.enum, null];
      if (typeof rest.type === 'string') return { ...rest, type: [rest.type, 'null'] };
      if (Array.isArray(rest.type)) return rest.type.includes('null') ? rest : { ...rest, type: [...rest.type, 'null'] };
      if (Array.isArray(rest.enum)) return rest;
      return { anyOf: [rest, { type: 'null' }] };
    },
  ],
  // A pattern that is no Unicode regular expression is respelled as one, or dropped when it cannot be or cannot be
  // matched in linear time (the API still checks its own input); so is a patternProperties key.
  [
    'patterns become Unicode regular expressions',
    (schema) => {
      let out = schema;
      if (typeof schema.pattern === 'string') {
        const pattern = unicodePattern(schema.pattern);
        if (pattern !== schema.pattern) {
          const { pattern: _dropped, ...rest } = schema;
          out = pattern === null ? rest : { ...rest, pattern };
        }
      }
      if (isJsonObject(out.patternProperties)) {
        const entries = Object.entries(out.patternProperties);
        if (entries.some(([key]) => unicodePattern(key) !== key)) {
          const map: JsonObject = {};
          for (const [key, value] of entries) {
            const pattern = unicodePattern(key);
            if (pattern !== null) defineOwn(map, pattern, value);
          }
          out = { ...out, patternProperties: map };
        }
      }
      return out;
    },
  ],
  // Extensions and OpenAPI-only keywords say nothing a validator or a type can use.
  [
    'OpenAPI-only keywords are dropped',
    (schema) => {
      const out: JsonObject = {};
      for (const [key, value] of Object.entries(schema)) if (!key.startsWith('x-') && !DROPPED_KEYWORDS.has(key)) out[key] = value;
      return out;
    },
  ],
]);

/**
 * The 2020-12 form of `schema`; the input is never mutated. In 3.0 a `$ref`'s siblings are ignored by definition, so
 * only the ref (rewritten) is kept; in 3.1 they stay, as 2020-12 allows.
 */
export function toJsonSchema2020(schema: unknown, dialect: SchemaDialect, rewriteRef: RefRewriter): unknown {
  if (typeof schema === 'boolean') return schema;
  if (!isJsonObject(schema)) return schema;
  if (typeof schema.$ref === 'string') {
    const ref = rewriteRef(schema.$ref);
    if (dialect === 'oas30') {
      // A `nullable` beside the ref is how 3.0 documents mean "this, or null", although the spec ignores it.
      return schema.nullable === true || schema['x-nullable'] === true ? { anyOf: [{ $ref: ref }, { type: 'null' }] } : { $ref: ref };
    }
  }
  let out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$ref' && typeof value === 'string') out[key] = rewriteRef(value);
    else if (ONE_SCHEMA.includes(key) && (isJsonObject(value) || typeof value === 'boolean'))
      out[key] = toJsonSchema2020(value, dialect, rewriteRef);
    else if (key === 'items')
      out[key] = Array.isArray(value)
        ? value.map((item) => toJsonSchema2020(item, dialect, rewriteRef))
        : toJsonSchema2020(value, dialect, rewriteRef);
    else if (SCHEMA_ARRAYS.includes(key) && Array.isArray(value))
      out[key] = value.map((item) => toJsonSchema2020(item, dialect, rewriteRef));
    else if (SCHEMA_MAPS.includes(key) && isJsonObject(value)) {
      const map: JsonObject = {};
      for (const [name, sub] of Object.entries(value)) {
        defineOwn(map, name, toJsonSchema2020(sub, dialect, rewriteRef));
      }
      out[key] = map;
    } else out[key] = value;
  }
  // An array of `items` is draft-04's tuple form; 2020-12 spells it `prefixItems`.
  if (Array.isArray(out.items)) {
    const { items, additionalItems, ...rest } = out;
    out = { ...rest, prefixItems: items, ...(additionalItems === undefined ? {} : { items: additionalItems }) };
  }
  for (const rule of DIALECT_RULES.values()) out = rule(out, dialect);
  return out;
}
