// The data files' one-join text: joinedTextOf, which joins its items a few dozen at a time as it makes them, gives
// exactly the text of making every item first and joining them once, at every count around its chunk size.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { joinedText, joinedTextOf } from '../../src/pipeline/emit/text.js';

test('joinedTextOf is joinedText of the items it makes, in order, whatever the count', () => {
  for (const count of [0, 1, 2, 63, 64, 65, 127, 128, 129, 1000]) {
    const values = Array.from({ length: count }, (_, index) => ({ index, text: `tool ${index} — “${'x'.repeat(index % 7)}”` }));
    const itemOf = (value: (typeof values)[number]): string => JSON.stringify(value);
    const expected = joinedText('{"tools":[\n', values.map(itemOf), ',\n', '\n]}\n');
    assert.equal(joinedTextOf('{"tools":[\n', values, itemOf, ',\n', '\n]}\n'), expected, `${count} items`);
  }
  assert.equal(joinedTextOf('[', [], String, ',', ']'), '[]');
});
