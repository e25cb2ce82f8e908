// The per-tool work of a build behind one helper: a job is a function of one tool whose answers the build cache
// remembers by content, and `map` runs it over many tools, spread over worker threads when there are enough of them.

import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { BuildCache } from '../cache/build-cache.js';
import { startWorker } from './start-worker.js';

/** A per-tool function, remembered under `kind` by `key`. `local` is state of the thread it runs on (an ajv instance). */
export interface ToolJob<I, O> {
  kind: string;
  key(input: I): string;
  run(input: I, local: Record<string, unknown>): O | Promise<O>;
  /** Whether a worker thread may run it (inputs and answers then cross as structured clones). */
  threads: boolean;
}

/** What crosses to a worker: a job by its kind, and the inputs it is to run on. */
export interface WorkerBatch {
  kind: string;
  inputs: unknown[];
}
export type WorkerAnswer = { value: unknown } | { error: string };

export interface Work {
  /** `job` over every input, in order: what the cache remembers, the rest computed (on worker threads when many). */
  map<I, O>(job: ToolJob<I, O>, inputs: readonly I[]): Promise<O[]>;
  /** Answers reused from an earlier build (hits) and computed in this one (misses). */
  readonly stats: { hits: number; misses: number };
  /** How many jobs worker threads did. */
  readonly parallelJobs: number;
  /**
   * Starts the workers a map of `jobs` jobs none of which the cache remembers would start, ahead of it: their start-up
   * (loading the job's modules) then overlaps what this thread does until that map.
   */
  prestart(jobs: number): void;
  /** Stops the workers (a later map worth spreading starts them again). */
  close(): Promise<void>;
}

/** Below this many jobs, starting workers (each loads ajv and json-schema-to-typescript) costs more than it saves. */
export const MIN_PARALLEL_JOBS = 120;
/** The most jobs a thread takes from the queue at once. */
export const CHUNK = 25;

/**
 * How many of the `left` jobs a thread takes next when `threads` share the queue: CHUNK while the queue is long, then
 * a shrinking share of what is left, so that the threads finish together instead of one waiting out another's last
 * chunk (a 25-tool chunk is some 100 ms of types).
 */
export function chunkSize(left: number, threads: number): number {
  return Math.min(left, CHUNK, Math.max(1, Math.ceil(left / (2 * threads))));
}

/**
 * How many worker threads for `jobs` jobs: one per core but the main thread's, which takes its share of the jobs too
 * (a thread less holds a heap less). `NEXUSBLOOM_GEN_WORKERS` caps it; 0 keeps everything in-process.
 */
export function workerCount(jobs: number, env: NodeJS.ProcessEnv = process.env, cores = availableParallelism()): number {
  if (jobs < MIN_PARALLEL_JOBS) return 0;
  return Math.max(0, Math.min(cores - 1, workerCap(env), Math.ceil(jobs / CHUNK) - 1));
}

const workerCap = (env: NodeJS.ProcessEnv): number =>
  /^\d+$/.test(env.NEXUSBLOOM_GEN_WORKERS ?? '') ? Number(env.NEXUSBLOOM_GEN_WORKERS) : 8;

/** Whether the build may start worker threads at all: not on a single core, nor with `NEXUSBLOOM_GEN_WORKERS=0`. */
export function workersAllowed(env: NodeJS.ProcessEnv = process.env, cores = availableParallelism()): boolean {
  return cores > 1 && workerCap(env) > 0;
}

/** Lets worker messages in between two of the main thread's own jobs. */
const yieldToWorkers = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Sends a batch to a worker; resolves with its answers, or null when the worker fails (its batch is then redone here). */
type Channel = (batch: WorkerBatch) => Promise<WorkerAnswer[] | null>;

const channels = new WeakMap<Worker, Channel>();

/**
 * The channel to `worker`, made once per worker: the worker answers its batches one after another, in the order they
 * came (parallel/tool-worker.ts), so several may be in flight at once. A worker that fails or exits answers every
 * batch it holds, and every later one, with null.
 */
export function channelTo(worker: Worker): Channel {
  const known = channels.get(worker);
  if (known !== undefined) return known;
  const waiting: Array<(answers: WorkerAnswer[] | null) => void> = [];
  let failed = false;
  const fail = (): void => {
    failed = true;
    for (const reply of waiting.splice(0)) reply(null);
  };
  worker.on('message', (answers: WorkerAnswer[]) => waiting.shift()?.(answers));
  worker.on('error', fail).on('exit', fail);
  const channel: Channel = (batch) =>
    failed
      ? Promise.resolve(null)
      : new Promise((resolve) => {
          waiting.push(resolve);
          worker.postMessage(batch);
        });
  channels.set(worker, channel);
  return channel;
}

/** Batches a worker holds at once: it starts the next as soon as it answers one, without waiting for this thread. */
const IN_FLIGHT = 2;

