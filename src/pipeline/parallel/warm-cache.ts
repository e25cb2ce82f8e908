// Spreads a large build's per-tool work over the main thread and worker threads, one thread per core, by filling the
// build cache ahead of the stages that read it. The stages stay plain sequential code; small catalogues never start a
// worker.

import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { Manifest } from '../../runtime/shared/contracts.js';
import type { BuildCache } from '../cache/build-cache.js';
import type { PlannedTool } from '../plan/plan-package.js';
import { createJobRunner } from './run-jobs.js';
import { startWorker } from './start-worker.js';

export type ToolJob = { key: string; kind: 'check'; manifest: Manifest } | { key: string; kind: 'module'; tool: PlannedTool };
export type ToolJobResult = { key: string; kind: ToolJob['kind']; value?: unknown; error?: string };

/** Below this many jobs, starting workers (each loads ajv and json-schema-to-typescript) costs more than it saves. */
export const MIN_PARALLEL_JOBS = 120;
const CHUNK = 25;

/**
 * How many worker threads for `jobs` jobs: one per core but the main thread's, which takes its share of the jobs too
 * (a thread less holds a heap less). `NEXUSBLOOM_GEN_WORKERS` caps it; 0 keeps everything in-process.
 */
export function workerCount(jobs: number, env: NodeJS.ProcessEnv = process.env, cores = availableParallelism()): number {
  if (jobs < MIN_PARALLEL_JOBS) return 0;
  return Math.max(0, Math.min(cores - 1, workerCap(env), Math.ceil(jobs / CHUNK) - 1));
}

const workerCap = (env: NodeJS.ProcessEnv): number => (/^\d+$/.test(env.NEXUSBLOOM_GEN_WORKERS ?? '') ? Number(env.NEXUSBLOOM_GEN_WORKERS) : 8);

/** Whether the build may start worker threads at all: not on a single core, nor with `NEXUSBLOOM_GEN_WORKERS=0`. */
export function workersAllowed(env: NodeJS.ProcessEnv = process.env, cores = availableParallelism()): boolean {
  return cores > 1 && workerCap(env) > 0;
}

/** Lets worker messages in between two of the main thread's own jobs. */
const yieldToWorkers = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export interface ToolPool {
  /**
   * Runs the jobs the cache does not hold yet on worker threads and the main thread, and stores their results in it.
   * A job that fails is left out, so the stage that reads the cache runs it again and reports the failure as it
   * always does. Returns how many jobs the workers did (0 when there are too few to be worth a worker).
   */
  warm(cache: BuildCache, jobs: readonly ToolJob[], onProgress?: (done: number, total: number) => void): Promise<number>;
  /** Stops the workers. */
  close(): Promise<void>;
}

/**
 * Workers for one build. They start on the first batch worth spreading and serve every later one (checks, then
 * modules), so each loads ajv and json-schema-to-typescript once per build, not once per stage. The main thread
 * works through the same queue meanwhile, one job at a time so that the workers' messages are never kept waiting.
 */
export function createToolPool(): ToolPool {
  const workers: Worker[] = [];
  const broken = new Set<Worker>();
  let runHere: ReturnType<typeof createJobRunner> | undefined;
  return {
    async warm(cache, jobs, onProgress) {
      const pending = jobs.filter((job) => !cache.has(job.kind, job.key));
      const count = workerCount(pending.length);
      if (count === 0) return 0;
      while (workers.length < count) workers.push(startWorker(import.meta.url, 'tool-worker'));
      const chunks: ToolJob[][] = [];
      for (let i = 0; i < pending.length; i += CHUNK) chunks.push(pending.slice(i, i + CHUNK));
      let done = 0;
      let doneByWorkers = 0;
      const store = (results: readonly ToolJobResult[]): void => {
        for (const result of results) if (result.error === undefined) cache.set(result.kind, result.key, result.value);
        done += results.length;
        onProgress?.(done, pending.length);
      };
      const mainThread = async (): Promise<void> => {
        runHere ??= createJobRunner();
        for (let chunk = chunks.shift(); chunk; chunk = chunks.shift()) store(await runHere(chunk, yieldToWorkers));
      };
      await Promise.all([
        mainThread(),
        ...workers.filter((worker) => !broken.has(worker)).map(
          (worker) =>
            new Promise<void>((resolve) => {
              const next = (): void => {
                const chunk = chunks.shift();
                if (!chunk) {
                  worker.off('message', onMessage);
                  worker.off('error', onError);
                  return resolve();
                }
                worker.postMessage(chunk);
              };
              const onMessage = (results: ToolJobResult[]): void => {
                store(results);
                doneByWorkers += results.length;
                next();
              };
              // A worker that cannot run leaves its share to the stage itself, which does the same work in-process.
              const onError = (): void => {
                broken.add(worker);
                worker.off('message', onMessage);
                resolve();
              };
              worker.on('message', onMessage);
              worker.once('error', onError);
              next();
            }),
        ),
      ]);
      return doneByWorkers;
    },
    async close() {
      runHere = undefined;
      await Promise.all(workers.splice(0).map((worker) => worker.terminate()));
    },
  };
}
