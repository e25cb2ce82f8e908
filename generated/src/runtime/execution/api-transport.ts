// One HTTP exchange with the catalogue API over node:http(s) and the process's shared keep-alive agents, which costs a
// fraction of fetch's CPU per request (no WHATWG streams, Request/Response or Headers objects). A redirect is handed to
// fetch, which follows it as the client always has. A compressed body (gzip, deflate, br) is decoded here.

import type { ClientRequest, IncomingMessage, request as httpRequest } from 'node:http';

export interface ApiExchange {
  /** An HTTP method; the catalogue API uses GET and POST, an OpenAPI operation any. */
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** Limit on the whole exchange, body included. */
  timeoutMs: number;
  /** Limit on the body as received and as decoded (default DEFAULT_MAX_BODY_BYTES): a bigger one is a `tooLarge` failure. */
  maxBodyBytes?: number;
  signal?: AbortSignal;
  /** Sends the exchange through this fetch instead of node:http (an SDK caller's own, for proxies, tracing or tests). */
  fetch?: FetchLike;
}

/** The part of the WHATWG fetch this client uses; the global `fetch`, undici's and node-fetch's all fit. */
export type FetchLike = (
  url: string,
  init: {
    method: string;
    headers: Record<string, string>;
    body?: string;
    signal: AbortSignal;
    redirect: 'follow';
  },
) => Promise<{
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
  body?: AsyncIterable<Uint8Array> | null;
}>;

/** The largest body read by default, before or after decoding: no catalogue answer or tool result comes near it. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;

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
  /** No connection, so nothing was sent (refused, unknown host, TLS failure, …). */
  | { kind: 'unreachable'; error: unknown }
  /** The whole request went out, then the connection closed before a status line: the API's answer was lost. */
  | { kind: 'unanswered'; error: unknown }
  /**
   * The status line came but the body broke off (`received` bytes of it arrived, of the `expected` its content-length
   * announced, if it did), or arrived whole (`received` null) in a content-encoding that cannot be decoded.
   */
  | { kind: 'broken'; status: number; error: unknown; received: number | null; expected: number | null }
  /**
   * The body (as sent, or as its content-coding decodes: a gzip bomb) grew past `limit` bytes; reading stopped there,
   * so no more than the limit was ever held.
   */
  | { kind: 'tooLarge'; status: number; limit: number };

export class ExchangeError extends Error {
  constructor(readonly failure: ExchangeFailure) {
    super(failure.kind);
  }
}

/** The statuses fetch follows (with a location); the node:http path hands those to fetch. */
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * The content-codings decoded here, sent as `accept-encoding`. Without that header a server or CDN may pick any coding
 * (RFC 9110 §12.5.3), so the request names exactly the ones `decodeBody` reads. fetch (redirects) decodes the same.
 */
