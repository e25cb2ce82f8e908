// How the API source retries what the catalogue contract calls retryable (429, 5xx) and a reset connection.

import { setTimeout as sleep } from 'node:timers/promises';

export interface RetryPolicy {
  /** Retries after the first attempt; 0 turns retrying off. */
  retries: number;
  /** The wait before the first retry of a 5xx, a reset or a 429 without retry-after; doubled before each next one. */
  backoffMs: number;
  /** The longest retry-after a 429 may ask for; asked for longer, the source fails at once and says how long. */
  maxRetryAfterMs: number;
  /** Waits `ms`, or rejects when `signal` aborts. Tests pass one that records the wait and returns at once. */
  wait: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  retries: 3,
  backoffMs: 250,
  maxRetryAfterMs: 30_000,
  wait: async (ms, signal) => {
    await sleep(ms, undefined, signal === undefined ? {} : { signal });
  },
};

/** The wait before retry number `retry` (1 for the first): the server's retry-after when it gave one, else the backoff. */
export function retryWaitMs(policy: RetryPolicy, retry: number, retryAfterSeconds: number | null): number {
  return retryAfterSeconds !== null ? retryAfterSeconds * 1000 : policy.backoffMs * 2 ** (retry - 1);
}
