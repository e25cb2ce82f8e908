'use strict';
// Turns a title into a URL-safe slug: accents folded, punctuation dropped, words joined by a separator.
exports.run = function run(params) {
  const separator = params.separator === undefined ? '-' : params.separator;
  let words = params.text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/&/g, ' and ')
    .replace(/['’]/g, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  if (params.lowercase !== false) words = words.map((w) => w.toLowerCase());
  let slug = words.join(separator);
  if (params.max_length !== undefined && slug.length > params.max_length) {
    slug = slug.slice(0, params.max_length);
    const cut = slug.lastIndexOf(separator);
    if (separator !== '' && cut > 0) slug = slug.slice(0, cut);
  }
  return { slug, length: slug.length };
};
