// A package file's text put out in parts (package-text.ts): made whole, it is exactly the text of making every item
// first and joining them once, at every count around wholeText's chunk size; compared part by part, it equals a text
// just when that text is the same, wherever the two differ; and made whole against what a file holds, it is null just
// when the file holds it, else the whole text.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { changedText, isSameText, joinedText, lazyJoinedText, wholeText } from '../../src/pipeline/emit/package-text.js';

const itemsOf = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ index, text: `tool ${index} — “${'x'.repeat(index % 7)}”` }));
const itemOf = (value: { index: number; text: string }): string => JSON.stringify(value);

test('a text put out in parts is, whole, joinedText of the items it makes, in order, whatever the count', () => {
  for (const count of [0, 1, 2, 63, 64, 65, 127, 128, 129, 1000]) {
    const values = itemsOf(count);
    const expected = joinedText('{"tools":[\n', values.map(itemOf), ',\n', '\n]}\n');
    const lazy = lazyJoinedText('{"tools":[\n', values, itemOf, ',\n', '\n]}\n');
    assert.equal(wholeText(lazy), expected, `${count} items`);
    // Put out again, it is the same text.
    assert.equal(wholeText(lazy), expected, `${count} items, twice`);
  }
  assert.equal(wholeText(lazyJoinedText('[', [], String, ',', ']\n')), '[]\n');
  assert.equal(wholeText('as it is'), 'as it is');
});

test('a tail that does not end a file in one LF is refused', () => {
  for (const tail of [']', ']\n\n', '']) assert.throws(() => lazyJoinedText('[', [1], String, ',', tail), /exactly one LF/);
});

test('a text put out in parts is the same as a string just when every character is', () => {
  const values = itemsOf(200);
  const lazy = lazyJoinedText('{"tools":[\n', values, itemOf, ',\n', '\n]}\n');
  const whole = wholeText(lazy);
  assert.equal(isSameText(whole, lazy), true);
  assert.equal(isSameText(whole, whole), true);
  // Shorter, longer, and one character changed at the start, at a part boundary, in the middle and at the end.
  assert.equal(isSameText(whole.slice(0, -1), lazy), false);
  assert.equal(isSameText(`${whole}\n`, lazy), false);
  assert.equal(isSameText('', lazy), false);
  const boundary = whole.indexOf(',\n') + 1;
  for (const at of [0, boundary, Math.floor(whole.length / 2), whole.length - 1]) {
    const changed = `${whole.slice(0, at)}${whole[at] === 'x' ? 'y' : 'x'}${whole.slice(at + 1)}`;
    assert.equal(isSameText(changed, lazy), false, `changed at ${at}`);
  }
  // A part that differs stops the putting out: the items after it are never made.
  let made = 0;
  const counted = lazyJoinedText('[', values, (value) => ((made += 1), itemOf(value)), ',', ']\n');
  assert.equal(isSameText(`[${itemOf(values[0]!)},x`, counted), false);
  assert.equal(made, 2);
});

test('a text made whole against what a file holds is null when the file holds it, else the whole text', () => {
  const values = itemsOf(300);
  const lazy = lazyJoinedText('{"tools":[\n', values, itemOf, ',\n', '\n]}\n');
  const whole = wholeText(lazy);
  assert.equal(changedText(whole, lazy), null);
  assert.equal(changedText(null, lazy), whole);
  assert.equal(changedText(whole, whole), null);
  assert.equal(changedText('other', whole), whole);
  assert.equal(changedText(null, 'as it is'), 'as it is');
  // The file longer (the text a prefix of it), shorter, empty, and changed at the start, at a part boundary, in the
  // middle, past the first join chunk and at the end: the whole text, every time.
  assert.equal(changedText(`${whole}]\n`, lazy), whole);
  assert.equal(changedText(whole.slice(0, -1), lazy), whole);
  assert.equal(changedText('', lazy), whole);
  const boundary = whole.indexOf(',\n') + 1;
  for (const at of [0, boundary, Math.floor(whole.length / 2), whole.length - 40, whole.length - 1]) {
    const changed = `${whole.slice(0, at)}${whole[at] === 'x' ? 'y' : 'x'}${whole.slice(at + 1)}`;
    assert.equal(changedText(changed, lazy), whole, `changed at ${at}`);
  }
});
