// One JSON GET against the catalogue API with a deadline, turning every network failure into a clear SourceError.

import { exchangeWithApi, ExchangeError, type ExchangeFailure } from '../../runtime/api-transport.js';
import { PipelineError } from '../problems.js';

export interface HttpOptions {
  apiKey?: string;
  timeoutMs: number;
  userAgent: string;
}

export class SourceError extends PipelineError {
  constructor(
    message: string,
    readonly url: string,
    readonly slug: string | null = null,
  ) {
    super(message, [{ severity: 'error', slug, pointer: '', message }]);
    this.name = 'SourceError';
  }
}

function describeNetworkFailure(error: unknown): string {
  // node:http errors carry the code themselves; fetch's (on a redirect) carry it on their cause.
  const cause = error instanceof Error && 'cause' in error ? (error as { cause?: unknown }).cause : error;
  const code = cause && typeof cause === 'object' && 'code' in cause ? String((cause as { code: unknown }).code) : undefined;
  if (code === 'ECONNREFUSED') return 'connection refused (is the API running and the URL right?)';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found (check the URL)';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection reset by the server';
  const message = cause instanceof Error ? cause.message : error instanceof Error ? error.message : String(error);
  return code ? `${code}: ${message}` : message;
}

/** GETs `url` and returns its parsed JSON body; every failure names the URL (and the slug when given). */
export async function getJson(url: string, options: HttpOptions, slug: string | null = null): Promise<unknown> {
  const about = slug === null ? url : `${url} (tool ${JSON.stringify(slug)})`;
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': options.userAgent };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  let status: number;
  let text: string;
  try {
    // The runtime's transport, not fetch: it keeps a `%2E` path segment (a slug `.` or `..`) that URL parsing drops.
    ({ status, text } = await exchangeWithApi({ method: 'GET', url, headers, timeoutMs: options.timeoutMs }));
  } catch (error) {
    const failure: ExchangeFailure = error instanceof ExchangeError ? error.failure : { kind: 'unreachable', error };
    if (failure.kind === 'timeout') {
      throw new SourceError(`GET ${about} timed out after ${options.timeoutMs} ms (raise --timeout or check the API)`, url, slug);
    }
    throw new SourceError(`GET ${about} failed: ${describeNetworkFailure('error' in failure ? failure.error : failure.kind)}`, url, slug);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    const preview = text.length > 80 ? `${text.slice(0, 80)}…` : text;
    const what = status >= 400 ? `answered ${status} with` : 'answered with';
    throw new SourceError(`GET ${about} ${what} a body that is not JSON (truncated or not an API): ${JSON.stringify(preview)}`, url, slug);
  }
  if (status >= 400) {
    const envelope = body as { error?: unknown; code?: unknown };
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
    throw new SourceError(`GET ${about} failed with ${status}${code}${detail}${hint}`, url, slug);
  }
  return body;
}
