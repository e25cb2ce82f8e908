// One HTTP exchange with the catalogue API over node:http(s) and the process's shared keep-alive agents, which costs a
// fraction of fetch's CPU per request (no WHATWG streams, Request/Response or Headers objects). A redirect is handed to
// fetch, which follows it as the client always has.

import type { ClientRequest, IncomingMessage, request as httpRequest } from 'node:http';

export interface ApiExchange {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** Limit on the whole exchange, body included. */
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface ApiAnswer {
  status: number;
  /** A response header by lower-case name, or null. */
  header(name: string): string | null;
  text: string;
}

/** Why an exchange produced no answer. */
export type ExchangeFailure =
  | { kind: 'timeout' }
  | { kind: 'cancelled' }
  /** No status line: the connection failed, or closed before the API answered. */
  | { kind: 'unreachable'; error: unknown }
  /** The status line came but the body broke off. */
  | { kind: 'broken'; status: number; error: unknown };

export class ExchangeError extends Error {
  constructor(readonly failure: ExchangeFailure) {
    super(failure.kind);
  }
}

/** The statuses fetch follows (with a location); the node:http path hands those to fetch. */
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

type SendRequest = typeof httpRequest;

/** node:http and node:https (TLS) are loaded by the first request that needs them, not at start-up. */
const senders: { 'http:'?: SendRequest; 'https:'?: SendRequest } = {};

async function senderFor(protocol: string): Promise<SendRequest | undefined> {
  if (protocol === 'http:') return (senders['http:'] ??= (await import('node:http')).request);
  if (protocol === 'https:') return (senders['https:'] ??= (await import('node:https')).request as SendRequest);
  return undefined;
}

/** Sends one request; resolves to the full answer, or rejects with an ExchangeError. */
export async function exchangeWithApi(exchange: ApiExchange): Promise<ApiAnswer> {
  let target: URL;
  try {
    target = new URL(exchange.url);
  } catch (error) {
    throw new ExchangeError({ kind: 'unreachable', error });
  }
  const send = senders[target.protocol as 'http:' | 'https:'] ?? await senderFor(target.protocol);
  if (send === undefined) throw new ExchangeError({ kind: 'unreachable', error: new TypeError(`${target.protocol} is not http: or https:`) });
  return new Promise<ApiAnswer>((resolve, reject) => {
    let settled = false;
    let outgoing: ClientRequest | undefined;
    let abortFetch: (() => void) | undefined;

    const finish = (): boolean => {
      if (settled) return false;
      settled = true;
      clearTimeout(deadline);
      exchange.signal?.removeEventListener('abort', onAbort);
      return true;
    };
    const fail = (failure: ExchangeFailure): void => {
      if (!finish()) return;
      outgoing?.destroy();
      abortFetch?.();
      reject(new ExchangeError(failure));
    };
    const succeed = (answer: ApiAnswer): void => {
      if (finish()) resolve(answer);
    };

    const deadline = setTimeout(() => fail({ kind: 'timeout' }), exchange.timeoutMs);
    const onAbort = (): void => fail({ kind: 'cancelled' });
    if (exchange.signal?.aborted) {
      onAbort();
      return;
    }
    exchange.signal?.addEventListener('abort', onAbort, { once: true });

    const headers = exchange.body === undefined
      ? exchange.headers
      : { ...exchange.headers, 'content-length': String(Buffer.byteLength(exchange.body)) };
    const request = send(target, { method: exchange.method, headers, path: requestTarget(exchange.url, target) });
    outgoing = request;
    request.on('error', (error) => fail({ kind: 'unreachable', error }));
    request.on('response', (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      if (REDIRECT_STATUSES.has(status) && response.headers.location !== undefined) {
        response.resume();
        const controller = new AbortController();
        abortFetch = () => controller.abort();
        answerByFetch(redirected(exchange, status, response.headers.location), controller.signal).then(succeed, (error: unknown) => {
          fail(error instanceof ExchangeError ? error.failure : { kind: 'unreachable', error });
        });
        return;
      }
      const chunks: string[] = [];
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => chunks.push(chunk));
      response.on('end', () => succeed({ status, header: (name) => headerText(response.headers[name]), text: chunks.join('') }));
      response.on('error', (error) => fail({ kind: 'broken', status, error }));
      response.on('close', () => {
        if (!response.complete) fail({ kind: 'broken', status, error: Object.assign(new Error('aborted'), { code: 'ECONNRESET' }) });
      });
    });
    request.end(exchange.body);
  });
}

/**
 * The path and query to send. URL parsing treats `%2E` segments as dot segments and removes them, so a slug `.` sent
 * as `/tools/%2E/run` would reach `/tools/run`; a URL holding `%2E` is sent as written (node:http sends `path` as
 * is) when it is plain printable ASCII, and any other URL as parsed.
 */
function requestTarget(url: string, parsed: URL): string {
  const written = /^https?:\/\/[^/?#]*([^#]*)/i.exec(url)?.[1] ?? '';
  return /%2e/i.test(written) && /^\/[\x21-\x7e]*$/.test(written) && !written.includes('\\')
    ? written
    : `${parsed.pathname}${parsed.search}`;
}

function headerText(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Request headers dropped when a redirect turns the request into a body-less GET (fetch standard, HTTP-redirect fetch). */
const BODY_HEADERS = ['content-encoding', 'content-language', 'content-location', 'content-type'];

/**
 * The request a redirect asks for, by the fetch standard's rules (which fetch then applies to any further redirect):
 * 301/302 turn a POST into a GET, 303 turns anything into a GET, 307/308 keep method and body; a different origin
 * does not get the Authorization header. An unusable location is left for fetch to reject.
 */
function redirected(exchange: ApiExchange, status: number, location: string): ApiExchange {
  let next: URL;
  try {
    next = new URL(location, exchange.url);
  } catch {
    return { ...exchange, url: location };
  }
  const headers = { ...exchange.headers };
  if (next.origin !== new URL(exchange.url).origin) delete headers.authorization;
  const toGet = ((status === 301 || status === 302) && exchange.method === 'POST') || (status === 303 && exchange.method !== 'GET');
  if (!toGet) return { ...exchange, url: next.href, headers };
  for (const name of BODY_HEADERS) delete headers[name];
  const { body: _droppedBody, ...rest } = exchange;
  return { ...rest, method: 'GET', url: next.href, headers };
}

/** The same exchange through fetch, which follows redirects; the caller's deadline and signal abort it through `signal`. */
async function answerByFetch(exchange: ApiExchange, signal: AbortSignal): Promise<ApiAnswer> {
  let response: Response;
  try {
    response = await fetch(exchange.url, {
      method: exchange.method, headers: exchange.headers, signal, redirect: 'follow',
      ...(exchange.body === undefined ? {} : { body: exchange.body }),
    });
  } catch (error) {
    throw new ExchangeError({ kind: 'unreachable', error });
  }
  try {
    const text = await response.text();
    return { status: response.status, header: (name) => response.headers.get(name), text };
  } catch (error) {
    throw new ExchangeError({ kind: 'broken', status: response.status, error });
  }
}
