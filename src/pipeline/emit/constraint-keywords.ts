// The validation keywords a TypeScript type cannot say: schema-types.ts shows them in a field's doc comment, and the
// direct printer (direct-types.ts) reads past the ones json-schema-to-typescript reads nothing from.

/** Validation keywords the types cannot say, shown in the field's doc comment instead. */
export const CONSTRAINT_KEYWORDS = [
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
];
