// Checks tool arguments and results against the tools' own JSON Schemas (draft-07 or 2020-12) with ajv.

import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { DiagnosticLog, InputValidator, JsonObject, ServedTool, ToolFailure } from '../shared/contracts.js';
import { toolFailure } from '../shared/contracts.js';
import { SCHEMA_AJV_OPTIONS, withFormats } from './ajv-options.js';
import { isJsonObject, pointerToken } from '../shared/json-values.js';

export interface SchemaError {
  /** JSON pointer to the offending value (for a missing field: where it should be). */
  pointer: string;
  message: string;
  keyword: string;
}

/** At most this many errors are spelled out in the message; `details.errors` keeps the first MAX_DETAILED. */
const MAX_LISTED = 10;
const MAX_DETAILED = 100;

const DRAFT_07_FAMILY = /json-schema\.org\/draft-0[4-7]\/schema/;
const DRAFT_2020 = /json-schema\.org\/draft\/2020-12\/schema/;

type Compiled = ValidateFunction | 'uncompilable';

/**
 * Both drafts are imported statically, so that a bundled bin carries them; their instances are made on the first
 * compile, so start-up compiles nothing.
 */
export function createValidator(log: DiagnosticLog): InputValidator {
  let draft07: Ajv | undefined;
  let draft2020: Ajv2020 | undefined;
  const compiled = new WeakMap<JsonObject, Compiled>();

  // The generator's check stage compiles with the same options, so what it accepted is what runs here.
  const options = { ...SCHEMA_AJV_OPTIONS, allErrors: true, verbose: true } as const;

  function ajvFor(schema: JsonObject): Ajv | Ajv2020 {
    if (typeof schema.$schema === 'string' && DRAFT_07_FAMILY.test(schema.$schema)) return (draft07 ??= withFormats(new Ajv(options)));
    return (draft2020 ??= withFormats(new Ajv2020(options)));
  }

  /** Compiles on first use and caches by schema object, so nothing is compiled at start-up. */
  function validatorFor(tool: ServedTool, schema: JsonObject, which: 'input' | 'output'): Compiled {
    const cached = compiled.get(schema);
    if (cached !== undefined) return cached;
    let result: Compiled;
    try {
      const ajv = ajvFor(schema);
      result = ajv.compile(withKnownDialect(schema));
    } catch (error) {
      result = 'uncompilable';
      const reason = error instanceof Error ? error.message : String(error);
      log(
        `The ${which} schema of ${JSON.stringify(tool.slug)} does not compile (${reason}); ` +
          `${which === 'input' ? 'arguments go to the API unchecked' : 'results are passed on unchecked'}.`,
      );
    }
    compiled.set(schema, result);
    return result;
  }

  function validateInput(tool: ServedTool, params: unknown): ToolFailure | null {
    if (!isJsonObject(params)) {
      return toolFailure('VALIDATION_ERROR', `Arguments for ${JSON.stringify(tool.slug)} must be a JSON object, got ${jsonType(params)}.`, {
        slug: tool.slug,
        errors: [{ pointer: '', message: `must be an object, got ${jsonType(params)}`, keyword: 'type' }],
      });
    }
    const schema = tool.manifest.input_schema;
    if (schema === null || schema === undefined) return null;
    const validate = validatorFor(tool, schema, 'input');
    if (validate === 'uncompilable' || validate(params)) return null;
    const errors = describeErrors(validate.errors ?? []);
    return toolFailure('VALIDATION_ERROR', `Invalid arguments for ${JSON.stringify(tool.slug)}: ${listed(errors)}`, {
      slug: tool.slug,
      errors: errors.slice(0, MAX_DETAILED).map((e) => ({ ...e })),
    });
  }

  function validateOutput(tool: ServedTool, result: unknown): ToolFailure | null {
    const schema = tool.manifest.output_schema;
    if (schema === null || schema === undefined) return null;
    const validate = validatorFor(tool, schema, 'output');
    if (validate === 'uncompilable' || validate(result)) return null;
    const errors = describeErrors(validate.errors ?? []);
    return toolFailure(
      'OUTPUT_MISMATCH',
      `The result of ${JSON.stringify(tool.slug)} does not match its output schema: ${listed(errors)}`,
      { slug: tool.slug, errors: errors.slice(0, MAX_DETAILED).map((e) => ({ ...e })) },
    );
  }

  return { validateInput, validateOutput };
}

