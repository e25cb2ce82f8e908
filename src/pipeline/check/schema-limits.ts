// What a tool schema may hold before ajv, json-schema-to-typescript or the TypeScript compiler would overflow on it,
// and patterns the linear-time engine cannot take: each a problem naming the tool and the exact pointer.

import { linearRegExp, UnsupportedPatternError } from '../../runtime/schema/linear-regexp.js';
import type { Problem } from '../problems.js';
import { walkSchema } from './schema-walk.js';
import { pointerToken } from '../../runtime/shared/json-values.js';

/** Subschema levels a schema may nest; real tool schemas stay well under 30, and compilers recurse once per level. */
export const MAX_SCHEMA_DEPTH = 64;

/** Depth and pattern problems of one schema (`field` is input_schema or output_schema); empty when it is fine. */
export function schemaLimitProblems(slug: string, field: string, schema: unknown): Problem[] {
  const problems: Problem[] = [];
  walkSchema(schema, MAX_SCHEMA_DEPTH, (subschema) => {
    const { node } = subschema;
    if (subschema.depth > MAX_SCHEMA_DEPTH) {
      problems.push({
        severity: 'error',
        slug,
        pointer: `/${field}${subschema.pointer}`,
        message: `schema nested deeper than ${MAX_SCHEMA_DEPTH} levels`,
        hint: 'flatten the schema, or move shared parts under $defs',
      });
      return false;
    }
    // Pointers are made only for a pattern the engine refuses.
    if (typeof node.pattern === 'string') checkPattern(node.pattern, () => `/${field}${subschema.pointer}/pattern`);
    const patternProperties = node.patternProperties;
    if (patternProperties !== null && typeof patternProperties === 'object' && !Array.isArray(patternProperties)) {
      for (const name of Object.keys(patternProperties))
        checkPattern(name, () => `/${field}${subschema.pointer}/patternProperties/${pointerToken(name)}`);
    }
    return true;
  });
  return problems;

  function checkPattern(pattern: string, pointer: () => string): void {
    try {
      linearRegExp(pattern, 'u');
    } catch (error) {
      const reason = error instanceof UnsupportedPatternError ? error.reason : String(error);
      problems.push({
        severity: 'error',
        slug,
        pointer: pointer(),
        message: `pattern ${JSON.stringify(pattern)} cannot be matched in linear time: ${reason}`,
        hint: 'rewrite it without backreferences or lookarounds (RE2 syntax), so no input can make matching slow',
      });
    }
  }
}
