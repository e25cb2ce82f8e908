// One JSON GET against the catalogue API with a deadline and bounded retries, turning every failure into a clear SourceError.

import { parseRetryAfter } from '../../runtime/execution/api-client.js';
import {
  DEFAULT_MAX_BODY_BYTES,
  exchangeWithApi,
  ExchangeError,
  type ApiAnswer,
  type ExchangeFailure,
} from '../../runtime/execution/api-transport.js';
import { unsendableHeaderCharacter } from '../../runtime/settings/config.js';
import { withoutByteOrderMark } from '../../runtime/shared/json-text.js';
import { maskSecretsInText, redactUrlCredentials } from '../../runtime/secrets/redact.js';
import { PipelineError } from '../problems.js';
import { DEFAULT_RETRY_POLICY, retryWaitMs, type RetryPolicy } from './retry.js';

export interface HttpOptions {
  /** Already checked by `usableApiKey`. */
  apiKey?: string;
  timeoutMs: number;
  /** Largest body read, as sent and as decoded (default DEFAULT_MAX_BODY_BYTES). */
  maxBodyBytes?: number;
  userAgent: string;
  /** Default: DEFAULT_RETRY_POLICY. */
  retry?: RetryPolicy;
  /** Aborts the request and any retry wait under way. */
  signal?: AbortSignal;
}

/**
 * A failure to read the API. Its message is masked as a whole, not only the URL it was built with: an error from
 * below (fetch refusing a redirect, say) can quote another URL with the credentials in it.
 */
export class SourceError extends PipelineError {
  readonly url: string;
  constructor(
    message: string,
    url: string,
    readonly slug: string | null = null,
    pointer = '',
  ) {
    const shown = maskSecretsInText(message);
    super(shown, [{ severity: 'error', slug, pointer, message: shown }]);
    this.url = redactUrlCredentials(url);
    this.name = 'SourceError';
  }
}

/** A URL as messages and reports show it: a password (or token) in its userinfo is masked. */
export function shownUrl(url: string): string {
  return redactUrlCredentials(url);
}

/**
 * The API key as the authorization header will carry it: surrounding whitespace (the newline a secret file ends with)
 * trimmed, and none when nothing is left. A key a header cannot carry fails here, before any request, instead of as
 * node's ERR_INVALID_CHAR; the message says where the character is, never the key.
 */
