// The check stage in this thread, at once: the `check` command's, and what tests hold a catalogue to. Every tool's
// schema checks run here, on ajv instances made only when some tool's schemas are compiled. A build runs the same
// checks through its work instead (checkCatalogueWith), remembered by its cache and with ajv loaded only on a miss.

import { bundleEntries, checkedCatalogue, checkShape, schemaProblems, toolsToCheck, type CheckResult } from './check-catalogue.js';
import { createSchemaCompiler, type SchemaCompiler } from './schema-compiler.js';

/** ajv instances built only when some tool's schemas are compiled. */
function lazyCompiler(): SchemaCompiler {
  let compiler: SchemaCompiler | undefined;
  return {
    compile: (schema) => (compiler ??= createSchemaCompiler()).compile(schema),
    compileAllErrors: (schema) => (compiler ??= createSchemaCompiler()).compileAllErrors(schema),
    interpreted: (schema) => (compiler ??= createSchemaCompiler()).interpreted(schema),
    knowsDialect: (schema) => (compiler ??= createSchemaCompiler()).knowsDialect(schema),
    schemaErrors: (schema) => (compiler ??= createSchemaCompiler()).schemaErrors(schema),
    release: (schema) => compiler?.release(schema),
  };
}

/** The check stage in this thread. */
export function checkCatalogue(document: unknown): CheckResult {
  const compiler = lazyCompiler();
  const shape = checkShape(document);
  const entries = bundleEntries(document, shape);
  return checkedCatalogue(
    shape,
    entries,
    toolsToCheck(entries).map((manifest) => schemaProblems(manifest, compiler)),
  );
}
