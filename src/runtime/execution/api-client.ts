// HTTP client for the catalogue API: runs tools and reads the live catalogue, mapping every failure to a ToolFailure.

import type { DiagnosticLog, ErrorCode, JsonObject, Manifest, ServerNames, ToolFailure } from '../shared/contracts.js';
import { ERROR_RETRYABLE, toolFailure } from '../shared/contracts.js';
import type { Settings } from '../settings/config.js';
import { exchangeWithApi, ExchangeError, type ApiAnswer, type FetchLike } from './api-transport.js';
import { retryDelay, type AttemptFailure, type RetryPolicy } from './retry.js';
import { withoutByteOrderMark } from '../shared/json-text.js';
import { isJsonObject } from '../shared/json-values.js';

/** The summary fields of a tool as `GET /tools` lists it: the manifest's own, and whether it has a schema and source. */
export interface CatalogueEntry extends Pick<Manifest, 'slug' | 'name' | 'description' | 'category' | 'tags' | 'version'> {
  has_schema: boolean;
  has_source: boolean;
  [extra: string]: unknown;
}

export type ApiResult<T> = { ok: true; value: T } | { ok: false; failure: ToolFailure };

export interface ApiClient {
  /** Without credentials, so it can be shown; null when the configured API URL is unusable (every call fails). */
  readonly baseUrl: string | null;
  /** `POST /tools/{slug}/run`; resolves to the tool's `result`, retrying as `retry` allows (never by default). Never rejects. */
  runTool(slug: string, params: JsonObject, signal?: AbortSignal, retry?: RunRetry): Promise<ApiResult<unknown>>;
  /** Every catalogue entry, following `next_cursor` to the end. Never rejects. */
  listCatalogue(signal?: AbortSignal): Promise<ApiResult<CatalogueEntry[]>>;
  /** `GET /tools/{slug}`: one full manifest. Never rejects. */
  getManifest(slug: string, signal?: AbortSignal): Promise<ApiResult<Manifest>>;
}

/** How a run retries (see execution/retry.ts); `sleep` and `random` are the clock and the dice, replaceable in tests. */
export interface RunRetry {
  policy: RetryPolicy;
  /** Told before each wait: the retry about to be made (1 for the first), the wait, and the failure it follows. */
  onRetry?: (event: { retry: number; delayMs: number; failure: ToolFailure }) => void;
  random?: () => number;
}

/** What an SDK caller may add to how requests are sent. */
export interface ApiTransportOptions {
  fetch?: FetchLike | undefined;
  /** Sent with every request; the client's own headers (authorization, content-type, …) win over a clash. */
  headers?: Readonly<Record<string, string>> | undefined;
}

type ApiSettings = Pick<
  Settings,
  'apiUrl' | 'apiUrlProblem' | 'apiBasicAuth' | 'apiKey' | 'apiKeyProblem' | 'timeoutMs' | 'debug' | 'vars'
> &
  Partial<Pick<Settings, 'maxResponseBytes'>>;

/**
 * A slug as one path segment: percent-encoded with encodeURIComponent (the catalogue API contract), and `.`/`..`, which
 * it leaves alone and URL parsing would collapse as dot segments (`/tools/./run` is `/tools/run`), as `%2E`/`%2E%2E`.
 */
export function slugPathSegment(slug: string): string {
  return slug === '.' || slug === '..' ? slug.replaceAll('.', '%2E') : encodeURIComponent(slug);
}

/** Pages beyond this are treated as a cursor loop in the API rather than followed forever. */
const MAX_CATALOGUE_PAGES = 1000;

