// The validator of the manifest schema (src/schemas/manifest.schema.json), which check holds every bundle to. It is
// compiled when the generator is built (ajv's standalone code, precompile-bundle-shape.ts) and loaded from
// `dist/check-compiled/` by every build, instead of compiled in each: some 20 ms of every build, a rebuild's too. The
// compiled code serves only while it was made from this schema and this ajv; otherwise (the generator run from
// source, or a stale file) the schema is compiled here, with the same options.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Ajv2020, Options, ValidateFunction } from 'ajv/dist/2020.js';

const require = createRequire(import.meta.url);

/** Our own schema, held valid by a test: skipping the meta-schemas saves most of its compile. */
export const BUNDLE_SHAPE_OPTIONS = { strict: false, allErrors: true, validateSchema: false, meta: false } satisfies Options;

/** Where the generator's build puts the compiled validator: `dist/check-compiled/` beside `dist/pipeline/`. */
export const COMPILED_CHECK_DIR = new URL('../../check-compiled/', import.meta.url);
export const BUNDLE_SHAPE_FILE = 'bundle-shape.cjs';

const SCHEMA_FILE = new URL('../../../src/schemas/manifest.schema.json', import.meta.url);

/** The manifest schema's text, parsed. */
export function bundleSchema(): Record<string, unknown> {
  return JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as Record<string, unknown>;
}

/** What the compiled code is made from: the schema's text and the ajv that compiled it (whose runtime helpers it requires). */
export function bundleShapeStamp(): { schema: string; ajv: string } {
  return {
    schema: createHash('sha256').update(readFileSync(SCHEMA_FILE)).digest('hex'),
    ajv: (require('ajv/package.json') as { version: string }).version,
  };
}

/** The compiled validator in `dir` when it was made from this schema and ajv, else the schema compiled now. */
export function bundleShapeValidator(dir: URL = COMPILED_CHECK_DIR): ValidateFunction {
  try {
    const compiled = require(fileURLToPath(new URL(BUNDLE_SHAPE_FILE, dir))) as ValidateFunction & { stamp?: unknown };
    if (JSON.stringify(compiled.stamp) === JSON.stringify(bundleShapeStamp())) return compiled;
  } catch {
    // Not built (the generator run from source), or unreadable: compiled below.
  }
  // ajv itself only here: a rebuild whose tools the build cache answers loads none of it (some 40 ms).
  const { Ajv2020: Compiler } = require('ajv/dist/2020') as { Ajv2020: typeof Ajv2020 };
  return new Compiler(BUNDLE_SHAPE_OPTIONS).compile(bundleSchema());
}
