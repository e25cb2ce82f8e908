// The source stage: turns `--source` (API URL, bundle file, or nothing) into the raw catalogue document.

import { fileURLToPath } from 'node:url';
import { readApiCatalogue } from './api-source.js';
import { BUNDLE_FORMAT, readBundleFile } from './bundle-source.js';
import { shownUrl } from './http-json.js';
import type { RetryPolicy } from './retry.js';
import type { SourceLimits } from './source-limits.js';

export interface SourceOptions {
  apiKey?: string;
  timeoutMs?: number;
  concurrency?: number;
  userAgent?: string;
  /** Default: DEFAULT_RETRY_POLICY (see retry.ts). */
  retry?: RetryPolicy;
  /** Caps on bodies, pages, tools and time (defaults: DEFAULT_SOURCE_LIMITS). */
  limits?: Partial<SourceLimits>;
  onManifest?: (done: number, total: number) => void;
}

export interface RawCatalogue {
  /** What was read, for reports: a URL (credentials masked) or a file path. */
  origin: string;
  kind: 'api' | 'bundle';
  /** The bundle document, exactly as read (API catalogues are wrapped into the bundle form). */
  document: unknown;
}

/** The example catalogue shipped with the generator. */
export const EXAMPLE_BUNDLE = fileURLToPath(new URL('../../../examples/catalogue.json', import.meta.url));

export function isApiSource(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

/** `source` as reports and messages show it: an API URL's credentials masked (`http://***@host/api`). */
export function shownSource(source: string): string {
  return isApiSource(source) ? shownUrl(source) : source;
}

/** `--source` without a value: the API named by the environment, else the bundled example. */
export function defaultSource(env: NodeJS.ProcessEnv): string {
  return env.NEXUSBLOOM_API_URL && env.NEXUSBLOOM_API_URL.trim() !== '' ? env.NEXUSBLOOM_API_URL.trim() : EXAMPLE_BUNDLE;
}

export async function readSource(source: string, options: SourceOptions = {}): Promise<RawCatalogue> {
  if (isApiSource(source)) {
    const tools = await readApiCatalogue(source, {
      apiKey: options.apiKey,
      timeoutMs: options.timeoutMs ?? 15_000,
      concurrency: options.concurrency ?? 8,
      userAgent: options.userAgent ?? 'nexusbloom-gen',
      ...(options.retry === undefined ? {} : { retry: options.retry }),
      ...(options.limits === undefined ? {} : { limits: options.limits }),
      onManifest: options.onManifest,
    });
    return { origin: shownSource(source), kind: 'api', document: { format: BUNDLE_FORMAT, tools } };
  }
  return { origin: source, kind: 'bundle', document: await readBundleFile(source) };
}
