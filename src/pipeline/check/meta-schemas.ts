// The meta-schemas check holds every tool schema to: draft-07's and 2020-12's, as ajv has them. ajv compiles a
// meta-schema the first time it validates against it, which costs every first build some 50 ms before its first tool.
// So their validators are compiled when the generator is built (ajv's standalone code, precompile-meta-schemas.ts),
// and a build loads them from `dist/check-compiled/`. A compiled validator is trusted only to say that a schema meets
// its meta-schema; a schema it rejects is held to ajv's own instance, whose verdict and errors are the ones reported.

import { createRequire } from 'node:module';
import { Ajv as Draft07, type Options } from 'ajv';
import { Ajv2020 as Draft2020 } from 'ajv/dist/2020.js';
import { SCHEMA_AJV_OPTIONS, withFormats } from '../../runtime/schema/ajv-options.js';
import { COMPILED_CHECK_DIR } from './bundle-shape.js';
import type { Draft } from './schema-compiler.js';

const require = createRequire(import.meta.url);

/**
 * The server's own options (see ajv-options.ts), so check accepts what the server will run and nothing else, formats
 * validated: what every ajv of check starts from.
 */
export const CHECK_AJV_OPTIONS = { ...SCHEMA_AJV_OPTIONS, validateFormats: true } as const;

/** Check's options with every error reported: a schema that fails its meta-schema is told where, and why. */
export const META_SCHEMA_OPTIONS = { ...CHECK_AJV_OPTIONS, allErrors: true } as const;

export const DRAFTS: readonly Draft[] = ['draft-07', '2020-12'];

/**
 * The ajv instance that holds schemas of `draft` against its meta-schema (compiling it on first use); `options` are
 * META_SCHEMA_OPTIONS unless the generator's build asks for source code to write out.
 */
export function metaSchemaInstance(draft: Draft, options: Options = META_SCHEMA_OPTIONS): Draft07 | Draft2020 {
  return withFormats(draft === 'draft-07' ? new Draft07(options) : new Draft2020(options));
}

/** A meta-schema's validator as compiled with the generator: the `$id` it is for, and whether a schema meets it. */
export interface CompiledMetaSchema {
  /** The meta-schema's `$id`: what a schema without `$schema` is validated against, as is one that names it. */
  id: string;
  validate(schema: unknown): boolean;
}

/** The compiled module of `draft`'s meta-schema. */
export const metaSchemaFile = (draft: Draft): string => `meta-schema-${draft}.js`;

/** What the compiled code is made from: the ajv that compiled it (its meta-schemas, its runtime helpers) and the options. */
export function metaSchemaStamp(): { ajv: string; formats: string; options: string } {
  return {
    ajv: (require('ajv/package.json') as { version: string }).version,
    formats: (require('ajv-formats/package.json') as { version: string }).version,
    options: JSON.stringify(META_SCHEMA_OPTIONS),
  };
}

/**
 * The compiled validators in `dir`, by draft, each only when it was made by this ajv with these options; none when the
 * generator runs from source, or the build left them out or stale. Check then compiles the meta-schemas with ajv.
 */
export async function loadCompiledMetaSchemas(dir: URL = COMPILED_CHECK_DIR): Promise<Map<Draft, CompiledMetaSchema>> {
  const loaded = new Map<Draft, CompiledMetaSchema>();
  const stamp = JSON.stringify(metaSchemaStamp());
  for (const draft of DRAFTS) {
    try {
      const compiled = (await import(new URL(metaSchemaFile(draft), dir).href)) as {
        default: (schema: unknown) => boolean;
        id: string;
        stamp: unknown;
      };
      if (JSON.stringify(compiled.stamp) === stamp && typeof compiled.id === 'string')
        loaded.set(draft, { id: compiled.id, validate: compiled.default });
    } catch {
      // Not built (the generator run from source), or unreadable: ajv compiles this meta-schema when it is needed.
    }
  }
  return loaded;
}

/** Whether `declared` (a schema's `$schema`) names the meta-schema `compiled` is for, as ajv resolves that name. */
export function namesMetaSchema(declared: unknown, compiled: CompiledMetaSchema): boolean {
  return declared === undefined || declared === compiled.id || declared === `${compiled.id}#`;
}