/** ajv only knows the meta-schemas it ships; an older or unknown `$schema` is dropped rather than failing the compile. */
function withKnownDialect(schema: JsonObject): JsonObject {
  const dialect = schema.$schema;
  if (dialect === undefined || (typeof dialect === 'string' && (/draft-07/.test(dialect) || DRAFT_2020.test(dialect)))) {
    return compilableSchema(schema);
  }
  const { $schema: _unknownDialect, ...rest } = schema;
  return compilableSchema(rest);
}

/**
 * The schema as one ajv instance can compile it next to every other tool's: without its root `$id`, so two tools
 * that share an id do not collide. ajv must register what it compiles (`addUsedSchema`) for `$ref: "#"` to resolve,
 * and a root without an id resolves `#` against itself all the same.
 */
export function compilableSchema<T extends { [key: string]: unknown }>(schema: T): T {
  if (!('$id' in schema) && !('id' in schema && typeof schema.id === 'string')) return schema;
  const { $id: _id, ...rest } = schema;
  if (typeof rest.id === 'string') delete rest.id;
  return rest as T;
}

function listed(errors: SchemaError[]): string {
  const shown = errors
    .slice(0, MAX_LISTED)
    .map((e) => e.message)
    .join('; ');
  const more = errors.length > MAX_LISTED ? `; and ${errors.length - MAX_LISTED} more` : '';
  return `${shown}${more}.`;
}

/** Turns ajv errors into one sentence each that names the field by JSON pointer and says what is wrong. */
export function describeErrors(errors: readonly ErrorObject[]): SchemaError[] {
  const described: SchemaError[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    const one = describeError(error);
    const key = `${one.pointer}\u0000${one.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    described.push(one);
  }
  return described;
}

function describeError(error: ErrorObject): SchemaError {
  const at = error.instancePath;
  const shown = at === '' ? '/' : at;
  const params = error.params as Record<string, unknown>;
  const keyword = error.keyword;
  switch (keyword) {
    case 'required': {
      const field = String(params.missingProperty);
      return { pointer: `${at}/${pointerToken(field)}`, message: `missing required field \`${field}\` (at ${shown})`, keyword };
    }
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const field = String(params.additionalProperty ?? params.unevaluatedProperty);
      return { pointer: `${at}/${pointerToken(field)}`, message: `unexpected field \`${field}\` (at ${shown})`, keyword };
    }
    case 'type':
      return {
        pointer: at,
        message: `\`${shown}\` must be ${String(params.type).replace(/,/g, ' or ')}, got ${jsonType(error.data)}`,
        keyword,
      };
    case 'enum': {
      const allowed = Array.isArray(params.allowedValues) ? params.allowedValues.map((v) => JSON.stringify(v)).join(', ') : '';
      return { pointer: at, message: `\`${shown}\` must be one of ${allowed}`, keyword };
    }
    case 'const':
      return { pointer: at, message: `\`${shown}\` must equal ${JSON.stringify(params.allowedValue)}`, keyword };
    case 'format':
      return { pointer: at, message: `\`${shown}\` must be a valid ${String(params.format)}`, keyword };
    default:
      return { pointer: at, message: `\`${shown}\` ${error.message ?? `fails ${keyword}`}`, keyword };
  }
}

/** The JSON type of a value as a schema would name it. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (value === undefined) return 'nothing';
  return typeof value;
}
