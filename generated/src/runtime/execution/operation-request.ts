// Builds the HTTP request of an OpenAPI operation from validated arguments: the path template filled with encoded
// values, the query, headers and cookies serialized by their declared style/explode, and the body.

import type { JsonObject } from '../shared/contracts.js';
import type { OperationCall, OperationParameter } from './operation.js';
import { isJsonObject } from '../shared/json-values.js';

export interface OperationRequest {
  /** Path and query, to append to the server's base URL. */
  target: string;
  headers: Record<string, string>;
  body?: string;
}

const text = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : value === null || value === undefined
      ? ''
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);

/** encodeURIComponent, keeping RFC 3986 reserved characters as they are when the parameter allows them. */
function encode(value: string, allowReserved = false): string {
  const encoded = encodeURIComponent(value);
  return allowReserved
    ? encoded.replace(/%(3A|2F|3F|23|5B|5D|40|21|24|26|27|28|29|2A|2B|2C|3B|3D)/gi, (escape) => decodeURIComponent(escape))
    : encoded;
}

/** One path segment's value: dot segments would be collapsed by URL parsing, so `.` and `..` go as `%2E`. */
function encodeSegment(value: string): string {
  return value === '.' || value === '..' ? value.replaceAll('.', '%2E') : encode(value);
}

/** A value in the `simple` style (path and header default): `a,b,c`; an object `k,v,k2,v2`, or `k=v,k2=v2` exploded. */
function simple(value: unknown, explode: boolean, escape: (s: string) => string): string {
  if (Array.isArray(value)) return value.map((item) => escape(text(item))).join(',');
  if (isJsonObject(value)) {
    return Object.entries(value)
      .map(([k, v]) => (explode ? `${escape(k)}=${escape(text(v))}` : `${escape(k)},${escape(text(v))}`))
      .join(',');
  }
  return escape(text(value));
}

function pathValue(parameter: OperationParameter, value: unknown): string {
  const escape = encodeSegment;
  switch (parameter.style) {
    case 'label': {
      const separator = parameter.explode ? '.' : ',';
      if (Array.isArray(value)) return `.${value.map((item) => escape(text(item))).join(separator)}`;
      return `.${simple(value, parameter.explode, escape)}`;
    }
    case 'matrix': {
      const name = parameter.name;
      if (Array.isArray(value)) {
        return parameter.explode
          ? value.map((item) => `;${name}=${escape(text(item))}`).join('')
          : `;${name}=${value.map((item) => escape(text(item))).join(',')}`;
      }
      if (isJsonObject(value) && parameter.explode)
        return Object.entries(value)
          .map(([k, v]) => `;${escape(k)}=${escape(text(v))}`)
          .join('');
      return `;${name}=${simple(value, false, escape)}`;
    }
    case 'json':
      return escape(JSON.stringify(value));
    default:
      return simple(value, parameter.explode, escape);
  }
}

/** Query pairs of one parameter, already encoded. */
function queryPairs(parameter: OperationParameter, value: unknown): string[] {
  const escape = (s: string): string => encode(s, parameter.allowReserved === true);
  const name = encode(parameter.name);
  if (parameter.style === 'json') return [`${name}=${escape(JSON.stringify(value))}`];
  if (parameter.style === 'deepObject' && isJsonObject(value)) {
    const pairs: string[] = [];
    const walk = (prefix: string, node: unknown): void => {
      if (isJsonObject(node)) for (const [k, v] of Object.entries(node)) walk(`${prefix}[${k}]`, v);
      else if (Array.isArray(node)) node.forEach((item, index) => walk(`${prefix}[${index}]`, item));
      else pairs.push(`${encode(prefix)}=${escape(text(node))}`);
    };
    walk(parameter.name, value);
    return pairs;
  }
  if (Array.isArray(value)) {
    if (parameter.style === 'spaceDelimited') return [`${name}=${value.map((item) => escape(text(item))).join('%20')}`];
    if (parameter.style === 'pipeDelimited') return [`${name}=${value.map((item) => escape(text(item))).join('|')}`];
    return parameter.explode
      ? value.map((item) => `${name}=${escape(text(item))}`)
      : [`${name}=${value.map((item) => escape(text(item))).join(',')}`];
  }
  if (isJsonObject(value)) {
    if (parameter.explode) return Object.entries(value).map(([k, v]) => `${encode(k)}=${escape(text(v))}`);
    return [
      `${name}=${Object.entries(value)
        .map(([k, v]) => `${escape(k)},${escape(text(v))}`)
        .join(',')}`,
    ];
  }
  return [`${name}=${escape(text(value))}`];
}

/** A form-urlencoded body from an object: arrays as repeated fields, nested objects as JSON text. */
function formBody(value: unknown): string {
  if (!isJsonObject(value)) return '';
  const pairs: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined) continue;
    for (const item of Array.isArray(v) ? v : [v]) pairs.push(`${encode(k)}=${encode(text(item))}`);
  }
  return pairs.join('&');
}

/** A path template and the fixed query pairs after its `?` or `#`. */
export function splitFixedQuery(path: string): [string, string[]] {
  const at = path.search(/[?#]/);
  if (at === -1) return [path, []];
  return [
    path.slice(0, at),
    path
      .slice(at + 1)
      .split('&')
      .filter((pair) => pair !== ''),
  ];
}

/** The request for `call` with `params` (already valid against the tool's input schema). */
export function buildOperationRequest(call: OperationCall, params: JsonObject): OperationRequest {
  const headers: Record<string, string> = {};
  // A template that carries a fixed query (`/files/{path}?op=APPEND`, or `#op=APPEND` as some converted Azure
  // descriptions spell it, to tell operations on one path apart) sends it as query pairs.
  const [template, fixed] = splitFixedQuery(call.path);
  const query: string[] = fixed;
  const cookies: string[] = [];
  let path = template;
  for (const parameter of call.parameters) {
    const value = params[parameter.key];
    if (parameter.in === 'path') {
      // A path value is required by the schema; an absent one leaves the template visible in the error the API gives.
      if (value !== undefined) path = path.split(`{${parameter.name}}`).join(pathValue(parameter, value));
      continue;
    }
    if (value === undefined) continue;
    if (parameter.in === 'query') query.push(...queryPairs(parameter, value));
    else if (parameter.in === 'header')
      headers[parameter.name.toLowerCase()] =
        parameter.style === 'json' ? JSON.stringify(value) : simple(value, parameter.explode, (s) => s);
    else if (parameter.in === 'cookie')
      cookies.push(`${parameter.name}=${parameter.style === 'json' ? encode(JSON.stringify(value)) : simple(value, false, encode)}`);
  }
  if (cookies.length > 0) headers.cookie = cookies.join('; ');
  const request: OperationRequest = { target: query.length > 0 ? `${path}?${query.join('&')}` : path, headers };
  if (call.body !== null && params[call.body.key] !== undefined) {
    const value = params[call.body.key];
    const type = call.body.contentType;
    headers['content-type'] = type;
    request.body =
      type === 'application/json'
        ? JSON.stringify(value)
        : type.startsWith('application/x-www-form-urlencoded')
          ? formBody(value)
          : text(value);
  }
  return request;
}
