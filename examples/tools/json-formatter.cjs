'use strict';
// Parses JSON text and re-prints it pretty or minified, optionally with object keys sorted; reports where a parse fails.
function sortKeys(value) {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortKeys(value[key])]));
  }
  return value;
}
exports.run = function run(params) {
  let parsed;
  try {
    parsed = JSON.parse(params.json);
  } catch (error) {
    const position = /position (\d+)/.exec(error.message);
    const offset = position ? Number(position[1]) : null;
    const line = offset === null ? null : params.json.slice(0, offset).split('\n').length;
    return { valid: false, formatted: null, error: { message: error.message, offset, line } };
  }
  const value = params.sort_keys ? sortKeys(parsed) : parsed;
  const indent = params.indent === undefined ? 2 : params.indent;
  return { valid: true, formatted: JSON.stringify(value, null, indent), error: null };
};
