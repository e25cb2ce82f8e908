// The build's per-tool work: answers in input order, remembered by the cache, spread only where a job allows it.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { memoryCache } from '../../src/pipeline/cache/build-cache.js';
import { createWork, MIN_PARALLEL_JOBS, type ToolJob } from '../../src/pipeline/parallel/work.js';

/** A job that squares a number and counts how often it really ran. */
function squaring(threads: boolean): ToolJob<number, number> & { runs: number } {
  const job = { kind: 'square', key: (n: number) => String(n), run: (n: number) => ((job.runs += 1), n * n), threads, runs: 0 };
  return job;
}

describe('work', () => {
  it('answers in input order and remembers each answer by its key', async () => {
    const cache = memoryCache();
    const job = squaring(false);
    const work = createWork(cache);
    assert.deepEqual(await work.map(job, [3, 1, 2]), [9, 1, 4]);
    assert.deepEqual(await work.map(job, [2, 3, 4]), [4, 9, 16]);
    assert.equal(job.runs, 4, 'only 4 was new');
    assert.deepEqual(await createWork(memoryCache(cache.entries)).map(job, [1, 2, 3, 4]), [1, 4, 9, 16]);
    assert.equal(job.runs, 4, 'a later build reuses the kept entries');
  });

  it('remembers nothing without a cache', async () => {
    const job = squaring(false);
    const work = createWork();
    await work.map(job, [5, 5]);
    await work.map(job, [5]);
    assert.equal(job.runs, 3);
    assert.deepEqual(work.stats, { hits: 0, misses: 0 });
  });

  it('keeps a job that may not cross threads in this one, however many tools', async () => {
    const job = squaring(false);
    const work = createWork(memoryCache());
    try {
      const inputs = Array.from({ length: MIN_PARALLEL_JOBS * 2 }, (_, index) => index);
      assert.deepEqual(
        await work.map(job, inputs),
        inputs.map((n) => n * n),
      );
      assert.equal(work.parallelJobs, 0);
      assert.equal(job.runs, inputs.length);
    } finally {
      await work.close();
    }
  });
});
