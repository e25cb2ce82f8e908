// One JSON GET against the catalogue API with a deadline, turning every network failure into a clear SourceError.

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
  const cause = error instanceof Error && 'cause' in error ? (error as { cause?: unknown }).cause : undefined;
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
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  let status: number;
  let text: string;
  try {
    const response = await fetch(url, { headers, signal: controller.signal });
    status = response.status;
    text = await response.text();
  } catch (error) {
    if (controller.signal.aborted) {
      throw new SourceError(`GET ${about} timed out after ${options.timeoutMs} ms (raise --timeout or check the API)`, url, slug);
    }
    throw new SourceError(`GET ${about} failed: ${describeNetworkFailure(error)}`, url, slug);
  } finally {
    clearTimeout(timer);
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
