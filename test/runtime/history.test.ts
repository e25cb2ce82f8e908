import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toolFailure } from '../../src/runtime/shared/contracts.js';
import { createRunHistory, historyIndex, historyScopeNote, runDetail } from '../../src/runtime/history/history.js';
import { REDACTED_MASK } from '../../src/runtime/secrets/redact.js';

const ok = (result: unknown) => ({ ok: true as const, result, durationMs: 5 });

describe('createRunHistory', () => {
  it('numbers runs r1, r2, … and lists newest first', () => {
    const history = createRunHistory();
    history.record('a', {}, ok(1));
    history.record('b', {}, { ok: false, failure: toolFailure('TIMEOUT', 'slow'), durationMs: 15000 });
    assert.deepEqual(
      history.list().map((run) => [run.id, run.slug, run.status, run.errorCode]),
      [
        ['r2', 'b', 'failed', 'TIMEOUT'],
        ['r1', 'a', 'succeeded', undefined],
      ],
    );
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
    const table: [string, string | undefined][] = [
      ['r1', 'a'],
      ['2', 'b'],
      ['-1', 'c'],
      ['-3', 'a'],
      ['-4', undefined],
      ['r9', undefined],
      ['x', undefined],
    ];
    for (const [ref, slug] of table) assert.equal(history.find(ref)?.slug, slug, ref);
  });

  it('redacts inputs and results alike before storing them', () => {
    const history = createRunHistory();
    const record = history.record(
      'login',
      { user: 'ann', password: 'hunter2', nested: { authToken: 'abc' } },
      ok({ token: 'result-token', user: 'ann' }),
    );
    assert.deepEqual(record.input.value, { user: 'ann', password: REDACTED_MASK, nested: { authToken: REDACTED_MASK } });
    assert.deepEqual(record.output.value, { token: REDACTED_MASK, user: 'ann' });
    assert.deepEqual(record.maskedInput, ['/password', '/nested/authToken']);
    assert.deepEqual(record.maskedOutput, ['/token']);
  });

  it('masks what a result echoes back: secret headers, header lists, credentials inside values, a failure message', () => {
    const history = createRunHistory();
    const echoed = {
      headers: { 'x-api-key': 'k-123456789', Authorization: 'Bearer abc.def.ghi', accept: 'application/json' },
      list: [
        { name: 'Authorization', value: 'Basic dXNlcjpodW50ZXIy' },
        { name: 'Accept', value: 'text/plain' },
      ],
      pairs: [
        ['Cookie', 'sid=abcdef123456'],
        ['Accept', '*/*'],
      ],
      db: 'postgres://admin:hunter2@db.internal:5432/app',
      conn: 'Server=db;Database=app;User Id=sa;Password=hunter2;',
      note: 'called with Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl',
    };
    const record = history.record('echo', {}, ok(echoed));
    const shown = JSON.stringify(runDetail(record));
    for (const secret of ['k-123456789', 'abc.def.ghi', 'dXNlcjpodW50ZXIy', 'sid=abcdef', 'hunter2', 'eyJhbGci']) {
      assert.ok(!shown.includes(secret), `${secret} is shown: ${shown}`);
    }
    const value = record.output.value as typeof echoed;
    assert.equal(value.headers.accept, 'application/json');
    assert.deepEqual(value.list[1], { name: 'Accept', value: 'text/plain' });
    assert.deepEqual(value.pairs[1], ['Accept', '*/*']);
    assert.equal(value.db, 'postgres://***@db.internal:5432/app');
    assert.equal(value.conn, 'Server=db;Database=app;User Id=sa;Password=[redacted];');
    assert.deepEqual(record.maskedOutput.sort(), [
      '/conn',
      '/db',
      '/headers/Authorization',
      '/headers/x-api-key',
      '/list/0/value',
      '/note',
      '/pairs/0/1',
    ]);
    const failed = history.record(
      'echo',
      {},
      { ok: false, failure: toolFailure('UPSTREAM_ERROR', 'GET https://bob:pw-secret@api.test/x failed'), durationMs: 1 },
    );
    assert.ok(!JSON.stringify(runDetail(failed)).includes('pw-secret'));
  });

  it('keeps nothing derived from a masked value', () => {
    const history = createRunHistory();
    const a = history.record('login', { password: 'hunter2' }, ok(1));
    const b = history.record('login', { password: 'hunter3' }, ok(1));
    assert.deepEqual(a.input, b.input);
    assert.ok(!JSON.stringify(a).includes('hunter2'));
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
