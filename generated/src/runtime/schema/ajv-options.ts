// The ajv options every schema compile shares, in the generator's check stage and in the server alike, so a catalogue
// is accepted by one exactly when the other accepts it.

import addFormatsModule, { type FormatsPlugin } from 'ajv-formats';
import { linearRegExp } from './linear-regexp.js';

/** ajv-formats is CommonJS; under NodeNext its default import is the module object, whose `default` is the plugin. */
const addFormats: FormatsPlugin =
  (addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? (addFormatsModule as unknown as FormatsPlugin);

/**
 * strict: false: catalogues carry keywords ajv does not know (`x-…`, `examples`), which are not errors.
 * ownProperties: a property named `constructor` or `toString` must not be read from Object.prototype.
 * code.regExp: `pattern` and `patternProperties` run in linear time, whatever the catalogue wrote (see linear-regexp.ts).
 * logger: false: a failed compile is reported by the caller, not by ajv printing the whole generated function to stderr.
 * Formats are ajv-formats' own (its expressions are the library's, not the catalogue's); an unknown format is ignored.
 */
export const SCHEMA_AJV_OPTIONS = { strict: false, ownProperties: true, logger: false, code: { regExp: linearRegExp } } as const;

/** `ajv` with the formats every compile knows. */
export function withFormats<T extends Parameters<FormatsPlugin>[0]>(ajv: T): T {
  addFormats(ajv);
  return ajv;
}
