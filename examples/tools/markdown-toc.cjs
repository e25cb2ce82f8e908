'use strict';
// Builds a nested table of contents with GitHub-style anchors from the ATX headings of a Markdown document.
function anchorFor(text, seen) {
  const base = text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').trim().replace(/\s/g, '-');
  const count = seen.get(base) || 0;
  seen.set(base, count + 1);
  return count === 0 ? base : `${base}-${count}`;
}
exports.run = function run(params) {
  const minLevel = params.min_level || 1;
  const maxLevel = params.max_level || 3;
  const seen = new Map();
  const headings = [];
  let fence = null;
  for (const line of params.markdown.replace(/\r\n/g, '\n').split('\n')) {
    const fenceMatch = /^\s*(```|~~~)/.exec(line);
    if (fenceMatch) { fence = fence === null ? fenceMatch[1] : fence === fenceMatch[1] ? null : fence; continue; }
    if (fence !== null) continue;
    const match = /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    if (!match) continue;
    const text = match[2].replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const anchor = anchorFor(text, seen);
    const level = match[1].length;
    if (level >= minLevel && level <= maxLevel) headings.push({ level, text, anchor });
  }
  const top = headings.reduce((m, h) => Math.min(m, h.level), 6);
  const toc = headings.map((h) => `${'  '.repeat(h.level - top)}- [${h.text}](#${h.anchor})`).join('\n');
  return { toc, headings };
};
