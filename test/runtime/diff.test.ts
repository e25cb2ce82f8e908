import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toolFailure } from '../../src/runtime/shared/contracts.js';
import { compareValues, diffRuns, formatRunDiff } from '../../src/runtime/history/diff.js';
import { createRunHistory } from '../../src/runtime/history/history.js';

const ok = (result: unknown) => ({ ok: true as const, result, durationMs: 1 });

describe('compareValues', () => {
  const table: [string, unknown, unknown, { changed: string[]; added: string[]; removed: string[] }][] = [
    ['identical', { a: 1 }, { a: 1 }, { changed: [], added: [], removed: [] }],
    ['nested change', { a: { b: 1, c: 2 } }, { a: { b: 2, c: 2 } }, { changed: ['/a/b'], added: [], removed: [] }],
    ['added and removed', { a: 1, gone: true }, { a: 1, fresh: true }, { changed: [], added: ['/fresh'], removed: ['/gone'] }],
    ['array growth', { xs: [1, 2] }, { xs: [1, 3, 4] }, { changed: ['/xs/1'], added: ['/xs/2'], removed: [] }],
    ['type change', { a: [1] }, { a: { 0: 1 } }, { changed: ['/a'], added: [], removed: [] }],
    ['escaped pointer', { 'a/b': 1, 'm~n': 1 }, { 'a/b': 2, 'm~n': 2 }, { changed: ['/a~1b', '/m~0n'], added: [], removed: [] }],
    ['root scalar', 1, 2, { changed: [''], added: [], removed: [] }],
  ];
  for (const [name, from, to, want] of table) it(name, () => assert.deepEqual(compareValues(from, to), want));
});

describe('diffRuns', () => {
  const history = createRunHistory();
  const r1 = history.record('t', { q: 1 }, ok({ v: 1 }));
  const r2 = history.record('t', { q: 1 }, ok({ v: 1 }));
  const r3 = history.record('t', { q: 1 }, ok({ v: 2 }));
  const r4 = history.record('t', { q: 2 }, ok({ v: 3, extra: true }));
  const r5 = history.record('t', { q: 2 }, ok({ v: 3, extra: true }));
  const r7 = history.record('t', { q: 3 }, ok({ v: 3, extra: true }));
  const r6 = history.record('u', { q: 2 }, { ok: false, failure: toolFailure('EXECUTION_ERROR', 'boom'), durationMs: 1 });

  const table: [string, typeof r1, typeof r1, RegExp][] = [
    ['identical runs', r1, r2, /^identical$/],
    ['results differ with the same input', r2, r3, /^results differ; inputs identical$/],
    ['both differ', r3, r4, /^results differ; inputs differ too$/],
    ['same input and result again', r4, r5, /^identical$/],
    ['results identical, inputs differ', r5, r7, /^results identical; inputs differ$/],
    ['another tool that failed', r5, r6, /^different tools \(t vs u\); status differs \(succeeded → failed\); results differ/],
  ];
  for (const [name, from, to, verdict] of table) it(name, () => assert.match(diffRuns(from, to).verdict, verdict));

  it('lists changed, added and removed pointers in input and result and flags changed inputs', () => {
    const diff = diffRuns(r3, r4);
    assert.deepEqual(diff.input.changed, ['/q']);
    assert.deepEqual(diff.result, { changed: ['/v'], added: ['/extra'], removed: [] });
    assert.equal(diff.inputsDiffer, true);
    const text = formatRunDiff(diff);
    assert.ok(text.startsWith('r3 → r4: results differ; inputs differ too.'));
    assert.match(text, /input changed: \/q/);
    assert.match(text, /not by itself a regression/);
  });

  it('says when equal-looking payloads were truncated instead of claiming no differences', () => {
    const big = createRunHistory();
    const text = 'z'.repeat(9000);
    const a = big.record('t', { text }, ok({ echo: `${text}A` }));
    const b = big.record('t', { text }, ok({ echo: `${text}B` }));
    const diff = diffRuns(a, b);
    assert.equal(diff.resultsDiffer, false);
    assert.doesNotMatch(diff.verdict, /^identical/);
    assert.match(diff.verdict, /truncated/);
    assert.match(diff.verdict, /not proven identical/);
    assert.deepEqual(diff.truncated, { fromInput: true, fromResult: true, toInput: true, toResult: true });
    assert.match(formatRunDiff(diff), /Truncated payloads/);
  });

  it('reports differences inside truncated payloads and still says they were cut', () => {
    const big = createRunHistory();
    const a = big.record('t', {}, ok({ echo: 'a'.repeat(9000) }));
    const b = big.record('t', {}, ok({ echo: 'b'.repeat(9000) }));
    const diff = diffRuns(a, b);
    assert.match(diff.verdict, /^results differ; inputs identical; payloads truncated at 8,000 characters/);
  });

  it('mentions redacted input fields', () => {
    const h = createRunHistory();
    const a = h.record('t', { api_key: 'one' }, ok(1));
    const b = h.record('t', { api_key: 'one' }, ok(1));
    const diff = diffRuns(a, b);
    assert.equal(diff.verdict, 'identical');
    assert.deepEqual(diff.maskedInputFields, ['/api_key']);
    assert.match(formatRunDiff(diff), /Redacted fields \(input \/api_key\) are stored masked and compared as masked/);
  });

  describe('is no oracle for a secret: masked values compare as masked, never by content', () => {
    const h = createRunHistory();
    const secret = h.record('login', { user: 'ann', password: 'hunter2' }, ok({ token: 'tok-A-123456' }));
    const guesses = ['hunter1', 'hunter2', 'hunter3', 'password'].map((guess) =>
      h.record('login', { user: 'ann', password: guess }, ok({ token: 'tok-A-123456' })),
    );
    it('every guess, the right one included, gets the same answer', () => {
      const answers = guesses.map((guess) => {
        const diff = diffRuns(secret, guess);
        return JSON.stringify({ ...diff, from: '', to: '' });
      });
      assert.equal(new Set(answers).size, 1, answers.join('\n'));
      const diff = diffRuns(secret, guesses[0]!);
      assert.equal(diff.inputsDiffer, false);
      assert.deepEqual(diff.maskedInputFields, ['/password']);
      assert.deepEqual(diff.maskedResultFields, ['/token']);
    });
    it('in a truncated input too', () => {
      const a = h.record('t', { text: 'x'.repeat(9000), token: 'one' }, ok(1));
      const b = h.record('t', { text: 'x'.repeat(9000), token: 'two' }, ok(1));
      const c = h.record('t', { text: 'x'.repeat(9000), token: 'one' }, ok(1));
      assert.deepEqual(diffRuns(a, b), { ...diffRuns(a, c), to: b.id });
    });
  });
});
