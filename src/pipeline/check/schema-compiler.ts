// Compiles tool JSON Schemas with ajv, picking draft-07 or 2020-12 from `$schema` as the catalogue contract says.

import { createHash } from 'node:crypto';
import { Ajv as Draft07, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 as Draft2020 } from 'ajv/dist/2020.js';
import { withFormats } from '../../runtime/schema/ajv-options.js';
import {
  SCHEMA_ARRAY_KEYWORDS,
  SCHEMA_KEYWORDS,
  SCHEMA_MAP_KEYWORDS,
  SCHEMA_OR_NAMES_MAP_KEYWORDS,
} from '../../runtime/schema/schema-transform.js';
import { compilableSchema } from '../../runtime/schema/validation.js';
import { defineOwn, pointerToken } from '../../runtime/shared/json-values.js';
import { contentKey } from '../cache/build-cache.js';
import { interpretedValidator, type Accepts } from './interpreted-validator.js';
import { mostTelling } from './schema-errors.js';
import { definitionTarget, selfContainedDefinitions } from './self-contained-definitions.js';
import { CHECK_AJV_OPTIONS, metaSchemaInstance, namesMetaSchema, type CompiledMetaSchema } from './meta-schemas.js';

export type Draft = 'draft-07' | '2020-12';

export function schemaDraft(schema: Record<string, unknown>): Draft {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  return /draft-0[4-7]/.test(declared) ? 'draft-07' : '2020-12';
}

export interface SchemaCompiler {
  /** A validator that stops at the first error: cheap to compile, enough to tell valid from invalid. */
  compile(schema: Record<string, unknown>): ValidateFunction;
  /** A validator that reports every error, compiled only when there is something to report. */
  compileAllErrors(schema: Record<string, unknown>): ValidateFunction;
  /**
   * A validator built without ajv's code generation when the schema meets its draft's meta-schema and is proven to
   * compile as ajv reads it (see interpreted-validator.ts); null when ajv must compile it to know.
   */
  interpreted(schema: Record<string, unknown>): Accepts | null;
  /**
   * Whether the schema's `$schema` (when it has one) names a dialect ajv holds for its draft: one it does not (draft-04,
   * a typo) cannot be compiled, nor held against a meta-schema.
   */
  knowsDialect(schema: Record<string, unknown>): boolean;
  /** Why a schema that does not compile is not valid JSON Schema: one error per place, the most telling one there. */
  schemaErrors(schema: Record<string, unknown>): ErrorObject[];
  /** Forgets a schema's compiled code once its tool is checked, so memory stays flat over large catalogues. */
  release(schema: Record<string, unknown>): void;
}

/** Schemas compiled by one set of ajv instances before they are replaced (see createSchemaCompiler). */
export const SCHEMAS_PER_INSTANCE = 200;

/** Validators kept by content for the next tools that hold the same schema (most recently used first to stay). */
export const VALIDATORS_KEPT = 128;

type Instances = readonly [
  firstError: (s: Record<string, unknown>) => Draft07 | Draft2020,
  allErrors: (s: Record<string, unknown>) => Draft07 | Draft2020,
];

/**
 * ajv's generated code (`const … ;return function validateN(…){…}`) with the function in parentheses, which V8 then
 * compiles as the Function constructor runs instead of pre-parsing it there and parsing it again on the first call:
 * every function check compiles is called at once on the examples, and parsing it once saves a tenth of the stage.
 * Code of any other shape is left as it is.
 */
