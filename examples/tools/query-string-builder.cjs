'use strict';
// Builds a percent-encoded query string (and optionally a full URL) from a map of parameters.
exports.run = function run(params) {
  const search = new URLSearchParams();
  const arrayFormat = params.array_format || 'repeat';
  const keys = Object.keys(params.params);
  if (params.sort) keys.sort();
  for (const key of keys) {
    const value = params.params[key];
    if (value === null) continue;
    if (Array.isArray(value)) {
      if (arrayFormat === 'comma') search.append(key, value.map(String).join(','));
      else for (const item of value) search.append(arrayFormat === 'brackets' ? `${key}[]` : key, String(item));
    } else search.append(key, String(value));
  }
  const query = search.toString();
  if (params.base_url === undefined) return { query, url: null };
  const url = new URL(params.base_url);
  for (const [key, value] of search) url.searchParams.append(key, value);
  return { query, url: url.toString() };
};