export function usableApiKey(apiKey: string | undefined): string | undefined {
  const key = apiKey?.trim();
  if (key === undefined || key === '') return undefined;
  // The generated server's own test of a header value: the same characters are refused on both sides.
  const bad = unsendableHeaderCharacter(key);
  if (bad !== null) {
    const code = `U+${(key.codePointAt(bad.position - 1) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
    const message = `NEXUSBLOOM_API_KEY holds a character an HTTP header cannot carry (${code} at character ${bad.position} of the trimmed key): set it to the key alone`;
    throw new PipelineError(message, [{ severity: 'error', slug: null, pointer: '', message }]);
  }
  return key;
}

function maxBodyBytes(options: HttpOptions): number {
  return options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
}

function describeNetworkFailure(error: unknown): string {
  const cause = causeOf(error);
  const code = errorCode(error);
  if (code === 'ECONNREFUSED') return 'connection refused (is the API running and the URL right?)';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found (check the URL)';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection reset by the server';
  const message = cause instanceof Error ? cause.message : error instanceof Error ? error.message : String(error);
  return code ? `${code}: ${message}` : message;
}

/** node:http errors carry their code themselves; fetch's (on a redirect) carry it on their cause. */
function causeOf(error: unknown): unknown {
  return error instanceof Error && 'cause' in error ? (error as { cause?: unknown }).cause : error;
}

function errorCode(error: unknown): string | undefined {
  const cause = causeOf(error);
  return cause && typeof cause === 'object' && 'code' in cause ? String((cause as { code: unknown }).code) : undefined;
}

/** A connection the server (or something on the way) dropped: worth another attempt, unlike a refused one. */
function isConnectionReset(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE';
}

function preview(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}

/** A failure the contract calls retryable, and the wait a 429 asked for (retry-after, seconds), if it did. */
interface RetryableFailure {
  message: string;
  retryAfterSeconds: number | null;
}

/** Reads a body's text as a value; throws when it cannot (the body then counts as not JSON). */
export type BodyParser = (text: string) => unknown;

const parseJson: BodyParser = (text) => JSON.parse(withoutByteOrderMark(text)) as unknown;

/** GETs `url` and returns its parsed JSON body (or what `parse` makes of it); every failure names the URL (and the slug when given). */
export async function getJson(
  url: string,
  options: HttpOptions,
  slug: string | null = null,
  parse: BodyParser = parseJson,
): Promise<unknown> {
  const about = slug === null ? shownUrl(url) : `${shownUrl(url)} (tool ${JSON.stringify(slug)})`;
  const policy = options.retry ?? DEFAULT_RETRY_POLICY;
  for (let attempt = 1; ; attempt += 1) {
    const outcome = await getOnce(url, about, options, slug, parse);
    if ('body' in outcome) return outcome.body;
    const { message, retryAfterSeconds } = outcome.retryable;
    const attempts = `${attempt} attempt${attempt === 1 ? '' : 's'}`;
    if (retryAfterSeconds !== null && retryAfterSeconds * 1000 > policy.maxRetryAfterMs) {
      throw new SourceError(
        `${message}; the API asked to retry after ${retryAfterSeconds} s, longer than the ${policy.maxRetryAfterMs / 1000} s this waits (${attempts}; try again later)`,
        shownUrl(url),
        slug,
      );
    }
    if (attempt > policy.retries) throw new SourceError(`${message} (gave up after ${attempts})`, shownUrl(url), slug);
    try {
      await policy.wait(retryWaitMs(policy, attempt, retryAfterSeconds), options.signal);
    } catch {
      throw new SourceError(`GET ${about} was cancelled while waiting to retry`, shownUrl(url), slug);
    }
  }
}

/** One attempt: the body, a retryable failure, or (thrown) a SourceError that another attempt would not change. */
async function getOnce(
  url: string,
  about: string,
  options: HttpOptions,
  slug: string | null,
  parse: BodyParser,
): Promise<{ body: unknown } | { retryable: RetryableFailure }> {
  const fail = (message: string): SourceError => new SourceError(message, shownUrl(url), slug);
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': options.userAgent };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  let answer: ApiAnswer;
  try {
    // The runtime's transport, not fetch: it keeps a `%2E` path segment (a slug `.` or `..`) that URL parsing drops.
    answer = await exchangeWithApi({
      method: 'GET',
      url,
      headers,
      timeoutMs: options.timeoutMs,
      maxBodyBytes: maxBodyBytes(options),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  } catch (error) {
    const failure: ExchangeFailure = error instanceof ExchangeError ? error.failure : { kind: 'unreachable', error };
    if (failure.kind === 'timeout') throw fail(`GET ${about} timed out after ${options.timeoutMs} ms (raise --timeout or check the API)`);
    if (failure.kind === 'cancelled') throw fail(`GET ${about} was cancelled`);
    if (failure.kind === 'tooLarge') {
      throw fail(
        `GET ${about} answered (HTTP ${failure.status}) with a body over ${failure.limit} bytes (as sent or decoded); ` +
          'reading stopped there (raise --max-body-mb if the catalogue is meant to be that large)',
      );
    }
    const message = `GET ${about} failed: ${describeNetworkFailure(failure.error)}`;
    if (isConnectionReset(failure.error)) return { retryable: { message, retryAfterSeconds: null } };
    throw fail(message);
  }
  const { status, text } = answer;
  // The transport follows a redirect that has a location; one that reaches here has none, or is not one fetch follows.
  if (status >= 300 && status < 400) {
    const location = answer.header('location');
    throw fail(
      location === null
        ? `GET ${about} answered ${status} without a Location header: a redirect to nowhere (check the URL)`
        : `GET ${about} answered ${status} (to ${location}), a redirect this client does not follow (check the URL)`,
    );
  }
  let body: { value: unknown } | null;
  try {
    // A byte order mark is not part of the JSON (RFC 8259 §8.1 lets a parser skip it), as for a bundle file.
    body = { value: parse(text) };
  } catch {
    body = null;
  }
  if (status >= 400) {
    const message = statusMessage(about, status, body?.value, text, body !== null);
    if (status === 429) return { retryable: { message, retryAfterSeconds: parseRetryAfter(answer.header('retry-after')) } };
    if (status >= 500) return { retryable: { message, retryAfterSeconds: null } };
    throw fail(message);
  }
  if (body === null) throw fail(`GET ${about} answered with a body that is not JSON (truncated or not an API): ${preview(text)}`);
  return { body: body.value };
}

function statusMessage(about: string, status: number, body: unknown, text: string, isJson: boolean): string {
  if (!isJson) return `GET ${about} answered ${status} with a body that is not JSON (truncated or not an API): ${preview(text)}`;
  const envelope = body as { error?: unknown; code?: unknown } | null;
  const detail = typeof envelope?.error === 'string' ? `: ${envelope.error}` : '';
  const code = typeof envelope?.code === 'string' ? ` ${envelope.code}` : '';
  const hint =
    status === 401 || status === 403
      ? ' (set NEXUSBLOOM_API_KEY to a valid key)'
      : status === 429
        ? ' (rate limited: retry later or set an API key)'
        : status >= 500
          ? ' (the API failed: retry later)'
          : '';
  return `GET ${about} failed with ${status}${code}${detail}${hint}`;
}
