// TypeScript types for one tool's input and output, from its JSON Schemas, via json-schema-to-typescript.
// The schema is first cleaned so that no catalogue text can become code or a type name: only descriptions survive,
// and they reach the output as escaped comments.

import type { Options } from 'json-schema-to-typescript';
import { commentText } from './text.js';

const J2TS_OPTIONS: Partial<Options> = {
  bannerComment: '',
  format: false,
  additionalProperties: false,
  strictIndexSignatures: true,
  declareExternallyReferenced: true,
  enableConstEnums: false,
  unknownAny: true,
  ignoreMinAndMaxItems: true,
};

// Keywords json-schema-to-typescript reads as instructions (raw TypeScript, enum names, type names, ids).
const CODE_KEYWORDS = new Set(['tsType', 'tsEnumNames', 'title', '$id', 'id', 'x-tsType', '$comment', 'examples', 'default', 'deprecated']);
const SCHEMA_MAP_KEYWORDS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

const pascal = (key: string): string => {
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(/[^A-Za-z0-9]+/).filter(Boolean);
  const joined = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
  return joined === '' ? 'Def' : /^[0-9]/.test(joined) ? `N${joined}` : joined;
};

/** A deep copy fit for json-schema-to-typescript. `$defs` get titles derived from the root type name and key. */
export function cleanSchema(node: unknown, rootName: string, mapKeyword: string | null = null): unknown {
  if (Array.isArray(node)) return node.map((item) => cleanSchema(item, rootName));
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (mapKeyword !== null) {
      // Keys here are property or definition names, not keywords: keep them all, clean each subschema.
      const cleaned = cleanSchema(value, rootName) as Record<string, unknown>;
      if ((mapKeyword === '$defs' || mapKeyword === 'definitions') && cleaned && typeof cleaned === 'object' && !Array.isArray(cleaned)) {
        cleaned.title = `${rootName}${pascal(key)}`;
      }
      Object.defineProperty(out, key, { value: cleaned, enumerable: true, writable: true, configurable: true });
      continue;
    }
    if (CODE_KEYWORDS.has(key)) continue;
    if (key === 'description') {
      if (typeof value === 'string') out.description = commentText(value);
      continue;
    }
    if (key === 'enum' || key === 'const') {
      out[key] = value;
      continue;
    }
    out[key] = cleanSchema(value, rootName, SCHEMA_MAP_KEYWORDS.has(key) ? key : null);
  }
  return out;
}

/** Declarations for `rootName` (and its named `$defs`). A null schema gives the permissive type the server accepts. */
export async function schemaTypes(schema: Record<string, unknown> | null | undefined, rootName: string, fallback: string): Promise<string> {
  if (!schema) return `export type ${rootName} = ${fallback};\n`;
  const cleaned = cleanSchema(schema, rootName) as Record<string, unknown>;
  // Loaded on first use: a rebuild whose tool modules all come from the cache never needs it.
  const { compile } = await import('json-schema-to-typescript');
  const code = await compile(cleaned as never, rootName, { ...J2TS_OPTIONS, cwd: '/' });
  return indentDeclarations(code);
}

/**
 * Indents json-schema-to-typescript's unformatted output by brace depth, two spaces a level: readable in review,
 * at a fraction of a Prettier run's cost. Braces inside comments and string literal types do not count.
 */
export function indentDeclarations(code: string): string {
  let depth = 0;
  const out: string[] = [];
  for (const raw of code.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    const isComment = line.startsWith('/*') || line.startsWith('*');
    const code = isComment ? '' : line.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""');
    const leadingClose = /^[}\])]/.test(code) ? 1 : 0;
    depth = Math.max(0, depth - leadingClose);
    out.push(`${'  '.repeat(depth)}${isComment && line.startsWith('*') ? ` ${line}` : line}`);
    const opens = (code.match(/[{[(]/g) ?? []).length;
    const closes = (code.match(/[}\])]/g) ?? []).length - leadingClose;
    depth = Math.max(0, depth + opens - closes);
  }
  return `${out.join('\n')}\n`;
}
