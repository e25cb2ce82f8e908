import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toolFailure } from '../../src/runtime/contracts.js';
import { createRunHistory, historyIndex, historyScopeNote, runDetail } from '../../src/runtime/history.js';
import { REDACTED_MASK } from '../../src/runtime/redact.js';

const ok = (result: unknown) => ({ ok: true as const, result, durationMs: 5 });

describe('createRunHistory', () => {
  it('numbers runs r1, r2, … and lists newest first', () => {
    const history = createRunHistory();
    history.record('a', {}, ok(1));
    history.record('b', {}, { ok: false, failure: toolFailure('TIMEOUT', 'slow'), durationMs: 15000 });
    assert.deepEqual(history.list().map((run) => [run.id, run.slug, run.status, run.errorCode]), [
      ['r2', 'b', 'failed', 'TIMEOUT'],
      ['r1', 'a', 'succeeded', undefined],
    ]);
  });

  it('keeps 50 runs, drops the oldest and never reuses an id', () => {
    const history = createRunHistory();
    for (let index = 1; index <= 53; index += 1) history.record('t', { index }, ok(index));
    const runs = history.list();
    assert.equal(runs.length, 50);
    assert.equal(runs[0]?.id, 'r53');
    assert.equal(runs[49]?.id, 'r4');
    assert.equal(history.find('r3'), undefined);
    assert.equal(history.totalRecorded, 53);
    assert.equal(history.record('t', {}, ok(0)).id, 'r54');
  });

  it('finds by id, bare number and relative position', () => {
    const history = createRunHistory();
    for (const slug of ['a', 'b', 'c']) history.record(slug, {}, ok(slug));
    const table: [string, string | undefined][] = [['r1', 'a'], ['2', 'b'], ['-1', 'c'], ['-3', 'a'], ['-4', undefined], ['r9', undefined], ['x', undefined]];
    for (const [ref, slug] of table) assert.equal(history.find(ref)?.slug, slug, ref);
  });

  it('redacts inputs before storing them and keeps results as they were', () => {
    const history = createRunHistory();
    const record = history.record('login', { user: 'ann', password: 'hunter2', nested: { authToken: 'abc' } }, ok({ token: 'result-token' }));
    assert.deepEqual(record.input.value, { user: 'ann', password: REDACTED_MASK, nested: { authToken: REDACTED_MASK } });
    assert.deepEqual(record.output.value, { token: 'result-token' });
    assert.deepEqual(record.maskedInput, ['/password', '/nested/authToken']);
  });

  it('keeps a keyed digest of each masked value, never the value, and never shows the digest', () => {
    const history = createRunHistory();
    const a = history.record('login', { password: 'hunter2', deep: [[[[[[{ x: 'nested-secret' }]]]]]] }, ok(1));
    const b = history.record('login', { password: 'hunter2', deep: [[[[[[{ x: 'nested-secret' }]]]]]] }, ok(1));
    const c = history.record('login', { password: 'hunter3', deep: [[[[[[{ x: 'other' }]]]]]] }, ok(1));
    assert.deepEqual(Object.keys(a.maskedInputDigests), a.maskedInput);
    assert.deepEqual(a.maskedInputDigests, b.maskedInputDigests);
    for (const pointer of a.maskedInput) assert.notEqual(a.maskedInputDigests[pointer], c.maskedInputDigests[pointer], pointer);
    // Keyed per history: the same secret in another process's history has another digest, so a digest is no plain hash.
    const elsewhere = createRunHistory().record('login', { password: 'hunter2' }, ok(1));
    assert.notEqual(elsewhere.maskedInputDigests['/password'], a.maskedInputDigests['/password']);
    const shown = JSON.stringify([runDetail(a), historyIndex(history, new Date())]);
    for (const hidden of ['hunter2', 'nested-secret', ...Object.values(a.maskedInputDigests)]) assert.ok(!shown.includes(hidden), hidden);
  });

  it('caps input and result at 8,000 characters and records truncation', () => {
    const history = createRunHistory();
    const record = history.record('big', { text: 'x'.repeat(10000) }, ok('y'.repeat(7998)));
    assert.equal(record.input.truncated, true);
    assert.equal(record.output.truncated, false);
    const detail = runDetail(record);
    assert.equal(detail.input_truncated, true);
    assert.equal(detail.result_truncated, false);
  });

  it('states the process scope and start time in every index', () => {
    const startedAt = new Date('2026-01-02T03:04:05.000Z');
    const history = createRunHistory();
    history.record('a', {}, ok(1));
    const index = historyIndex(history, startedAt);
    assert.equal(index.scope, 'process');
    assert.equal(index.process_started_at, '2026-01-02T03:04:05.000Z');
    assert.match(String(index.note), /scoped to this server process \(started 2026-01-02T03:04:05\.000Z\)/);
    assert.match(historyScopeNote(startedAt), /not reset between them/);
    assert.deepEqual(Object.keys((index.runs as object[])[0] ?? {}), ['id', 'slug', 'status', 'duration_ms', 'at']);
  });
});

describe('scope note over stateless HTTP', () => {
  it('says other replicas may have served earlier requests', () => {
    const startedAt = new Date('2026-01-02T03:04:05.000Z');
    const history = createRunHistory(undefined, 'http');
    assert.equal(history.servedOver, 'http');
    assert.match(String(historyIndex(history, startedAt).note), /another replica/);
    assert.match(historyScopeNote(startedAt, 'http'), /2026-01-02T03:04:05\.000Z/);
    assert.equal(createRunHistory().servedOver, 'stdio');
  });
});
