// What a caller may pass to a typed wrapper with no thought: nothing at all, or a sample value for the README.

import type { Manifest } from '../../runtime/shared/contracts.js';
import { defineOwn, isJsonObject } from '../../runtime/shared/json-values.js';
import { plainValue } from '../../runtime/schema/call-shape.js';

/** Root keywords that can make `{}` an invalid input, or its type something `{}` is not assignable to. */
const CONSTRAINING = [
  'allOf',
  'anyOf',
  'oneOf',
  '$ref',
  '$dynamicRef',
  'not',
  'if',
  'enum',
  'const',
  'minProperties',
  'dependentRequired',
  'dependentSchemas',
  'unevaluatedProperties',
];

/**
 * Whether the tool accepts `{}`, so that its wrapper's input can be left out: no schema, or an object schema that
 * requires nothing and has no root keyword that could. (Anything less certain keeps the input required: a default of
 * `{}` that the type did not accept would fail the package's compile.)
 */
export function acceptsEmptyInput(schema: Manifest['input_schema']): boolean {
  if (!isJsonObject(schema)) return true;
  if (Array.isArray(schema.required) && schema.required.length > 0) return false;
  if (schema.type !== undefined && schema.type !== 'object') return false;
  return !CONSTRAINING.some((keyword) => keyword in schema);
}

/**
 * Input for a README example: the tool's first example, `{}` when it accepts that, else its required properties with
 * plain values when each one's schema is simple enough to say; null when none of these holds.
 */
export function sampleInput(manifest: Manifest): Record<string, unknown> | null {
  const example = manifest.examples?.[0]?.params;
  if (isJsonObject(example)) return example;
  const schema = manifest.input_schema;
  if (acceptsEmptyInput(schema)) return {};
  if (!isJsonObject(schema) || !isJsonObject(schema.properties) || CONSTRAINING.some((keyword) => keyword in schema)) return null;
  const sample: Record<string, unknown> = {};
  for (const name of schema.required as unknown[]) {
    const value = typeof name === 'string' && Object.hasOwn(schema.properties, name) ? plainValue(schema.properties[name]) : undefined;
    if (value === undefined) return null;
    defineOwn(sample, name as string, value);
  }
  return sample;
}
