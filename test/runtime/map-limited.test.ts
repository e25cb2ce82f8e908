import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { mapLimited } from '../../src/runtime/shared/map-limited.js';

describe('mapLimited', () => {
  it('keeps the list order and never runs more than the limit at once', async () => {
    let running = 0;
    let most = 0;
    const results = await mapLimited([30, 5, 20, 1, 10, 2, 8], 3, async (ms, index) => {
      running += 1;
      most = Math.max(most, running);
      await sleep(ms);
      running -= 1;
      return `${index}:${ms}`;
    });
    assert.deepEqual(results, ['0:30', '1:5', '2:20', '3:1', '4:10', '5:2', '6:8']);
    assert.equal(most, 3);
  });

  it('runs one at a time with a limit below one, and maps an empty list to an empty one', async () => {
    let running = 0;
    await mapLimited([1, 2, 3], 0, async () => {
      running += 1;
      assert.equal(running, 1);
      await sleep(1);
      running -= 1;
    });
    assert.deepEqual(await mapLimited([], 4, async () => assert.fail('no task for an empty list')), []);
  });

  it('rejects with the first failure', async () => {
    await assert.rejects(
      mapLimited(['a', 'b', 'c'], 2, async (item) => {
        if (item === 'b') throw new Error('b failed');
        return item;
      }),
      /b failed/,
    );
  });
});
