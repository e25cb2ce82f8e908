// A worker thread that does the expensive per-tool work of a large build: schema checks and tool modules.

import { parentPort } from 'node:worker_threads';
import { createJobRunner } from './run-jobs.js';

const run = createJobRunner();

parentPort?.on('message', (jobs: Parameters<typeof run>[0]) => {
  void run(jobs).then((results) => parentPort?.postMessage(results));
});
