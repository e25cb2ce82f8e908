// A worker thread that does the expensive per-tool work of a large build: tool modules and shared types.

import { parentPort } from 'node:worker_threads';
import { TOOL_MODULE_JOB } from '../emit/tool-module.js';
import { SHARED_TYPE_JOB } from '../emit/shared-types-file.js';
import type { ToolJob, WorkerAnswer, WorkerBatch } from './work.js';

const jobs = new Map<string, ToolJob<never, unknown>>(
  [TOOL_MODULE_JOB, SHARED_TYPE_JOB].map((job) => [job.kind, job as ToolJob<never, unknown>]),
);
const local: Record<string, unknown> = {};

async function answer(batch: WorkerBatch): Promise<WorkerAnswer[]> {
  const job = jobs.get(batch.kind);
  const answers: WorkerAnswer[] = [];
  for (const input of batch.inputs) {
    try {
      if (job === undefined) throw new Error(`no job of kind ${batch.kind}`);
      answers.push({ value: await job.run(input as never, local) });
    } catch (error) {
      answers.push({ error: error instanceof Error ? error.message : String(error) });
    }
  }
  return answers;
}

// Batches are answered one after another, in the order they came: the main thread sends the next before it has the
// answer to the last (parallel/work.ts), and reads the answers in order.
let previous: Promise<void> = Promise.resolve();
parentPort?.on('message', (batch: WorkerBatch) => {
  previous = previous.then(async () => {
    parentPort?.postMessage(await answer(batch));
  });
});
