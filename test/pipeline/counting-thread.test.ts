import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { startCountingThread } from '../../src/pipeline/budget/counting-thread.js';
import { loadTokenCounter } from '../../src/pipeline/budget/token-count.js';
import { startWorker } from '../../src/pipeline/parallel/start-worker.js';

const TEXTS = [
  '',
  '{"tools":[{"',
  'hello world',
  '<|endoftext|> is text here',
  `${'日本'.repeat(400)} ${'x'.repeat(1000)}`,
  '"name":"alpha","inputSchema":{"type":"object"}}',
];
const BUDGET_DIR = new URL('../../src/pipeline/budget/counting-thread.ts', import.meta.url).href;

describe('the tokenizer on a worker thread', () => {
  it('counts on the thread exactly as in-process, batch by batch in order', async () => {
    const count = await loadTokenCounter();
    let sent = 0;
    const thread = startCountingThread(() => {
      const worker = startWorker(BUDGET_DIR, 'tokenizer-worker');
      const post = worker.postMessage.bind(worker);
      worker.postMessage = (value: unknown) => {
        sent += 1;
        post(value);
      };
      return worker;
    });
    try {
      const counter = await thread.counter();
      // Batches sent together come back each to its own caller.
      const [first, second] = await Promise.all([counter(TEXTS), counter([...TEXTS].reverse())]);
      assert.deepEqual(first, TEXTS.map(count));
      assert.deepEqual(second, [...TEXTS].reverse().map(count));
      assert.deepEqual(await counter([]), []);
      assert.equal(sent, 3, 'every batch went to the thread');
    } finally {
      await thread.close();
    }
  });

  it('counts in-process, with the same results, when the thread cannot run or was stopped', async () => {
    const count = await loadTokenCounter();
    const failing = startCountingThread(() => new Worker('throw new Error("no tokenizer here")', { eval: true }));
    try {
      assert.deepEqual(await (await failing.counter())(TEXTS), TEXTS.map(count));
    } finally {
      await failing.close();
    }
    const stopped = startCountingThread(() => startWorker(BUDGET_DIR, 'tokenizer-worker'));
    const counter = await stopped.counter();
    await stopped.close();
    assert.deepEqual(await counter(TEXTS), TEXTS.map(count));
  });
});
