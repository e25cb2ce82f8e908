// When and how long to wait before running a tool call again: which failures are worth another attempt, which tools may
// run twice, and exponential backoff with full jitter that honours the API's retry-after.

import type { ToolAnnotations } from '../shared/contracts.js';

/**
 * How a call retries. Every field may be left out (or be `undefined`): per-call options override the client's, which
 * override the defaults. `false` turns retries off, a number sets `maxRetries`.
 */
export interface RetryOptions {
  /** Retries after the first attempt; default 2. 0 turns retries off. */
  maxRetries?: number | undefined;
  /** The first backoff before jitter; doubles each retry. Default 250 ms. */
  baseDelayMs?: number | undefined;
  /** No wait is longer than this, a retry-after included: a longer retry-after ends the call instead. Default 30 s. */
  maxDelayMs?: number | undefined;
  /**
   * Which tools retry: `safe` (the default) only those annotated read-only or idempotent, since a call that timed out
   * or lost its answer may have run; `always` every tool; `never` none.
   */
  tools?: 'safe' | 'always' | 'never' | undefined;
}

export type RetrySetting = RetryOptions | number | boolean | undefined;

export interface RetryPolicy {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Whether this tool may be sent again at all (see RetryOptions.tools). */
  toolMayRepeat: boolean;
}

export const DEFAULT_RETRY = { maxRetries: 2, baseDelayMs: 250, maxDelayMs: 30_000, tools: 'safe' } as const;

const asOptions = (setting: RetrySetting): RetryOptions =>
  setting === undefined || setting === true
    ? {}
    : setting === false
      ? { maxRetries: 0 }
      : typeof setting === 'number'
        ? { maxRetries: setting }
        : setting;

/** Whether a tool's annotations promise that running it twice does no harm. */
export function isSafeToRepeat(annotations: ToolAnnotations | undefined): boolean {
  return annotations?.readOnlyHint === true || annotations?.idempotentHint === true;
}

/** The policy for one call: the call's setting over the client's over the defaults, for a tool with `annotations`. */
export function retryPolicy(client: RetrySetting, call: RetrySetting, annotations: ToolAnnotations | undefined): RetryPolicy {
  const from = asOptions(client);
  const over = asOptions(call);
  const pick = <K extends keyof RetryOptions>(key: K): RetryOptions[K] => over[key] ?? from[key];
  const tools = pick('tools') ?? DEFAULT_RETRY.tools;
  return {
    maxRetries: pick('maxRetries') ?? DEFAULT_RETRY.maxRetries,
    baseDelayMs: pick('baseDelayMs') ?? DEFAULT_RETRY.baseDelayMs,
    maxDelayMs: pick('maxDelayMs') ?? DEFAULT_RETRY.maxDelayMs,
    toolMayRepeat: tools === 'always' || (tools === 'safe' && isSafeToRepeat(annotations)),
  };
}

/** What went wrong with one attempt, as far as retrying goes. */
export type AttemptFailure =
  | { kind: 'status'; status: number; retryAfterS: number | null }
  /** No answer: connection refused or reset, or the timeout passed. */
  | { kind: 'lost' }
  | { kind: 'final' };

/** Problems in a retry setting, named by option (`options.retries.maxRetries`); null when it is usable. */
export function retrySettingProblem(setting: RetrySetting, option: string): string | null {
  const options = asOptions(setting);
  if (typeof options !== 'object' || options === null) return `${option} must be a number, a boolean or an object`;
  const whole = (value: number | undefined, name: string, min: number): string | null =>
    value === undefined || (Number.isSafeInteger(value) && value >= min)
      ? null
      : `${option}${typeof setting === 'number' ? '' : `.${name}`} must be a whole number ≥ ${min}, got ${String(value)}`;
  const tools = options.tools;
  if (tools !== undefined && tools !== 'safe' && tools !== 'always' && tools !== 'never')
    return `${option}.tools must be "safe", "always" or "never", got ${JSON.stringify(tools)}`;
  return (
    whole(options.maxRetries, 'maxRetries', 0) ?? whole(options.baseDelayMs, 'baseDelayMs', 0) ?? whole(options.maxDelayMs, 'maxDelayMs', 0)
  );
}

/**
 * The wait before retry number `retry` (1 for the first), or null when the failure is not worth another attempt. 429
 * waits its retry-after when it gives one (a longer one than maxDelayMs gives up); otherwise the wait is drawn at random
 * up to the exponential bound ("full jitter"), so clients that failed together do not retry together.
 */
export function retryDelay(policy: RetryPolicy, retry: number, failure: AttemptFailure, random: () => number = Math.random): number | null {
  // Only a tool that may run twice is sent again, whatever failed: a lost answer may mean it ran.
  if (retry > policy.maxRetries || !policy.toolMayRepeat) return null;
  const backoff = (): number => Math.floor(random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1)));
  switch (failure.kind) {
    case 'final':
      return null;
    case 'lost':
      return backoff();
    case 'status': {
      if (failure.status === 429) {
        if (failure.retryAfterS === null) return backoff();
        const wait = failure.retryAfterS * 1000;
        return wait > policy.maxDelayMs ? null : wait;
      }
      return failure.status >= 500 || failure.status === 408 ? backoff() : null;
    }
  }
}
