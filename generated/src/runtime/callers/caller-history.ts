// Run history over HTTP, kept per caller: each bearer token gets a history of its own, and a request that carries no
// caller identity gets none at all, so no caller can read another's inputs and results.

import { AsyncLocalStorage } from 'node:async_hooks';
import { createHmac, randomBytes } from 'node:crypto';
import { createRunHistory, HISTORY_CAPACITY, runRecord, type HistoryScope, type RunHistory, type RunRecord } from '../history/history.js';

/** Callers whose histories are kept at once; the one that ran least recently is forgotten past this. */
export const MAX_CALLER_HISTORIES = 64;

/** The caller a request is being answered for, set by the HTTP transport around the request; null when anonymous. */
const requestCaller = new AsyncLocalStorage<string | null>();

/** Runs `answer` as the request of `caller` (from callerIdForToken), or of an anonymous caller when null. */
export function answerAsCaller<T>(caller: string | null, answer: () => T): T {
  return requestCaller.run(caller, answer);
}

// A keyed digest, under a key that never leaves this process: the id shown names a token without helping to guess it.
const callerKey = randomBytes(32);

/** The caller identity of a bearer token: stable within this process, and nothing an outsider can compute or invert. */
export function callerIdForToken(token: string): string {
  return `caller-${createHmac('sha256', callerKey).update(token).digest('base64url').slice(0, 12)}`;
}

export interface CallerHistoryOptions {
  /** The variable that sets the bearer token(s), for the note of a history that is off. */
  tokenVar: string;
  capacity?: number;
}

/** A history that answers, for each request, with the runs of the caller making it (see answerAsCaller). */
export function createCallerHistory(options: CallerHistoryOptions): RunHistory {
  const capacity = options.capacity ?? HISTORY_CAPACITY;
  const histories = new Map<string, RunHistory>();
  let unrecorded = 0;
  const off: HistoryScope = {
    kind: 'off',
    reason:
      `this server answers HTTP without a bearer token, so it cannot tell callers apart, and one caller would read ` +
      `another's inputs and results. Set ${options.tokenVar} (one token per caller, comma-separated) to keep a history per caller.`,
  };
  const current = (create: boolean): RunHistory | null | undefined => {
    const caller = requestCaller.getStore() ?? null;
    if (caller === null) return null;
    let history = histories.get(caller);
    if (history !== undefined) {
      // Map order is insertion order: moving a caller to the end keeps the least recently active one first.
      histories.delete(caller);
      histories.set(caller, history);
      return history;
    }
    if (!create) return undefined;
    history = createRunHistory(capacity, 'http');
    histories.set(caller, history);
    for (const oldest of histories.keys()) {
      if (histories.size <= MAX_CALLER_HISTORIES) break;
      histories.delete(oldest);
    }
    return history;
  };
  return {
    capacity,
    servedOver: 'http',
    scope() {
      const caller = requestCaller.getStore() ?? null;
      return caller === null ? off : { kind: 'caller', caller };
    },
    record(slug, input, outcome, at = new Date()): RunRecord {
      const history = current(true);
      if (history === null || history === undefined) return runRecord(`r${++unrecorded}`, slug, input, outcome, at);
      return history.record(slug, input, outcome, at);
    },
    list: () => current(false)?.list() ?? [],
    find: (ref) => current(false)?.find(ref),
    get totalRecorded() {
      return current(false)?.totalRecorded ?? 0;
    },
  };
}
