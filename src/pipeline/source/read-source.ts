// The source stage: turns `--source` (API URL, bundle file, or nothing) into the raw catalogue document.

import { fileURLToPath } from 'node:url';
import { BUNDLE_FORMAT, parseBundleText, readSourceFile } from './bundle-source.js';
import { redactUrlCredentials } from '../../runtime/secrets/redact.js';
import { openApiVersionOf } from './openapi/openapi-version.js';
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
  kind: 'api' | 'bundle' | 'openapi';
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
  // As http-json's shownUrl shows it.
  return isApiSource(source) ? redactUrlCredentials(source) : source;
}

/** `--source` without a value: the API named by the environment, else the bundled example. */
export function defaultSource(env: NodeJS.ProcessEnv): string {
  return env.NEXUSBLOOM_API_URL && env.NEXUSBLOOM_API_URL.trim() !== '' ? env.NEXUSBLOOM_API_URL.trim() : EXAMPLE_BUNDLE;
}

/**
 * A URL that names a document rather than a NexusBloom API base: a `.json`/`.yaml`/`.yml` file, or a path ending in
 * `openapi`, `swagger` or `api-docs` (springdoc's `/v3/api-docs`). Such a URL is read once and told apart by content.
 */
export function isDocumentUrl(source: string): boolean {
  try {
    const path = new URL(source).pathname.toLowerCase();
    return /\.(json|ya?ml)$/.test(path) || /(^|\/)(openapi|swagger|api-docs)$/.test(path);
  } catch {
    return false;
  }
}

/** The OpenAPI parser and YAML, loaded only for a source that may be an API description (they take some 100 ms to load). */
const openApiSource = () => import('./openapi/openapi-source.js');

/** The HTTP client and the API reader, loaded only for a source on the network: a build from a file never needs them. */
const httpJson = () => import('./http-json.js');
const apiSource = () => import('./api-source.js');

/** A bundle file's document when its text is JSON, else undefined. */
function jsonDocumentOf(source: string, text: string): unknown {
  try {
    return parseBundleText(source, text);
  } catch {
    return undefined;
  }
}

export async function readSource(source: string, options: SourceOptions = {}): Promise<RawCatalogue> {
  if (isApiSource(source) && isDocumentUrl(source)) {
    const [{ openApiBundle, parseDocumentText }, { getJson }] = await Promise.all([openApiSource(), httpJson()]);
    const parseDocument = (text: string): unknown => {
      const parsed = parseDocumentText(text);
      if ('error' in parsed) throw new SyntaxError(parsed.error);
      return parsed.value;
    };
    const origin = shownSource(source);
    const document = await getJson(
      source,
      {
        apiKey: options.apiKey,
        timeoutMs: options.timeoutMs ?? 15_000,
        userAgent: options.userAgent ?? 'nexusbloom-gen',
        ...(options.retry === undefined ? {} : { retry: options.retry }),
      },
      null,
      parseDocument,
    );
    if (openApiVersionOf(document) !== null)
      return { origin, kind: 'openapi', document: await openApiBundle(document as Record<string, unknown>, origin, source) };
    return { origin, kind: 'bundle', document };
  }
  if (isApiSource(source)) {
    const { readApiCatalogue } = await apiSource();
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
  const text = await readSourceFile(source);
  // Told apart by content: an API description (JSON or YAML) is converted, anything else is read as a bundle.
  const json = jsonDocumentOf(source, text);
  if (json !== undefined && openApiVersionOf(json) === null) return { origin: source, kind: 'bundle', document: json };
  const { openApiBundle, parseDocumentText } = await openApiSource();
  const parsed = json === undefined ? parseDocumentText(text) : { value: json };
  if ('value' in parsed && openApiVersionOf(parsed.value) !== null) {
    return { origin: source, kind: 'openapi', document: await openApiBundle(parsed.value as Record<string, unknown>, source, null) };
  }
  return { origin: source, kind: 'bundle', document: parseBundleText(source, text) };
}
