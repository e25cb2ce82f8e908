'use strict';
// Splits an identifier or phrase into words and re-joins them in the requested naming convention.
function splitWords(text) {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
}
const capitalize = (word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
const joiners = {
  camel: (words) => words.map((w, i) => (i === 0 ? w.toLowerCase() : capitalize(w))).join(''),
  pascal: (words) => words.map(capitalize).join(''),
  snake: (words) => words.map((w) => w.toLowerCase()).join('_'),
  kebab: (words) => words.map((w) => w.toLowerCase()).join('-'),
  constant: (words) => words.map((w) => w.toUpperCase()).join('_'),
  title: (words) => words.map(capitalize).join(' '),
};
exports.run = function run(params) {
  const words = splitWords(params.text);
  const targets = params.targets && params.targets.length > 0 ? params.targets : Object.keys(joiners);
  const conversions = {};
  for (const target of targets) conversions[target] = joiners[target](words);
  return { words: words.map((w) => w.toLowerCase()), conversions };
};