export interface WorkOptions {
  /** false: everything in this thread. */
  threads?: boolean;
  /** How far a map spread over threads is, after each batch of jobs. */
  progress?: (kind: string, done: number, total: number) => void;
}

/**
 * The work of one build, remembered in `cache` (nothing is remembered without one). Workers start on the first map
 * worth spreading (or earlier, at `prestart`) and serve every later one, so each loads its libraries once per build;
 * the main thread works through the same queue meanwhile, one job at a time so that the workers' answers are never
 * kept waiting. A job that fails on a worker is run again on the main thread, where it fails as it would in-process.
 */
export function createWork(cache?: BuildCache, options: WorkOptions = {}): Work {
  const workers: Worker[] = [];
  const broken = new Set<Worker>();
  const local: Record<string, unknown> = {};
  let parallelJobs = 0;

  async function runHere<I, O>(job: ToolJob<I, O>, input: I, key: string): Promise<O> {
    const remembered = cache?.get<O>(job.kind, key);
    if (remembered !== undefined) return remembered;
    const value = await job.run(input, local);
    cache?.set(job.kind, key, value);
    return value;
  }

  /** Fills `answers` at `pending` with the main thread and `count` workers sharing the queue, a chunk at a time. */
  async function spread<I, O>(
    job: ToolJob<I, O>,
    inputs: readonly I[],
    keys: readonly string[],
    pending: number[],
    count: number,
    answers: O[],
  ): Promise<void> {
    while (workers.length < count) workers.push(startWorker(import.meta.url, 'tool-worker'));
    const threads = 1 + workers.filter((thread) => !broken.has(thread)).length;
    let next = 0;
    const take = (): number[] | undefined =>
      next < pending.length ? pending.slice(next, (next += chunkSize(pending.length - next, threads))) : undefined;
    let done = 0;
    const progress = (chunk: readonly number[]): void => options.progress?.(job.kind, (done += chunk.length), pending.length);
    const mainThread = async (): Promise<void> => {
      for (let chunk = take(); chunk; chunk = take()) {
        for (const index of chunk) {
          answers[index] = await runHere(job, inputs[index]!, keys[index]!);
          await yieldToWorkers();
        }
        progress(chunk);
      }
    };
    const onThread = async (thread: Worker): Promise<void> => {
      const send = channelTo(thread);
      // While this thread runs a job of its own, a worker's answer waits for it: the worker has its next batch already.
      const inFlight: Array<{ chunk: number[]; values: Promise<WorkerAnswer[] | null> }> = [];
      const post = (): void => {
        const chunk = take();
        if (chunk) inFlight.push({ chunk, values: send({ kind: job.kind, inputs: chunk.map((index) => inputs[index]) }) });
      };
      while (inFlight.length < IN_FLIGHT && next < pending.length) post();
      for (let sent = inFlight.shift(); sent; sent = inFlight.shift()) {
        const { chunk } = sent;
        const values = await sent.values;
        // A worker that cannot run leaves its chunks to the main thread, after the others.
        if (values === null) return void broken.add(thread);
        post();
        chunk.forEach((index, at) => {
          const answer = values[at];
          if (answer === undefined || !('value' in answer)) return;
          cache?.set(job.kind, keys[index]!, answer.value);
          answers[index] = answer.value as O;
          parallelJobs += 1;
        });
        progress(chunk);
      }
    };
    await Promise.all([mainThread(), ...workers.filter((thread) => !broken.has(thread)).map(onThread)]);
  }

  function prestart(jobs: number): void {
    if (options.threads === false) return;
    const count = workerCount(jobs);
    while (workers.length < count) workers.push(startWorker(import.meta.url, 'tool-worker'));
  }

  async function map<I, O>(job: ToolJob<I, O>, inputs: readonly I[]): Promise<O[]> {
    const answers = new Array<O>(inputs.length);
    // Each input's key once: hashing a tool's content is most of what a map costs when the cache answers it.
    const keys = cache ? inputs.map((input) => job.key(input)) : inputs.map(() => '');
    const pending = inputs.flatMap((_, index) => (cache?.has(job.kind, keys[index]!) ? [] : [index]));
    const count = job.threads && options.threads !== false ? workerCount(pending.length) : 0;
    if (count > 0) await spread(job, inputs, keys, pending, count, answers);
    // What the cache remembers, what no worker could do, and everything of a map too small to spread.
    for (let index = 0; index < inputs.length; index += 1)
      if (!(index in answers)) answers[index] = await runHere(job, inputs[index]!, keys[index]!);
    return answers;
  }

  return {
    map,
    prestart,
    stats: cache?.stats ?? { hits: 0, misses: 0 },
    get parallelJobs() {
      return parallelJobs;
    },
    async close() {
      await Promise.all(workers.splice(0).map((thread) => thread.terminate()));
    },
  };
}
