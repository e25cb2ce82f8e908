// Compiles tool JSON Schemas with ajv, picking draft-07 or 2020-12 from `$schema` as the catalogue contract says.

import { Ajv as Draft07, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 as Draft2020 } from 'ajv/dist/2020.js';
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats';

// ajv-formats is CommonJS: under NodeNext its default import is the module object, whose `default` is the plugin.
const addFormats: FormatsPlugin = (addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? (addFormatsModule as unknown as FormatsPlugin);

export type Draft = 'draft-07' | '2020-12';

export function schemaDraft(schema: Record<string, unknown>): Draft {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  return /draft-0[4-7]/.test(declared) ? 'draft-07' : '2020-12';
}

export interface SchemaCompiler {
  compile(schema: Record<string, unknown>): ValidateFunction;
}

/** One ajv per draft, shared by every tool; schemas are not registered by `$id`, so tools never clash. */
export function createSchemaCompiler(): SchemaCompiler {
  // ownProperties: a property named `constructor` or `toString` must not be read from Object.prototype.
  const options = { strict: false, allErrors: true, addUsedSchema: false, validateFormats: true, ownProperties: true } as const;
  const draft07 = new Draft07(options);
  const draft2020 = new Draft2020(options);
  addFormats(draft07);
  addFormats(draft2020);
  return {
    compile(schema) {
      return (schemaDraft(schema) === 'draft-07' ? draft07 : draft2020).compile(schema);
    },
  };
}

export function describeAjvError(error: ErrorObject): string {
  if (error.keyword === 'required') {
    return `missing required field ${JSON.stringify((error.params as { missingProperty: string }).missingProperty)}`;
  }
  if (error.keyword === 'additionalProperties') {
    return `unexpected field ${JSON.stringify((error.params as { additionalProperty: string }).additionalProperty)}`;
  }
  return error.message ?? error.keyword;
}

/** Every `$ref` in a schema with the JSON pointer where it stands. */
export function collectRefs(node: unknown, pointer = ''): Array<{ ref: string; pointer: string }> {
  if (Array.isArray(node)) return node.flatMap((item, index) => collectRefs(item, `${pointer}/${index}`));
  if (!node || typeof node !== 'object') return [];
  const found: Array<{ ref: string; pointer: string }> = [];
  for (const [key, value] of Object.entries(node)) {
    const here = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if ((key === '$ref' || key === '$dynamicRef') && typeof value === 'string') found.push({ ref: value, pointer: here });
    else found.push(...collectRefs(value, here));
  }
  return found;
}