export function compiledEagerly(code: string): string {
  const at = code.search(/return function [\w$]+\(/);
  const body = code.trimEnd();
  return at < 0 || !body.endsWith('}') ? code : `${code.slice(0, at)}return (${body.slice(at + 'return '.length)});`;
}

/** ajv for each draft, made on first use. */
function byDraft(make: (draft: Draft) => Draft07 | Draft2020): (schema: Record<string, unknown>) => Draft07 | Draft2020 {
  const made = new Map<Draft, Draft07 | Draft2020>();
  return (schema) => {
    const draft = schemaDraft(schema);
    let ajv = made.get(draft);
    if (ajv === undefined) made.set(draft, (ajv = make(draft)));
    return ajv;
  };
}

/**
 * The instances that compile tool schemas. They skip the meta-schema (validateSchema: false) since the compiler
 * holds every schema against it first, on instances of its own (see metaSchemas): compiling the meta-schema costs
 * more than a hundred tool schemas, and these instances are replaced every SCHEMAS_PER_INSTANCE schemas.
 * optimize: false: ajv's code optimisation passes cost more at compile time than they save on a few examples.
 * inlineRefs: false: a definition compiled apart (see apart()) is called, not compiled again into every tool's code.
 * messages: false for first-error code, which only tells valid from invalid: what is reported comes from the
 * all-errors instances (schemaErrors, compileAllErrors), and the text of every error object is code not generated.
 */
function createInstances(): Instances {
  const base = {
    ...CHECK_AJV_OPTIONS,
    validateSchema: false,
    inlineRefs: false,
    code: { ...CHECK_AJV_OPTIONS.code, optimize: false, process: compiledEagerly },
  } as const;
  const [firstError, allErrors] = [false, true].map((allErrors) =>
    byDraft((draft) => {
      const options = { ...base, allErrors, messages: allErrors };
      return withFormats(draft === 'draft-07' ? new Draft07(options) : new Draft2020(options));
    }),
  );
  return [firstError!, allErrors!];
}

/**
 * The instances that hold schemas against their draft's meta-schema, kept for the whole run: validating compiles
 * nothing but the meta-schema, once, so their code scope does not grow with the catalogue. Making one compiles
 * nothing: a schema the compiled meta-schema validators accept never has them compile their meta-schema.
 */
const metaSchemas = (): ((schema: Record<string, unknown>) => Draft07 | Draft2020) => byDraft(metaSchemaInstance);

/**
 * One ajv per draft and mode, shared by a run of tools; schemas are not registered by `$id`, so tools never clash.
 * An ajv instance keeps every function it ever compiled in its code scope, whatever removeSchema forgets, so the
 * instances are replaced after SCHEMAS_PER_INSTANCE releases: memory stays flat over any catalogue size.
 */
export function createSchemaCompiler(compiledMetaSchemas: ReadonlyMap<Draft, CompiledMetaSchema> = new Map()): SchemaCompiler {
  let instances: Instances | undefined;
  // Real catalogues repeat whole schemas (the same response in many operations): each is compiled once while it recurs.
  const byContent = new Map<string, ValidateFunction>();
  const keep = (key: string, validate: ValidateFunction): ValidateFunction => {
    byContent.set(key, validate);
    if (byContent.size > VALIDATORS_KEPT) byContent.delete(byContent.keys().next().value as string);
    return validate;
  };
  let released = 0;
  const current = (): Instances => (instances ??= createInstances());
  // What ajv compiles is a copy without the root `$id` (see compilableSchema); release needs that same copy.
  const plain = new WeakMap<Record<string, unknown>, Record<string, unknown>>();
  const copyOf = (schema: Record<string, unknown>): Record<string, unknown> => {
    let copy = plain.get(schema);
    if (!copy) plain.set(schema, (copy = compilableSchema(schema)));
    return copy;
  };
  const compiled = new WeakMap<Record<string, unknown>, Record<string, unknown>>();
  const registered = new WeakMap<Draft07 | Draft2020, Set<string>>();
  /**
   * Compiles the schema with its self-contained definitions registered apart, once per ajv instance; anything that
   * fails that way is compiled as written, so problems are found and reported on the catalogue's own schema.
   */
  const seen = new Set<string>();
  const metaFor = metaSchemas();
  /**
   * ajv's validateSchema of the schema's copy: the compiled meta-schema validator's when it accepts a schema that
   * names its meta-schema (or none), the instance's otherwise, which then holds the errors.
   */
  const meetsMetaSchema = (schema: Record<string, unknown>): boolean => {
    const compiled = compiledMetaSchemas.get(schemaDraft(schema));
    if (compiled !== undefined && namesMetaSchema(schema.$schema, compiled) && compiled.validate(copyOf(schema))) return true;
    // A meta-schema is never `$async`: its verdict is a boolean.
    return metaFor(schema).validateSchema(copyOf(schema)) === true;
  };
  const compileIn = (ajv: Draft07 | Draft2020, schema: Record<string, unknown>): ValidateFunction => {
    // What ajv.compile does first with validateSchema on, with the same message (see createInstances).
    if (!meetsMetaSchema(schema)) throw new Error(`schema is invalid: ${metaFor(schema).errorsText()}`);
    const defsApart = apart(copyOf(schema));
    const split = repeatsApart(defsApart ?? { schema: copyOf(schema), definitions: new Map() }, seen);
    if (split.schema !== copyOf(schema)) {
      try {
        const known = registered.get(ajv) ?? new Set<string>();
        registered.set(ajv, known);
        for (const [id, definition] of split.definitions) {
          if (known.has(id)) continue;
          ajv.addSchema(definition, id);
          known.add(id);
        }
        const validate = ajv.compile(split.schema);
        compiled.set(schema, split.schema);
        return validate;
      } catch {
        // Compiled as written below.
      }
    }
    compiled.set(schema, copyOf(schema));
    return ajv.compile(copyOf(schema));
  };
  return {
    compile(schema) {
      const key = contentKey(schema);
      const known = byContent.get(key);
      if (known !== undefined) {
        byContent.delete(key);
        return keep(key, known);
      }
      try {
        return keep(key, compileIn(current()[0](schema), schema));
      } catch (error) {
        // First-error code nests one block per property: thousands of them overflow the JavaScript parser, while the
        // all-errors code, which checks them one after another, compiles.
        if (!(error instanceof RangeError)) throw error;
        return keep(key, compileIn(current()[1](schema), schema));
      }
    },
    compileAllErrors: (schema) => compileIn(current()[1](schema), schema),
    interpreted(schema) {
      const meta = metaFor(schema);
      try {
        if (!meetsMetaSchema(schema)) return null;
      } catch {
        // A `$schema` ajv does not hold: compileIn fails the same way and says so.
        return null;
      }
      return interpretedValidator(copyOf(schema), { draft: schemaDraft(schema), keywords: meta.RULES.all, formats: meta.formats });
    },
    knowsDialect(schema) {
      const declared = schema.$schema;
      if (declared === undefined) return true;
      if (typeof declared !== 'string') return false;
      const compiled = compiledMetaSchemas.get(schemaDraft(schema));
      if (compiled !== undefined && namesMetaSchema(declared, compiled)) return true;
      try {
        return metaFor(schema).getSchema(declared) !== undefined;
      } catch {
        return false;
      }
    },
    schemaErrors(schema) {
      const ajv = metaFor(schema);
      ajv.validateSchema(copyOf(schema));
      return mostTelling(ajv.errors ?? []);
    },
    release(schema) {
      if (instances === undefined) return;
      const [firstError, allErrors] = instances;
      const copy = compiled.get(schema) ?? copyOf(schema);
      firstError(schema).removeSchema(copy);
      allErrors(schema).removeSchema(copy);
      if (++released % SCHEMAS_PER_INSTANCE === 0) instances = undefined;
    },
  };
}

/** Where a definition compiled apart is registered: no catalogue `$ref` can name it, since external ones are refused. */
const definitionId = (identity: string): string => `urn:nexusbloom-gen:definition:${identity}`;

/**
 * The schema with its self-contained root definitions (see self-contained-definitions.ts) taken out, each `$ref` to
 * one naming it by id instead, and those definitions by id: the same validation, with each definition compiled once
 * for every tool schema that holds the same text (real catalogues copy one component into hundreds of them).
 */
function apart(
  schema: Record<string, unknown>,
): { schema: Record<string, unknown>; definitions: Map<string, Record<string, unknown>> } | null {
  const found = selfContainedDefinitions(schema);
  if (found.size === 0) return null;
  const ids = new Map([...found].map(([pointer, definition]) => [pointer, definitionId(definition.identity)]));
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      const id = key === '$ref' && typeof value === 'string' ? ids.get(definitionTarget(value) ?? '') : undefined;
      defineOwn(out, key, id ?? rewrite(value));
    }
    return out;
  };
  const definitions = new Map(
    [...found].map(([pointer, definition]) => [ids.get(pointer)!, rewrite(definition.schema) as Record<string, unknown>]),
  );
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    let kept = value;
    if ((key === '$defs' || key === 'definitions') && value && typeof value === 'object' && !Array.isArray(value)) {
      kept = Object.fromEntries(Object.entries(value).filter(([name]) => !found.has(`/${key}/${pointerToken(name)}`)));
    }
    defineOwn(rest, key, rewrite(kept));
  }
  return { schema: rest, definitions };
}

