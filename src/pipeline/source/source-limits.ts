// How much of an API the source stage reads before it gives up: bodies, listing pages, tools and time, all capped.

import { DEFAULT_MAX_BODY_BYTES } from '../../runtime/execution/api-transport.js';

export interface SourceLimits {
  /** Largest response body, as sent and as decoded (a gzip bomb stops at it). */
  maxBodyBytes: number;
  /** Listing pages followed before the listing counts as endless. */
  maxPages: number;
  /** Distinct tools listed before the catalogue counts as endless. */
  maxTools: number;
  /** The whole read (listing and manifests) must end within this. */
  maxReadMs: number;
}

export const DEFAULT_SOURCE_LIMITS: SourceLimits = {
  maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
  maxPages: 10_000,
  maxTools: 100_000,
  maxReadMs: 30 * 60 * 1000,
};

/** The limits given, the defaults for the rest. */
export function sourceLimits(given: Partial<SourceLimits> | undefined): SourceLimits {
  return { ...DEFAULT_SOURCE_LIMITS, ...Object.fromEntries(Object.entries(given ?? {}).filter(([, value]) => value !== undefined)) };
}
