// The error a promise is expected to reject with, checked to be of the class a test expects.

import assert from 'node:assert/strict';

export async function rejectionOf<E extends Error>(promise: Promise<unknown>, kind: abstract new (...args: never[]) => E): Promise<E> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof kind, String(error));
    return error;
  }
  assert.fail(`expected a ${kind.name}`);
}
