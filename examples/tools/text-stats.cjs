'use strict';
// Counts characters, words, sentences and paragraphs, and estimates reading time and the most frequent words.
const STOP_WORDS = new Set(['the', 'a', 'an', 'and', 'or', 'of', 'to', 'in', 'is', 'it', 'that', 'for', 'on', 'with', 'as', 'was', 'are', 'be', 'this', 'by']);
exports.run = function run(params) {
  const text = params.text;
  const words = text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu) || [];
  const sentences = text.split(/[.!?…]+(?:\s+|$)/u).filter((s) => /[\p{L}\p{N}]/u.test(s));
  const paragraphs = text.split(/\n\s*\n/).filter((p) => p.trim() !== '');
  const frequency = new Map();
  for (const word of words) {
    const key = word.toLowerCase();
    if (!STOP_WORDS.has(key)) frequency.set(key, (frequency.get(key) || 0) + 1);
  }
  const top = [...frequency]
    .sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))
    .slice(0, params.top_words === undefined ? 5 : params.top_words)
    .map(([word, count]) => ({ word, count }));
  const wpm = params.words_per_minute || 230;
  return {
    characters: [...text].length,
    characters_no_spaces: [...text.replace(/\s/g, '')].length,
    words: words.length,
    sentences: sentences.length,
    paragraphs: paragraphs.length,
    reading_time_seconds: Math.ceil((words.length / wpm) * 60),
    top_words: top,
  };
};