export const ACCEPTED_ENCODINGS = 'gzip, deflate, br';

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
  if (exchange.fetch !== undefined) return exchangeByFetch(exchange, exchange.fetch);
  let target: URL;
  try {
    target = new URL(exchange.url);
  } catch (error) {
    throw new ExchangeError({ kind: 'unreachable', error });
  }
  const send = senders[target.protocol as 'http:' | 'https:'] ?? (await senderFor(target.protocol));
  const limit = exchange.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (send === undefined)
    throw new ExchangeError({ kind: 'unreachable', error: new TypeError(`${target.protocol} is not http: or https:`) });
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

    const headers: Record<string, string> = { 'accept-encoding': ACCEPTED_ENCODINGS, ...exchange.headers };
    if (exchange.body !== undefined) headers['content-length'] = String(Buffer.byteLength(exchange.body));
    const request = send(target, { method: exchange.method, headers, path: requestTarget(exchange.url, target) });
    outgoing = request;
    // 'finish' means the request was handed to a connected socket: a failure after it is the API's, not the network's.
    let sent = false;
    request.on('finish', () => {
      sent = true;
    });
    request.on('error', (error) => fail(sent ? { kind: 'unanswered', error } : { kind: 'unreachable', error }));
    request.on('response', (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      if (REDIRECT_STATUSES.has(status) && response.headers.location !== undefined) {
        response.resume();
        const unfollowable = unfollowableRedirect(status, response.headers.location, exchange.url);
        if (unfollowable !== null) return void fail({ kind: 'unreachable', error: unfollowable });
        const controller = new AbortController();
        abortFetch = () => controller.abort();
        answerByFetch(redirected(exchange, status, response.headers.location), controller.signal, limit).then(succeed, (error: unknown) => {
          fail(error instanceof ExchangeError ? error.failure : { kind: 'unreachable', error });
        });
        return;
      }
      const chunks: Buffer[] = [];
      let received = 0;
      const expected = contentLength(response.headers['content-length']);
      const tooLarge = (): void => fail({ kind: 'tooLarge', status, limit });
      if (expected !== null && expected > limit) return void tooLarge();
      const cutOff = (error: unknown): void => fail({ kind: 'broken', status, error, received, expected });
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > limit) return void tooLarge();
        chunks.push(chunk);
      });
      response.on('end', () => {
        decodeBody(Buffer.concat(chunks), headerText(response.headers['content-encoding']), limit).then(
          (text) => succeed({ status, header: (name) => headerText(response.headers[name]), text }),
          (error: unknown) => (isOverLimit(error) ? tooLarge() : fail({ kind: 'broken', status, error, received: null, expected })),
        );
      });
      response.on('error', cutOff);
      response.on('close', () => {
        if (!response.complete) cutOff(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
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

/**
 * A redirect fetch would refuse with an obscure message ("not implemented... yet..." for `file:`): one to a URL that is
 * not http(s). Its error says where the redirect pointed. Only the first hop is seen here; fetch checks any further one.
 */
function unfollowableRedirect(status: number, location: string, from: string): Error | null {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    return new Error(`redirected (${status}) to ${JSON.stringify(location)}, which is not a URL`);
  }
  if (next.protocol === 'http:' || next.protocol === 'https:') return null;
  return new Error(`redirected (${status}) to ${location}: only http(s) redirects are followed`);
}

/**
 * The body as text, undoing its content-codings (applied in the order listed, so undone last to first). An empty body is
 * left alone: a 204 or an error page may carry the header with nothing to decode. zlib counts what it inflates and
 * stops at `limit` bytes (`maxOutputLength`), so a small gzip bomb never grows past the cap in memory.
 */
async function decodeBody(raw: Buffer, contentEncoding: string | null, limit: number): Promise<string> {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  if (codings.length === 0 || raw.length === 0) return raw.toString('utf8');
  const zlib = await import('node:zlib');
  let body = raw;
  for (const coding of codings.reverse()) {
    if (coding === 'gzip' || coding === 'x-gzip') body = await decoded(zlib.gunzip, body, limit);
    // "deflate" is the zlib format (RFC 9110 §8.4.1.2), but some servers send raw deflate data without its header.
    else if (coding === 'deflate') body = await decoded(hasZlibHeader(body) ? zlib.inflate : zlib.inflateRaw, body, limit);
    else if (coding === 'br') body = await decoded(zlib.brotliDecompress, body, limit);
    else
      throw new Error(
        `the body is in content-encoding ${JSON.stringify(coding)}, which this client cannot decode (it accepts ${ACCEPTED_ENCODINGS})`,
      );
  }
  return body.toString('utf8');
}

type Decoder = (body: Buffer, options: { maxOutputLength: number }, done: (error: Error | null, result: Buffer) => void) => void;

function decoded(decoder: Decoder, body: Buffer, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    decoder(body, { maxOutputLength: limit }, (error, result) => (error ? reject(error) : resolve(result))),
  );
}

/** zlib's refusal to inflate past `maxOutputLength`. */
function isOverLimit(error: unknown): boolean {
  return error instanceof RangeError && (error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE';
}

/** A zlib stream starts with a CMF/FLG pair: compression method 8 and a check making the pair a multiple of 31. */
function hasZlibHeader(body: Buffer): boolean {
  return body.length >= 2 && ((body[0] as number) & 0x0f) === 8 && (((body[0] as number) << 8) | (body[1] as number)) % 31 === 0;
}

function contentLength(value: string | undefined): number | null {
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : null;
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
  const from = new URL(exchange.url);
  if (next.origin !== from.origin) delete headers.authorization;
  // fetch refuses a URL with credentials in it, and a relative location inherits ours: they go as Basic auth instead,
  // as node:http sent them on the first hop, and only to the same origin.
  if (next.username !== '' || next.password !== '') {
    if (next.origin === from.origin && headers.authorization === undefined) {
      headers.authorization = `Basic ${Buffer.from(`${decodedUserinfo(next.username)}:${decodedUserinfo(next.password)}`).toString('base64')}`;
    }
    next.username = '';
    next.password = '';
  }
  const toGet = ((status === 301 || status === 302) && exchange.method === 'POST') || (status === 303 && exchange.method !== 'GET');
  if (!toGet) return { ...exchange, url: next.href, headers };
  for (const name of BODY_HEADERS) delete headers[name];
  const { body: _droppedBody, ...rest } = exchange;
  return { ...rest, method: 'GET', url: next.href, headers };
}

function decodedUserinfo(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** The exchange through a caller's fetch, with the same deadline and cancellation as the node:http path. */
async function exchangeByFetch(exchange: ApiExchange, send: FetchLike): Promise<ApiAnswer> {
  if (exchange.signal?.aborted) throw new ExchangeError({ kind: 'cancelled' });
  const controller = new AbortController();
  let why: ExchangeFailure | null = null;
  const stop = (failure: ExchangeFailure): void => {
    why ??= failure;
    controller.abort();
  };
  const deadline = setTimeout(() => stop({ kind: 'timeout' }), exchange.timeoutMs);
  const onAbort = (): void => stop({ kind: 'cancelled' });
  exchange.signal?.addEventListener('abort', onAbort, { once: true });
  // The answer races the deadline and the signal: a fetch that ignores its signal still cannot hold the call.
  const stopped = new Promise<never>((_, reject) =>
    controller.signal.addEventListener('abort', () => reject(new ExchangeError(why ?? { kind: 'cancelled' })), { once: true }),
  );
  try {
    return await Promise.race([answerByFetch(exchange, controller.signal, exchange.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, send), stopped]);
  } catch (error) {
    throw why !== null ? new ExchangeError(why) : error;
  } finally {
    clearTimeout(deadline);
    exchange.signal?.removeEventListener('abort', onAbort);
  }
}

/** The same exchange through fetch, which follows redirects; the caller's deadline and signal abort it through `signal`. */
async function answerByFetch(exchange: ApiExchange, signal: AbortSignal, limit: number, send: FetchLike = fetch): Promise<ApiAnswer> {
  let response: Awaited<ReturnType<FetchLike>>;
  try {
    response = await send(exchange.url, {
      method: exchange.method,
      headers: exchange.headers,
      signal,
      redirect: 'follow',
      ...(exchange.body === undefined ? {} : { body: exchange.body }),
    });
  } catch (error) {
    throw new ExchangeError({ kind: 'unreachable', error });
  }
  const expected = contentLength(response.headers.get('content-length') ?? undefined);
  if (expected !== null && expected > limit) throw new ExchangeError({ kind: 'tooLarge', status: response.status, limit });
  try {
    // fetch has decoded the body already: counting what it yields counts the decoded bytes.
    const chunks: Uint8Array[] = [];
    let received = 0;
    // A caller's fetch may offer only text(): then the cap is checked on what it returns.
    if (response.body === undefined || response.body === null) {
      const whole = await response.text();
      if (Buffer.byteLength(whole) > limit) throw new ExchangeError({ kind: 'tooLarge', status: response.status, limit });
      return { status: response.status, header: (name) => response.headers.get(name), text: whole };
    }
    for await (const chunk of response.body) {
      received += chunk.byteLength;
      // Leaving the loop cancels the stream: the rest is never downloaded.
      if (received > limit) throw new ExchangeError({ kind: 'tooLarge', status: response.status, limit });
      chunks.push(chunk);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    return { status: response.status, header: (name) => response.headers.get(name), text };
  } catch (error) {
    if (error instanceof ExchangeError) throw error;
    // fetch does not say how much of the body arrived.
    throw new ExchangeError({ kind: 'broken', status: response.status, error, received: null, expected: null });
  }
}