export function createApiClient(
  names: ServerNames,
  settings: ApiSettings,
  log: DiagnosticLog,
  transport: ApiTransportOptions = {},
): ApiClient {
  const baseUrl = settings.apiUrl;
  if (baseUrl === null) {
    return unconfiguredApiClient(settings.apiUrlProblem ?? `${settings.vars.apiUrl} is not usable.`, settings.vars.apiUrl, null);
  }
  if (settings.apiKeyProblem !== null) return unconfiguredApiClient(settings.apiKeyProblem, settings.vars.apiKey, baseUrl);
  const userAgent = `${names.packageName}/${names.packageVersion}`;
  // Credentials from the URL's userinfo go in a header, as node:http would send them; an API key takes precedence.
  const authorization =
    settings.apiKey !== null
      ? `Bearer ${settings.apiKey}`
      : settings.apiBasicAuth !== null
        ? `Basic ${Buffer.from(settings.apiBasicAuth).toString('base64')}`
        : null;

  const extraHeaders = Object.fromEntries(Object.entries(transport.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));

  /** A request, sent again after a wait while `retry` allows; each attempt has the whole timeout. */
  async function request(
    method: 'GET' | 'POST',
    path: string,
    what: string,
    body: unknown,
    signal: AbortSignal | undefined,
    retry?: RunRetry,
  ): Promise<ApiResult<unknown>> {
    for (let attempt = 1; ; attempt += 1) {
      const { result, failure } = await requestOnce(method, path, what, body, signal);
      if (result.ok || retry === undefined) return result;
      const delayMs = retryDelay(retry.policy, attempt, failure, retry.random);
      if (delayMs === null) return attempt === 1 ? result : afterAttempts(result.failure, attempt);
      if (settings.debug) log(`↻ ${method} ${baseUrl}${path}: ${result.failure.code}, retry ${attempt} in ${delayMs} ms`);
      retry.onRetry?.({ retry: attempt, delayMs, failure: result.failure });
      if (!(await waited(delayMs, signal))) {
        return fail(
          'CANCELLED',
          `${what} was cancelled by the client while waiting to retry (${attempt} attempt${attempt === 1 ? '' : 's'} made).`,
          { cancelled: true, attempts: attempt },
        );
      }
    }
  }

  /** One request with the timeout applied to the whole exchange, body included. */
  async function requestOnce(
    method: 'GET' | 'POST',
    path: string,
    what: string,
    body: unknown,
    signal: AbortSignal | undefined,
  ): Promise<{ result: ApiResult<unknown>; failure: AttemptFailure }> {
    const url = `${baseUrl}${path}`;
    const headers: Record<string, string> = { ...extraHeaders, accept: 'application/json', 'user-agent': userAgent };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (authorization !== null) headers.authorization = authorization;
    const started = Date.now();
    if (settings.debug) log(`→ ${method} ${url}`);

    let response: ApiAnswer;
    try {
      response = await exchangeWithApi({
        method,
        url,
        headers,
        timeoutMs: settings.timeoutMs,
        ...(settings.maxResponseBytes === undefined ? {} : { maxBodyBytes: settings.maxResponseBytes }),
        ...(signal === undefined ? {} : { signal }),
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        ...(transport.fetch === undefined ? {} : { fetch: transport.fetch }),
      });
    } catch (error) {
      const kind = error instanceof ExchangeError ? error.failure.kind : 'unreachable';
      return { result: debugged(exchangeFailure(error, what)), failure: kind === 'cancelled' ? { kind: 'final' } : { kind: 'lost' } };
    }
    const text = response.text;
    if (settings.debug) log(`← ${response.status} ${method} ${url} in ${Date.now() - started} ms (${text.length} chars)`);

    let json: unknown;
    let parsed = true;
    try {
      json = JSON.parse(withoutByteOrderMark(text));
    } catch {
      parsed = false;
    }

    const final: AttemptFailure = { kind: 'final' };
    if (response.status >= 400) {
      const failure = statusFailure(response, parsed ? json : undefined, what, text);
      const retryAfterS = typeof failure.details?.retry_after_s === 'number' ? failure.details.retry_after_s : null;
      return { result: { ok: false, failure }, failure: { kind: 'status', status: response.status, retryAfterS } };
    }
    if (response.status < 200 || response.status > 299) {
      return {
        result: fail('BAD_RESPONSE', `The API at ${baseUrl} answered ${what} with HTTP ${response.status}.`, { status: response.status }),
        failure: final,
      };
    }
    if (!parsed) {
      return {
        result: fail('BAD_RESPONSE', `The API at ${baseUrl} answered ${what} with a body that is not JSON ` + `(${describeText(text)}).`, {
          status: response.status,
        }),
        failure: final,
      };
    }
    return { result: { ok: true, value: json }, failure: final };

    function debugged(result: ApiResult<unknown>): ApiResult<unknown> {
      if (settings.debug && !result.ok) log(`✗ ${method} ${url} after ${Date.now() - started} ms: ${result.failure.code}`);
      return result;
    }
  }

  function exchangeFailure(error: unknown, what: string): ApiResult<unknown> {
    const failure = error instanceof ExchangeError ? error.failure : { kind: 'unreachable' as const, error };
    switch (failure.kind) {
      case 'timeout':
        return fail(
          'TIMEOUT',
          `${what} got no answer from ${baseUrl} within ${settings.timeoutMs} ms. ` + `Retry, or raise ${settings.vars.timeoutMs}.`,
          { timeout_ms: settings.timeoutMs },
        );
      case 'cancelled':
        return fail('CANCELLED', `${what} was cancelled by the client before ${baseUrl} answered.`, { cancelled: true });
      case 'unreachable':
        return fail(
          'API_UNREACHABLE',
          `Cannot reach the API at ${baseUrl} (${networkReason(failure.error)}). Check the network, or set ${settings.vars.apiUrl}.`,
          { url: baseUrl },
        );
      // The API was reached (or a kept-alive connection to it had gone stale): not a network problem to fix.
      case 'unanswered':
        return fail(
          'BAD_RESPONSE',
          `The API at ${baseUrl} closed the connection before answering ${what} ` +
            `(${networkReason(failure.error)}): its answer was cut off before the status line. Retrying may help.`,
          { url: baseUrl },
        );
      case 'tooLarge':
        return fail(
          'BAD_RESPONSE',
          `The API at ${baseUrl} answered ${what} with a body over ${failure.limit} bytes ` +
            `(HTTP ${failure.status}); reading stopped there. Raise ${settings.vars.maxResponseBytes} if the answer is meant to be that large.`,
          { status: failure.status, max_response_bytes: failure.limit },
        );
      case 'broken': {
        const details: JsonObject = { status: failure.status };
        if (failure.received === null) {
          return fail(
            'BAD_RESPONSE',
            `The API at ${baseUrl} sent an answer to ${what} that cannot be read ` +
              `(HTTP ${failure.status}, ${networkReason(failure.error)}).`,
            details,
          );
        }
        details.received_bytes = failure.received;
        const of = failure.expected === null ? '' : ` of the ${failure.expected} announced`;
        if (failure.expected !== null) details.expected_bytes = failure.expected;
        return fail(
          'BAD_RESPONSE',
          `The API at ${baseUrl} cut off the body of its answer to ${what} after ${failure.received} bytes${of} ` +
            `(HTTP ${failure.status}, ${networkReason(failure.error)}). Retrying may help.`,
          details,
        );
      }
    }
  }

  function statusFailure(response: ApiAnswer, json: unknown, what: string, text: string): ToolFailure {
    const status = response.status;
    const envelope = isJsonObject(json) ? json : {};
    const apiMessage = typeof envelope.error === 'string' && envelope.error.trim() !== '' ? envelope.error.trim() : null;
    const said = apiMessage === null ? '' : `: ${apiMessage}`;
    const details: JsonObject = { status };
    if (typeof envelope.code === 'string') details.api_code = envelope.code;

    if (status === 401 || status === 403) {
      const advice =
        settings.apiKey === null
          ? `Set ${settings.vars.apiKey} to an API key.`
          : `The key in ${settings.vars.apiKey} was not accepted; check or replace it.`;
      return toolFailure('AUTH_ERROR', `The API refused ${what} (HTTP ${status})${said}. ${advice}`, details);
    }
    if (status === 429) {
      const retryAfter = parseRetryAfter(response.header('retry-after'));
      if (retryAfter !== null) details.retry_after_s = retryAfter;
      const when = retryAfter === null ? 'Wait a little' : `Retry after ${retryAfter} s`;
      const keyHint = settings.apiKey === null ? ` Anonymous calls share the free-tier limit; ${settings.vars.apiKey} raises it.` : '';
      return toolFailure('RATE_LIMITED', `Rate limited by the API${said}. ${when}.${keyHint}`, details);
    }
    if (status >= 500) {
      return toolFailure(
        'UPSTREAM_ERROR',
        `The API failed on ${what} (HTTP ${status})${apiMessage === null ? ` ${describeText(text)}` : said}. Retrying may help.`,
        details,
      );
    }
    if (status === 400 || status === 422) {
      return toolFailure(
        'VALIDATION_ERROR',
        `The API rejected the arguments of ${what}${said === '' ? ` (HTTP ${status})` : said}.`,
        details,
      );
    }
    if (status === 404) {
      // A 404 without the API's error body usually means the base URL points somewhere that is not the API.
      const urlHint = apiMessage === null ? ` If ${baseUrl} is not the API's base, set ${settings.vars.apiUrl}.` : '';
      const subject = what.startsWith('listing') ? 'tool list' : `tool ${what.replace(/^(running|reading) /, '')}`;
      return toolFailure('TOOL_NOT_FOUND', `The API at ${baseUrl} has no ${subject} (HTTP 404)${said}.${urlHint}`, details);
    }
    if (status === 408) return toolFailure('TIMEOUT', `The API timed out on ${what}${said}.`, details);
    const code = typeof envelope.code === 'string' && envelope.code in ERROR_RETRYABLE ? (envelope.code as ErrorCode) : 'UPSTREAM_ERROR';
    return toolFailure(code, `The API answered ${what} with HTTP ${status}${said}.`, details);
  }

  async function runTool(slug: string, params: JsonObject, signal?: AbortSignal, retry?: RunRetry): Promise<ApiResult<unknown>> {
    const what = `running ${JSON.stringify(slug)}`;
    const answer = await request('POST', `/tools/${slugPathSegment(slug)}/run`, what, { params }, signal, retry);
    if (!answer.ok) return answer;
    const body = answer.value;
    if (isJsonObject(body) && body.success === true && 'result' in body) return { ok: true, value: body.result };
    if (isJsonObject(body) && body.success === false && typeof body.error === 'string') {
      const code = typeof body.code === 'string' && body.code in ERROR_RETRYABLE ? (body.code as ErrorCode) : 'UPSTREAM_ERROR';
      return fail(code, `The API reported a failure ${what}: ${body.error}`);
    }
    return fail(
      'BAD_RESPONSE',
      `The API at ${baseUrl} answered ${what} with JSON that is not a run result ` + '(expected {"success": true, "result": …}).',
    );
  }

  async function listCatalogue(signal?: AbortSignal): Promise<ApiResult<CatalogueEntry[]>> {
    const entries: CatalogueEntry[] = [];
    const seenCursors = new Set<string>();
    let cursor: string | null = null;
    for (let page = 0; page < MAX_CATALOGUE_PAGES; page += 1) {
      const path: string = cursor === null ? '/tools' : `/tools?cursor=${encodeURIComponent(cursor)}`;
      const answer = await request('GET', path, 'listing the catalogue', undefined, signal);
      if (!answer.ok) return answer;
      const body = answer.value;
      if (!isJsonObject(body) || !Array.isArray(body.tools)) {
        return fail('BAD_RESPONSE', `The API at ${baseUrl} answered GET /tools with JSON that has no "tools" array.`);
      }
      for (const entry of body.tools) {
        if (!isCatalogueEntry(entry)) {
          return fail('BAD_RESPONSE', `The API at ${baseUrl} listed a catalogue entry without a string slug, name and version.`);
        }
        entries.push(entry);
      }
      const next = body.next_cursor;
      if (typeof next !== 'string' || next === '') return { ok: true, value: entries };
      if (seenCursors.has(next)) {
        return fail('BAD_RESPONSE', `The API at ${baseUrl} repeated the cursor ${JSON.stringify(next)} while listing the catalogue.`);
      }
      seenCursors.add(next);
      cursor = next;
    }
    return fail('BAD_RESPONSE', `The API at ${baseUrl} kept paginating past ${MAX_CATALOGUE_PAGES} pages.`);
  }

  async function getManifest(slug: string, signal?: AbortSignal): Promise<ApiResult<Manifest>> {
    const what = `reading ${JSON.stringify(slug)}`;
    const answer = await request('GET', `/tools/${slugPathSegment(slug)}`, what, undefined, signal);
    if (!answer.ok) return answer;
    const body = answer.value;
    if (!isManifest(body) || body.slug !== slug) {
      return fail('BAD_RESPONSE', `The API at ${baseUrl} answered ${what} with JSON that is not that tool's manifest.`);
    }
    return { ok: true, value: body };
  }

  return { baseUrl, runTool, listCatalogue, getManifest };
}

