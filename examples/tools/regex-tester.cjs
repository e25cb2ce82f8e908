'use strict';
// Runs a JavaScript regular expression against text and returns every match with its index and capture groups.
exports.run = function run(params) {
  const flags = params.flags === undefined ? 'g' : params.flags;
  let regex;
  try {
    regex = new RegExp(params.pattern, flags.includes('g') ? flags : flags + 'g');
  } catch (error) {
    return { valid: false, error: error.message, match_count: 0, matches: [] };
  }
  const limit = params.max_matches || 100;
  const matches = [];
  for (const match of params.text.matchAll(regex)) {
    if (matches.length >= limit) break;
    matches.push({
      match: match[0],
      index: match.index,
      groups: match.slice(1).map((g) => (g === undefined ? null : g)),
      named_groups: match.groups ? Object.fromEntries(Object.entries(match.groups).map(([k, v]) => [k, v === undefined ? null : v])) : {},
    });
    if (!flags.includes('g')) break;
  }
  return { valid: true, error: null, match_count: matches.length, matches };
};
