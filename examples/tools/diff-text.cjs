'use strict';
// Compares two texts line by line (longest common subsequence) and reports added, removed and unchanged lines.
exports.run = function run(params) {
  const split = (text) => (text === '' ? [] : text.replace(/\r\n/g, '\n').split('\n'));
  const normalize = (line) => (params.ignore_whitespace ? line.replace(/\s+/g, ' ').trim() : line);
  const a = split(params.before);
  const b = split(params.after);
  const lcs = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i][j] = normalize(a[i]) === normalize(b[j]) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const lines = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && normalize(a[i]) === normalize(b[j])) { lines.push({ op: 'equal', text: b[j] }); i++; j++; }
    else if (i < a.length && (j === b.length || lcs[i + 1][j] >= lcs[i][j + 1])) { lines.push({ op: 'remove', text: a[i] }); i++; }
    else { lines.push({ op: 'add', text: b[j] }); j++; }
  }
  const count = (op) => lines.filter((l) => l.op === op).length;
  const unified = lines.map((l) => (l.op === 'add' ? '+' : l.op === 'remove' ? '-' : ' ') + l.text).join('\n');
  return { identical: count('add') === 0 && count('remove') === 0, added: count('add'), removed: count('remove'), unchanged: count('equal'), lines, unified };
};