/**
 * The client of a server whose API URL or key is unusable: every call fails at once with `problem`, and nothing is sent
 * anywhere. `variable` is the setting to fix (`details.variable`).
 */
function unconfiguredApiClient(problem: string, variable: string, baseUrl: string | null): ApiClient {
  const refused = async (): Promise<{ ok: false; failure: ToolFailure }> =>
    fail('CONFIG_ERROR', `The API is not configured: ${problem}`, { variable });
  return { baseUrl, runTool: refused, listCatalogue: refused, getManifest: refused };
}

/** The last failure of a retried call, saying how many attempts were made. */
function afterAttempts(failure: ToolFailure, attempts: number): { ok: false; failure: ToolFailure } {
  return fail(failure.code, `${failure.error} (${attempts} attempts made.)`, { ...failure.details, attempts });
}

/** Waits `ms`; false when `signal` aborted first. */
function waited(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function fail(code: ErrorCode, message: string, details?: JsonObject): { ok: false; failure: ToolFailure } {
  return { ok: false, failure: toolFailure(code, message, details) };
}

function isCatalogueEntry(value: unknown): value is CatalogueEntry {
  return (
    isJsonObject(value) &&
    typeof value.slug === 'string' &&
    value.slug !== '' &&
    typeof value.name === 'string' &&
    typeof value.version === 'string'
  );
}

function isManifest(value: unknown): value is Manifest {
  return (
    isCatalogueEntry(value) &&
    typeof value.description === 'string' &&
    (value.input_schema === null || isJsonObject(value.input_schema)) &&
    (value.output_schema === undefined || value.output_schema === null || isJsonObject(value.output_schema))
  );
}

/** `retry-after` is either delay-seconds or an HTTP date; both become whole seconds from now. */
export function parseRetryAfter(header: string | null, now: number = Date.now()): number | null {
  if (header === null) return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

/** node:http errors carry their code; fetch (redirects) wraps it in `TypeError: fetch failed`, under `cause`. */
function networkReason(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current !== undefined && current !== null; depth += 1) {
    if (typeof current === 'object' && 'code' in current && typeof current.code === 'string') {
      const code = current.code;
      const known: Record<string, string> = {
        ECONNREFUSED: 'connection refused',
        ENOTFOUND: 'host not found',
        EAI_AGAIN: 'DNS lookup failed',
        ECONNRESET: 'connection reset',
        EPIPE: 'connection closed',
        ETIMEDOUT: 'connection timed out',
        UND_ERR_SOCKET: 'connection closed mid-answer',
        EHOSTUNREACH: 'host unreachable',
        ENETUNREACH: 'network unreachable',
      };
      return known[code] ?? code;
    }
    current = typeof current === 'object' && 'cause' in current ? current.cause : undefined;
  }
  return error instanceof Error ? error.message : String(error);
}

function describeText(text: string): string {
  if (text.trim() === '') return 'empty body';
  const preview = text.replace(/\s+/g, ' ').trim().slice(0, 80);
  return `starts with ${JSON.stringify(preview)}`;
}
