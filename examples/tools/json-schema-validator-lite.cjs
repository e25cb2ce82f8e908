'use strict';
// Validates a JSON value against a small, commonly used subset of JSON Schema and lists every violation with its path.
function typeOf(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && Number.isInteger(value)) return 'integer';
  return typeof value;
}
function matchesType(value, type) {
  const actual = typeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
}
function validate(schema, value, path, errors) {
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((t) => matchesType(value, t))) {
      errors.push({ path, message: `must be ${types.join(' or ')}, got ${typeOf(value)}` });
      return;
    }
  }
  if (schema.enum && !schema.enum.some((option) => JSON.stringify(option) === JSON.stringify(value))) {
    errors.push({ path, message: `must be one of ${schema.enum.map((o) => JSON.stringify(o)).join(', ')}` });
  }
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength) errors.push({ path, message: `must have at least ${schema.minLength} characters` });
    if (schema.maxLength !== undefined && value.length > schema.maxLength) errors.push({ path, message: `must have at most ${schema.maxLength} characters` });
    if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) errors.push({ path, message: `must match /${schema.pattern}/` });
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) errors.push({ path, message: `must be >= ${schema.minimum}` });
    if (schema.maximum !== undefined && value > schema.maximum) errors.push({ path, message: `must be <= ${schema.maximum}` });
  }
  if (Array.isArray(value) && schema.items) value.forEach((item, i) => validate(schema.items, item, `${path}/${i}`, errors));
  if (typeOf(value) === 'object') {
    for (const key of schema.required || []) if (!(key in value)) errors.push({ path, message: `must have required property "${key}"` });
    const properties = schema.properties || {};
    for (const [key, child] of Object.entries(value)) {
      const childPath = `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (properties[key]) validate(properties[key], child, childPath, errors);
      else if (schema.additionalProperties === false) errors.push({ path: childPath, message: 'is not an allowed property' });
    }
  }
}
exports.run = function run(params) {
  const errors = [];
  validate(params.schema, params.data, '', errors);
  return { valid: errors.length === 0, error_count: errors.length, errors };
};
