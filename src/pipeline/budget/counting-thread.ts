// The tokenizer on a worker thread, loaded ahead of need: a rebuild counts only the few entries that changed, and
// loading the tokenizer's tables (0.3–0.5 s) on the other core meanwhile takes that wait off the build.

import type { Worker } from 'node:worker_threads';
import { startWorker } from '../parallel/start-worker.js';
import { loadBatchCounter, type BatchCounter } from './token-count.js';

export interface CountingThread {
  /** Counts on the thread; when the thread cannot run, counts in this thread instead, with the same result. */
  counter(): Promise<BatchCounter>;
  /** Stops the thread. */
  close(): Promise<void>;
}

/** Starts the thread, which begins loading the tokenizer at once. `start` makes the worker (tests hand in others). */
export function startCountingThread(start?: () => Worker): CountingThread {
  const worker = start?.() ?? startWorker(import.meta.url, 'tokenizer-worker');
  // Replies come in the order the batches were sent.
  const waiting: Array<{ resolve: (counts: number[]) => void; reject: (error: Error) => void }> = [];
  let broken: Error | null = null;
  const fail = (error: Error): void => {
    broken ??= error;
    for (const reply of waiting.splice(0)) reply.reject(error);
  };
  worker.on('message', (counts: number[]) => waiting.shift()?.resolve(counts));
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the tokenizer thread exited (code ${code})`)));
  let inProcess: Promise<BatchCounter> | undefined;
  const here: BatchCounter = async (texts) => (await (inProcess ??= loadBatchCounter()))(texts);
  const onThread: BatchCounter = (texts) => {
    if (broken !== null) return here(texts);
    return new Promise<number[]>((resolve, reject) => {
      waiting.push({ resolve, reject });
      worker.postMessage(texts);
    }).catch(() => here(texts));
  };
  return {
    counter: async () => onThread,
    async close() {
      broken ??= new Error('the tokenizer thread was stopped');
      await worker.terminate();
    },
  };
}
