// The build's per-tool work: answers in input order, remembered by the cache, spread only where a job allows it.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { memoryCache } from '../../src/pipeline/cache/build-cache.js';
import { Worker } from 'node:worker_threads';
import { channelTo, CHUNK, chunkSize, createWork, MIN_PARALLEL_JOBS, type ToolJob } from '../../src/pipeline/parallel/work.js';
import { progressOf } from '../../src/pipeline/run-pipeline.js';
import { staticImports } from '../helpers/import-graph.js';

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

  it("a worker thread imports the jobs it runs, not the rest of emit (its start-up is on a build's path)", () => {
    const names = staticImports(new URL('../../src/pipeline/parallel/tool-worker.ts', import.meta.url));
    assert.ok(names.includes('pipeline/emit/tool-module.ts') && names.includes('pipeline/emit/schema-types.ts'), names.join(' '));
    for (const apart of ['pipeline/emit/emit-package.ts', 'pipeline/emit/search-index-file.ts', 'pipeline/emit/runtime-files.ts'])
      assert.ok(!names.includes(apart), `${apart} is not the worker's: ${names.join(' ')}`);
    assert.ok(!names.some((name) => name.startsWith('runtime/search/')), names.join(' '));
  });

  it('prestarted workers take no job that may not cross threads, and stop with the work', async () => {
    const work = createWork(memoryCache());
    work.prestart(MIN_PARALLEL_JOBS * 4);
    const job = squaring(false);
    assert.deepEqual(await work.map(job, [1, 2, 3]), [1, 4, 9]);
    assert.equal(work.parallelJobs, 0);
    // A worker left running would keep this test's process alive past its end.
    await work.close();
  });

  it('hands out whole chunks while the queue is long and ever smaller ones as it empties, so threads finish together', () => {
    for (const [jobs, threads] of [
      [300, 2],
      [3000, 2],
      [121, 4],
      [7, 3],
    ] as const) {
      const sizes: number[] = [];
      for (let left = jobs; left > 0; left -= sizes.at(-1)!) sizes.push(chunkSize(left, threads));
      assert.equal(
        sizes.reduce((sum, size) => sum + size, 0),
        jobs,
      );
      assert.ok(
        sizes.every((size, index) => size >= 1 && size <= CHUNK && (index === 0 || size <= sizes[index - 1]!)),
        sizes.join(' '),
      );
      // The last chunks are single jobs: no thread is left holding a long one while the others wait.
      assert.equal(sizes.at(-1), 1);
      if (jobs >= CHUNK * 2 * threads) assert.equal(sizes[0], CHUNK);
    }
  });

  it('reports progress once past every 500 tools and at the end, whatever the chunk sizes', () => {
    const lines: string[] = [];
    const progress = progressOf((line) => lines.push(line));
    let done = 0;
    for (let left = 1010; left > 0;) {
      const size = chunkSize(left, 2);
      left -= size;
      progress('module', (done += size), 1010);
    }
    const counts = lines.map((line) => Number(/^typed (\d+)\/1010 tools$/.exec(line)?.[1]));
    assert.equal(counts.length, 3, lines.join('\n'));
    assert.ok(counts[0]! >= 500 && counts[0]! < 500 + CHUNK, lines.join('\n'));
    assert.ok(counts[1]! >= 1000 && counts[1]! < 1010, lines.join('\n'));
    assert.equal(counts[2], 1010);
  });

  it('a worker holds several batches and answers them in order; one that fails answers those it holds, and later ones, with null', async () => {
    // Answers each batch after the delay its first input asks for, one batch after another, as tool-worker.ts does.
    const worker = new Worker(
      `const { parentPort } = require('node:worker_threads');
       let previous = Promise.resolve();
       parentPort.on('message', (batch) => {
         if (batch.kind === 'fail') throw new Error('failed');
         previous = previous
           .then(() => new Promise((done) => setTimeout(done, batch.inputs[0])))
           .then(() => parentPort.postMessage(batch.inputs.map((value) => ({ value }))));
       });`,
      { eval: true },
    );
    try {
      const send = channelTo(worker);
      assert.equal(channelTo(worker), send, 'one channel a worker');
      const answers = await Promise.all([60, 30, 0].map((n) => send({ kind: 'echo', inputs: [n] })));
      assert.deepEqual(answers, [[{ value: 60 }], [{ value: 30 }], [{ value: 0 }]]);
      const held = send({ kind: 'echo', inputs: [5000] });
      const failing = send({ kind: 'fail', inputs: [] });
      assert.deepEqual(await Promise.all([held, failing]), [null, null]);
      assert.equal(await send({ kind: 'echo', inputs: [0] }), null);
    } finally {
      await worker.terminate();
    }
  });
});
