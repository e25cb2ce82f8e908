import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  capPayload,
  DEEP_MASK,
  isSecretKey,
  MAX_PAYLOAD_CHARS,
  redactSecrets,
  REDACTED_MASK,
  safeStringify,
} from '../../src/runtime/secrets/redact.js';

describe('isSecretKey', () => {
  const table: [string, boolean][] = [
    ['api_key', true],
    ['API_KEY', true],
    ['clientSecret', true],
    ['accessToken', true],
    ['PASSWORD', true],
    ['authorization', true],
    ['Cookie', true],
    ['session_id', true],
    ['db_passwd', true],
    ['passphrase', true],
    ['aws_credentials', true],
    ['env_content', false],
    ['count', false],
    ['name', false],
    ['keyboard', false],
  ];
  for (const [key, want] of table) it(`${key} → ${want}`, () => assert.equal(isSecretKey(key), want));
});

describe('redactSecrets', () => {
  it('masks secret keys at every depth up to 6 with a constant mask, whatever the value', () => {
    const input = {
      token: 'abcdefghijklmnopqrstuvwxyz',
      a: { password: 'x', b: { c: { d: { e: { api_key: { nested: 'object secret' }, keep: 'visible' } } } } },
      list: [{ Session: 's' }, 'plain'],
    };
    const { value, masked } = redactSecrets(input);
    assert.deepEqual(value, {
      token: REDACTED_MASK,
      a: { password: REDACTED_MASK, b: { c: { d: { e: { api_key: REDACTED_MASK, keep: 'visible' } } } } },
      list: [{ Session: REDACTED_MASK }, 'plain'],
    });
    assert.deepEqual(masked.sort(), ['/a/b/c/d/e/api_key', '/a/password', '/list/0/Session', '/token']);
    assert.equal(input.token, 'abcdefghijklmnopqrstuvwxyz', 'the caller input is not mutated');
  });

  it('replaces values beyond 6 levels with [deep] without inspecting them', () => {
    const input = { l1: { l2: { l3: { l4: { l5: { l6: 'kept', l6obj: { l7: 'hidden', secret_l7: 'x' } } } } } } };
    const { value, masked } = redactSecrets(input);
    assert.deepEqual(value, { l1: { l2: { l3: { l4: { l5: { l6: 'kept', l6obj: { l7: DEEP_MASK, secret_l7: DEEP_MASK } } } } } } });
    assert.ok(masked.includes('/l1/l2/l3/l4/l5/l6obj/l7'));
  });

  it('counts array nesting as depth too', () => {
    // a is level 1, each array one more: 'six' sits at level 6, 'seven' at level 7.
    const { value } = redactSecrets({ a: [[[[['six', ['seven']]]]]] });
    assert.deepEqual(value, { a: [[[[['six', [DEEP_MASK]]]]]] });
  });

  it('leaves primitives alone', () => {
    assert.equal(redactSecrets('token').value, 'token');
    assert.equal(redactSecrets(null).value, null);
  });
});

describe('capPayload', () => {
  it('keeps payloads up to 8,000 characters of JSON whole', () => {
    const exact = 'x'.repeat(MAX_PAYLOAD_CHARS - 2); // two quote characters make exactly 8,000
    assert.deepEqual(capPayload(exact), { value: exact, truncated: false, chars: 8000 });
  });
  it('truncates longer payloads to their first 8,000 characters and records it', () => {
    const stored = capPayload({ text: 'y'.repeat(9000) });
    assert.equal(stored.truncated, true);
    assert.equal(stored.chars, 9011);
    assert.equal(typeof stored.value, 'string');
    assert.equal((stored.value as string).length, 8000);
    assert.ok((stored.value as string).startsWith('{"text":"yyy'));
  });
  it('stores undefined as null', () => assert.deepEqual(capPayload(undefined), { value: null, truncated: false, chars: 4 }));
});

describe('safeStringify', () => {
  it('keeps shared references, degrades cycles and BigInts', () => {
    const shared = { a: 1 };
    assert.equal(safeStringify({ x: shared, y: shared }), '{"x":{"a":1},"y":{"a":1}}');
    const cyclic: Record<string, unknown> = { n: 1n };
    cyclic.self = cyclic;
    assert.equal(safeStringify(cyclic), '{"n":"1","self":"[circular]"}');
    assert.equal(safeStringify(undefined), 'null');
  });
});
