'use strict';
// Removes diacritics (é → e, ß → ss) so text can be used where only ASCII is accepted.
const SPECIAL = { ß: 'ss', æ: 'ae', Æ: 'AE', œ: 'oe', Œ: 'OE', ø: 'o', Ø: 'O', đ: 'd', Đ: 'D', ł: 'l', Ł: 'L', þ: 'th', Þ: 'Th' };
exports.run = function run(params) {
  const folded = params.text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[ßæÆœŒøØđĐłŁþÞ]/g, (c) => SPECIAL[c]);
  const output = params.strip_non_ascii ? folded.replace(/[^\x00-\x7f]/g, '') : folded;
  let changed = 0;
  const original = [...params.text.normalize('NFC')];
  for (const c of original) if (c.normalize('NFD').replace(/[\u0300-\u036f]/g, '') !== c || SPECIAL[c]) changed++;
  return { text: output, changed_characters: changed, is_ascii: /^[\x00-\x7f]*$/.test(output) };
};
