'use strict';
// Counts the words and characters of a text (superseded by "Text Stats").
exports.run = function run(params) {
  const words = params.text.trim() === '' ? [] : params.text.trim().split(/\s+/);
  return { words: words.length, characters: [...params.text].length };
};