/** Keywords whose value is one subschema, a list of them, or a map of names to them (root definitions aside). */
const SUBSCHEMA_KEYWORDS = SCHEMA_KEYWORDS.filter((keyword) => !keyword.startsWith('unevaluated'));
const SUBSCHEMA_LISTS = SCHEMA_ARRAY_KEYWORDS;
const SUBSCHEMA_MAPS = [
  ...SCHEMA_MAP_KEYWORDS.filter((keyword) => keyword !== '$defs' && keyword !== 'definitions'),
  ...SCHEMA_OR_NAMES_MAP_KEYWORDS,
];

/** Text of a subschema whose meaning is its own: no reference, id, anchor, definitions or dialect inside. */
const CONTEXT_FREE =
  /"(\$ref|\$id|\$anchor|\$dynamicRef|\$dynamicAnchor|\$recursiveRef|\$recursiveAnchor|\$defs|definitions|\$schema|\$data)":|"id":"/;
const EVALUATION_DEPENDENT = /"(unevaluatedProperties|unevaluatedItems)":/;
/** Subschemas shorter than this are cheaper compiled inline than called. */
export const MIN_SHARED_SUBSCHEMA_CHARS = 150;
const MAX_REMEMBERED_SUBSCHEMAS = 50_000;

/**
 * The schema with every context-free subschema that an earlier compile already met (real and synthetic catalogues
 * repeat the same field, object or variant across tools) replaced by a `$ref` to one copy registered apart: the same
 * validation, each repeated part compiled once per ajv instance. Nothing changes under `unevaluated*`, whose meaning
 * depends on what sibling subschemas evaluate.
 */
