import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toolFailure } from '../../src/runtime/contracts.js';
import { compareValues, diffRuns, formatRunDiff } from '../../src/runtime/diff.js';
import { createRunHistory, runDetail } from '../../src/runtime/history.js';

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
    assert.match(formatRunDiff(diff), /Redacted input fields \(\/api_key\)/);
  });

  describe('a redacted input that moved is a moved input, though its value is never kept', () => {
    const h = createRunHistory();
    const first = h.record('password-strength', { password: 'correct horse', nested: { hmac_key: 'k1' } }, ok({ score: 4 }));
    const sameSecret = h.record('password-strength', { password: 'correct horse', nested: { hmac_key: 'k1' } }, ok({ score: 3 }));
    const otherPassword = h.record('password-strength', { password: 'hunter2', nested: { hmac_key: 'k1' } }, ok({ score: 1 }));
    const otherKey = h.record('password-strength', { password: 'hunter2', nested: { hmac_key: 'k2' } }, ok({ score: 1 }));
    const table: [string, typeof first, typeof first, RegExp, string[]][] = [
      ['same secrets, result moved', first, sameSecret, /^results differ; inputs identical$/, []],
      ['different password', sameSecret, otherPassword, /^results differ; inputs differ too$/, ['/password']],
      ['different nested key only', otherPassword, otherKey, /^results identical; inputs differ$/, ['/nested/hmac_key']],
      ['both secrets moved', first, otherKey, /^results differ; inputs differ too$/, ['/nested/hmac_key', '/password']],
    ];
    for (const [name, from, to, verdict, changed] of table) {
      it(name, () => {
        const diff = diffRuns(from, to);
        assert.match(diff.verdict, verdict);
        assert.equal(diff.inputsDiffer, changed.length > 0);
        assert.deepEqual(diff.input.changed, changed);
        const shown = `${JSON.stringify(diff)}\n${formatRunDiff(diff)}\n${JSON.stringify(h.list().map(runDetail))}`;
        for (const secret of ['correct horse', 'hunter2', 'k1', 'k2']) assert.ok(!shown.includes(secret), `${secret} is shown`);
      });
    }
  });

  it('sees a moved secret in a truncated input', () => {
    const h = createRunHistory();
    const a = h.record('t', { text: 'x'.repeat(9000), token: 'one' }, ok(1));
    const b = h.record('t', { text: 'x'.repeat(9000), token: 'two' }, ok(1));
    assert.equal(diffRuns(a, b).inputsDiffer, true);
    assert.deepEqual(diffRuns(a, b).input.changed, ['/token']);
  });
});
