// Calls the HTTP operation a tool converted from an OpenAPI document stands for, and maps the answer onto the same
// results and stable error codes as a NexusBloom run.

import type {
  DiagnosticLog,
  EnvironmentVariables,
  JsonObject,
  RunOutcome,
  ServedTool,
  ServerNames,
  ToolFailure,
} from '../shared/contracts.js';
import { toolFailure } from '../shared/contracts.js';
import { exchangeWithApi, ExchangeError, type ApiAnswer } from './api-transport.js';
import { parseRetryAfter } from './api-client.js';
import { withoutByteOrderMark } from '../shared/json-text.js';
import { createCredentialReader, type TokenSource } from './credentials.js';
import type { OperationCall } from './operation.js';
import { buildOperationRequest } from './operation-request.js';
import { isJsonObject } from '../shared/json-values.js';
import { variableValue } from '../shared/environment.js';

export interface OperationCaller {
  call(tool: ServedTool, call: OperationCall, params: JsonObject, signal?: AbortSignal): Promise<RunOutcome>;
}

export interface OperationCallerOptions {
  names: ServerNames;
  env: EnvironmentVariables;
  timeoutMs: number;
  debug: boolean;
  log: DiagnosticLog;
}

/** `<prefix>API_URL`, when set, replaces the document's server URL (a test double, a staging host, a proxy). */
function baseUrlOf(options: OperationCallerOptions, call: OperationCall): { url: string } | { problem: string } {
  const variable = `${options.names.envPrefix}API_URL`;
  const candidate = variableValue(options.env, variable) ?? call.servers.find((url) => /^https?:\/\//i.test(url));
  if (candidate === undefined) {
    return {
      problem: `the API description gives no absolute server URL (${call.servers.map((s) => JSON.stringify(s)).join(', ') || 'none'}); set ${variable} to the API's base URL.`,
    };
  }
  try {
    const parsed = new URL(candidate);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http(s)');
    return { url: candidate.replace(/\/+$/, '') };
  } catch {
    return { problem: `${variable} is not an http(s) URL; set it to the API's base URL, e.g. https://api.example.com/v1.` };
  }
}

function describeText(text: string): string {
  const preview = text.replace(/\s+/g, ' ').trim().slice(0, 120);
  return preview === '' ? 'an empty body' : JSON.stringify(preview);
}

/** The API's own message in a JSON error body (`message`, `error`, `error.message`, `detail`, `title`), if any. */
function apiMessage(body: unknown): string | null {
  if (!isJsonObject(body)) return null;
  for (const key of ['message', 'error', 'detail', 'title', 'error_description']) {
    const value = body[key];
    if (typeof value === 'string' && value.trim() !== '') return value.trim().slice(0, 500);
    if (isJsonObject(value) && typeof value.message === 'string') return value.message.trim().slice(0, 500);
  }
  return null;
}

/** OAuth2 client-credentials tokens, cached per token URL and client until shortly before they expire. */
function createTokenSource(timeoutMs: number, userAgent: string): TokenSource {
  const cache = new Map<string, { token: string; until: number }>();
  return async (tokenUrl, clientId, clientSecret, signal) => {
    const key = `${tokenUrl}\u0000${clientId}`;
    const cached = cache.get(key);
    if (cached !== undefined && cached.until > Date.now()) return cached.token;
    try {
      const answer = await exchangeWithApi({
        method: 'POST',
        url: tokenUrl,
        timeoutMs,
        ...(signal === undefined ? {} : { signal }),
        headers: {
          accept: 'application/json',
          'content-type': 'application/x-www-form-urlencoded',
          'user-agent': userAgent,
          authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}`,
        },
        body: 'grant_type=client_credentials',
      });
      const body = JSON.parse(withoutByteOrderMark(answer.text)) as unknown;
      if (answer.status !== 200 || !isJsonObject(body) || typeof body.access_token !== 'string') return null;
      const lifetime = typeof body.expires_in === 'number' ? body.expires_in : 3600;
      cache.set(key, { token: body.access_token, until: Date.now() + Math.max(0, lifetime - 30) * 1000 });
      return body.access_token;
    } catch {
      return null;
    }
  };
}

export function createOperationCaller(options: OperationCallerOptions): OperationCaller {
  const userAgent = `${options.names.packageName}/${options.names.packageVersion}`;
  const credentials = createCredentialReader(options.names.envPrefix, options.env, createTokenSource(options.timeoutMs, userAgent));
  const urlVariable = `${options.names.envPrefix}API_URL`;
  const timeoutVariable = `${options.names.envPrefix}MCP_TIMEOUT_MS`;

  async function call(tool: ServedTool, operation: OperationCall, params: JsonObject, signal?: AbortSignal): Promise<RunOutcome> {
    const started = Date.now();
    const done = (failure: ToolFailure): RunOutcome => ({ ok: false, failure, durationMs: Date.now() - started });
    const what = `${operation.method} ${operation.path} (${JSON.stringify(tool.slug)})`;
    const base = baseUrlOf(options, operation);
    if ('problem' in base) return done(toolFailure('CONFIG_ERROR', `Cannot call ${what}: ${base.problem}`, { variable: urlVariable }));
    const request = buildOperationRequest(operation, params);
    const auth = await credentials.credentialsFor(operation.security, operation.securitySchemes, signal);
    const query = auth.query.length === 0 ? '' : `${request.target.includes('?') ? '&' : '?'}${auth.query.join('&')}`;
    const url = `${base.url}${request.target}${query}`;
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': userAgent, ...request.headers, ...auth.headers };
    if (auth.cookies.length > 0) headers.cookie = [headers.cookie, ...auth.cookies].filter((c) => c !== undefined && c !== '').join('; ');
    if (options.debug) options.log(`→ ${operation.method} ${base.url}${request.target}`);

    let answer: ApiAnswer;
    try {
      answer = await exchangeWithApi({
        method: operation.method,
        url,
        headers,
        timeoutMs: options.timeoutMs,
        ...(signal === undefined ? {} : { signal }),
        ...(request.body === undefined ? {} : { body: request.body }),
      });
    } catch (error) {
      const failure = error instanceof ExchangeError ? error.failure : { kind: 'unreachable' as const, error };
      switch (failure.kind) {
        case 'timeout':
          return done(
            toolFailure(
              'TIMEOUT',
              `${what} got no answer from ${base.url} within ${options.timeoutMs} ms. Retry, or raise ${timeoutVariable}.`,
              { timeout_ms: options.timeoutMs },
            ),
          );
        case 'cancelled':
          return done(toolFailure('CANCELLED', `${what} was cancelled by the client before ${base.url} answered.`, { cancelled: true }));
        case 'unreachable':
          return done(
            toolFailure('API_UNREACHABLE', `Cannot reach the API at ${base.url} for ${what}. Check the network, or set ${urlVariable}.`, {
              url: base.url,
            }),
          );
        default:
          return done(
            toolFailure('BAD_RESPONSE', `The API at ${base.url} broke off its answer to ${what}. Retrying may help.`, { url: base.url }),
          );
      }
    }
    if (options.debug) options.log(`← ${answer.status} ${operation.method} ${base.url}${request.target} in ${Date.now() - started} ms`);

    const text = answer.text;
    const type = (answer.header('content-type') ?? '').toLowerCase();
    let json: { value: unknown } | null = null;
    if (text.trim() !== '') {
      try {
        json = { value: JSON.parse(withoutByteOrderMark(text)) as unknown };
      } catch {
        json = null;
      }
    }
    const status = answer.status;
    if (status >= 400) {
      const said = apiMessage(json?.value);
      const details: JsonObject = { status };
      if (json !== null) details.body = json.value;
      const told = said === null ? '' : `: ${said}`;
      if (status === 401 || status === 403) {
        const variables = credentials.variablesFor(operation.security, operation.securitySchemes);
        const advice =
          variables.length > 0 ? `Set ${variables.join(' or ')} (see the package README).` : 'Check the credentials the API expects.';
        return done(toolFailure('AUTH_ERROR', `The API refused ${what} (HTTP ${status})${told}. ${advice}`, { ...details, variables }));
      }
      if (status === 429) {
        const retryAfter = parseRetryAfter(answer.header('retry-after'));
        if (retryAfter !== null) details.retry_after_s = retryAfter;
        return done(
          toolFailure(
            'RATE_LIMITED',
            `Rate limited by the API on ${what}${told}. ${retryAfter === null ? 'Wait a little' : `Retry after ${retryAfter} s`}.`,
            details,
          ),
        );
      }
      if (status === 408) return done(toolFailure('TIMEOUT', `The API timed out on ${what}${told}.`, details));
      if (status >= 500)
        return done(
          toolFailure(
            'UPSTREAM_ERROR',
            `The API failed on ${what} (HTTP ${status})${said === null ? `, answering ${describeText(text)}` : told}. Retrying may help.`,
            details,
          ),
        );
      if (status === 400 || status === 422)
        return done(toolFailure('VALIDATION_ERROR', `The API rejected the arguments of ${what} (HTTP ${status})${told}.`, details));
      // 404, 409, 410, …: the operation ran and said no for this input.
      return done(
        toolFailure(
          'EXECUTION_ERROR',
          `The API answered ${what} with HTTP ${status}${said === null ? ` (${describeText(text)})` : told}.`,
          details,
        ),
      );
    }
    if (status < 200 || status > 299)
      return done(toolFailure('BAD_RESPONSE', `The API at ${base.url} answered ${what} with HTTP ${status}.`, { status }));
    const durationMs = Date.now() - started;
    if (text.trim() === '') return { ok: true, result: null, durationMs };
    if (json !== null && (type === '' || type.includes('json') || type.startsWith('*/*')))
      return { ok: true, result: json.value, durationMs };
    if (type.includes('json'))
      return done(
        toolFailure(
          'BAD_RESPONSE',
          `The API at ${base.url} answered ${what} with a ${type} body that is not JSON (${describeText(text)}).`,
          { status },
        ),
      );
    // A text answer (text/plain, text/csv, …) is the result as it came.
    return { ok: true, result: json !== null ? json.value : text, durationMs };
  }

  return { call };
}