function repeatsApart(
  split: { schema: Record<string, unknown>; definitions: Map<string, Record<string, unknown>> },
  seen: Set<string>,
): { schema: Record<string, unknown>; definitions: Map<string, Record<string, unknown>> } {
  if (EVALUATION_DEPENDENT.test(JSON.stringify(split.schema))) return split;
  if (seen.size > MAX_REMEMBERED_SUBSCHEMAS) seen.clear();
  const definitions = new Map(split.definitions);
  const visit = (node: Record<string, unknown>, root: boolean): Record<string, unknown> => {
    if (!root) {
      const text = JSON.stringify(node);
      if (text.length >= MIN_SHARED_SUBSCHEMA_CHARS && !CONTEXT_FREE.test(text)) {
        // Remembered by hash: the texts of a large catalogue's subschemas would be tens of megabytes.
        const digest = createHash('sha256').update(text).digest('base64url');
        if (seen.has(digest)) {
          const id = `urn:nexusbloom-gen:subschema:${digest}`;
          definitions.set(id, node);
          return { $ref: id };
        }
        seen.add(digest);
      }
    }
    let copy: Record<string, unknown> | null = null;
    const set = (key: string, value: unknown): void => {
      copy ??= Object.defineProperties({}, Object.getOwnPropertyDescriptors(node)) as Record<string, unknown>;
      defineOwn(copy, key, value);
    };
    const child = (value: unknown): unknown =>
      value && typeof value === 'object' && !Array.isArray(value) ? visit(value as Record<string, unknown>, false) : value;
    for (const key of SUBSCHEMA_KEYWORDS) {
      const value = node[key];
      if (value && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(node, key)) {
        const next = child(value);
        if (next !== value) set(key, next);
      }
    }
    for (const key of SUBSCHEMA_LISTS) {
      const value = node[key];
      if (!Array.isArray(value) || !Object.hasOwn(node, key)) continue;
      const next = value.map(child);
      if (next.some((item, index) => item !== value[index])) set(key, next);
    }
    for (const key of SUBSCHEMA_MAPS) {
      const value = node[key];
      if (!value || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(node, key)) continue;
      let changed = false;
      const next: Record<string, unknown> = {};
      for (const [name, item] of Object.entries(value)) {
        const replaced = child(item);
        if (replaced !== item) changed = true;
        defineOwn(next, name, replaced);
      }
      if (changed) set(key, next);
    }
    return copy ?? node;
  };
  const schema = visit(split.schema, true);
  return schema === split.schema && definitions.size === split.definitions.size ? split : { schema, definitions };
}
