// One manifest per operation of an OpenAPI 3.x or Swagger 2.0 document: names and prose from the operation, one input
// schema from its parameters and request body, the output schema from its first 2xx JSON response, and the
// `x-nexusbloom-operation` field the generated server calls it with.

import type { JsonObject, Manifest, ToolAnnotations } from '../../../runtime/shared/contracts.js';
import {
  OPERATION_FIELD,
  type OperationCall,
  type OperationParameter,
  type ParameterLocation,
  type SecurityScheme,
} from '../../../runtime/execution/operation.js';
import { createDefsCollector, withLocalDefs, type PointerReader } from './local-refs.js';
import type { SchemaDialect } from './schema-dialect.js';
import { defineOwn, isJsonObject } from '../../../runtime/shared/json-values.js';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** The argument key a JSON (or form) request body is passed under: `{"petId": 1, "body": {...}}`. */
export const BODY_KEY = 'body';

/**
 * Header parameters the call sets itself: the three OpenAPI says to ignore, and the framing headers HTTP gives the
 * transport (a `Transfer-Encoding: chunked` beside the body's length is a malformed request).
 */
export const IGNORED_HEADERS = new Set([
  'accept',
  'content-type',
  'authorization',
  'transfer-encoding',
  'content-length',
  'host',
  'connection',
]);

export interface DocumentContext {
  document: JsonObject;
  /** 2 for Swagger 2.0, 3 for OpenAPI 3.x. */
  major: 2 | 3;
  dialect: SchemaDialect;
  read: PointerReader;
  /** Where the document was read from, to resolve relative server URLs; null for a file. */
  baseUrl: string | null;
}

/** An object that may be a `$ref` to another part of the document (a parameter, a response, a path item…), followed. */
function followed(context: DocumentContext, value: unknown): JsonObject {
  let current = value;
  for (let hops = 0; isJsonObject(current) && typeof current.$ref === 'string'; hops += 1) {
    if (hops > 32) throw new Error(`$ref ${JSON.stringify(current.$ref)} does not end (a loop of references)`);
    current = context.read(current.$ref);
  }
  return isJsonObject(current) ? current : {};
}

/** A JSON media type: `application/json`, `application/problem+json`, `application/json; charset=utf-8`, `*\/*`. */
function isJsonMediaType(type: string): boolean {
  const base = type.split(';')[0]!.trim().toLowerCase();
  return base === 'application/json' || base.endsWith('+json') || base === '*/*' || base === 'application/*';
}

function firstJsonMedia(content: unknown): { type: string; media: JsonObject } | null {
  if (!isJsonObject(content)) return null;
  const type = Object.keys(content).find(isJsonMediaType);
  return type === undefined ? null : { type, media: isJsonObject(content[type]) ? content[type] : {} };
}

/** The schema of a Swagger 2.0 non-body parameter, which carries `type`, `items`, `enum`, … on itself. */
function swaggerParameterSchema(parameter: JsonObject): JsonObject {
  const skip = new Set(['name', 'in', 'description', 'required', 'collectionFormat', 'allowEmptyValue']);
  const schema: JsonObject = {};
  for (const [key, value] of Object.entries(parameter)) if (!skip.has(key) && !key.startsWith('x-')) schema[key] = value;
  return schema;
}

/** Swagger 2.0 `collectionFormat` as the OpenAPI 3 style/explode it means. */
function swaggerStyle(parameter: JsonObject, location: ParameterLocation): { style: string; explode: boolean } {
  switch (parameter.collectionFormat) {
    case 'multi':
      return { style: 'form', explode: true };
    case 'ssv':
      return { style: 'spaceDelimited', explode: false };
    case 'pipes':
      return { style: 'pipeDelimited', explode: false };
    default:
      return { style: location === 'query' || location === 'cookie' ? 'form' : 'simple', explode: false };
  }
}

interface BuiltInput {
  schema: JsonObject;
  parameters: OperationParameter[];
  body: OperationCall['body'];
}

/** Parameters declared on the path item and the operation; the operation's win for the same name and location. */
function declaredParameters(context: DocumentContext, pathItem: JsonObject, operation: JsonObject): JsonObject[] {
  const byKey = new Map<string, JsonObject>();
  for (const list of [pathItem.parameters, operation.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const entry of list) {
      const parameter = followed(context, entry);
      if (typeof parameter.name !== 'string' || typeof parameter.in !== 'string') continue;
      byKey.set(`${parameter.in}\u0000${parameter.name}`, parameter);
    }
  }
  return [...byKey.values()];
}

function buildInput(context: DocumentContext, pathItem: JsonObject, operation: JsonObject): BuiltInput {
  const declared = declaredParameters(context, pathItem, operation);
  const properties: JsonObject = {};
  const required: string[] = [];
  const parameters: OperationParameter[] = [];
  let bodySchema: unknown = undefined;
  let body: OperationCall['body'] = null;

  const located = declared.filter(
    (p) =>
      ['path', 'query', 'header', 'cookie'].includes(p.in as string) &&
      !(p.in === 'header' && IGNORED_HEADERS.has((p.name as string).toLowerCase())),
  );
  // A name declared in two locations (`id` in the path and the query) is keyed `<in>_<name>` outside the path.
  const counts = new Map<string, number>();
  for (const p of located) counts.set(p.name as string, (counts.get(p.name as string) ?? 0) + 1);

  const collector = createDefsCollector(context.dialect, context.read);
  const formFields: JsonObject[] = [];
  for (const parameter of declared) {
    if (parameter.in === 'body') bodySchema = parameter.schema ?? {};
    if (parameter.in === 'formData') formFields.push(parameter);
  }
  const hasBody = bodySchema !== undefined || formFields.length > 0 || (context.major === 3 && operation.requestBody !== undefined);

  for (const parameter of located) {
    const name = parameter.name as string;
    const location = parameter.in as ParameterLocation;
    let key = (counts.get(name) ?? 0) > 1 && location !== 'path' ? `${location}_${name}` : name;
    if (hasBody && key === BODY_KEY) key = `${location}_${name}`;
    let schema: JsonObject;
    let style: { style: string; explode: boolean };
    if (context.major === 2) {
      schema = swaggerParameterSchema(parameter);
      style = swaggerStyle(parameter, location);
    } else {
      const media = firstJsonMedia(parameter.content);
      // A parameter with `content` (not `schema`) is sent as that media type: JSON text.
      schema = isJsonObject(parameter.schema)
        ? parameter.schema
        : media !== null && isJsonObject(media.media.schema)
          ? media.media.schema
          : {};
      const defaultStyle = location === 'query' || location === 'cookie' ? 'form' : 'simple';
      const declaredStyle =
        media !== null && !isJsonObject(parameter.schema) ? 'json' : typeof parameter.style === 'string' ? parameter.style : defaultStyle;
      style = { style: declaredStyle, explode: typeof parameter.explode === 'boolean' ? parameter.explode : declaredStyle === 'form' };
    }
    let converted = collector.convert(schema) as JsonObject;
    const extra: JsonObject = {};
    if (typeof parameter.description === 'string' && converted.description === undefined) extra.description = parameter.description;
    if (parameter.deprecated === true) extra.deprecated = true;
    // A ref's siblings are read beside it in 2020-12, so the parameter's description can sit next to it.
    if (Object.keys(extra).length > 0) converted = { ...converted, ...extra };
    defineOwn(properties, key, converted);
    if (location === 'path' || parameter.required === true) required.push(key);
    parameters.push({ key, name, in: location, ...style, ...(parameter.allowReserved === true ? { allowReserved: true } : {}) });
  }

  if (context.major === 3 && operation.requestBody !== undefined) {
    const requestBody = followed(context, operation.requestBody);
    const content = isJsonObject(requestBody.content) ? requestBody.content : {};
    const json = firstJsonMedia(content);
    const types = Object.keys(content);
    const form = types.find((t) => t.toLowerCase().startsWith('application/x-www-form-urlencoded'));
    const text = types.find((t) => t.toLowerCase().startsWith('text/'));
    const chosen = json !== null ? json.type : (form ?? text ?? types[0]);
    if (chosen !== undefined) {
      const media = isJsonObject(content[chosen]) ? (content[chosen] as JsonObject) : {};
      bodySchema =
        json !== null || form !== undefined ? (media.schema ?? {}) : { type: 'string', description: `The request body as ${chosen} text.` };
      body = { key: BODY_KEY, contentType: json !== null ? 'application/json' : chosen, required: requestBody.required === true };
      if (typeof requestBody.description === 'string' && isJsonObject(bodySchema) && bodySchema.description === undefined)
        bodySchema = { ...bodySchema, description: requestBody.description };
    }
  } else if (bodySchema !== undefined) {
    const bodyParameter = declared.find((p) => p.in === 'body')!;
    body = { key: BODY_KEY, contentType: 'application/json', required: bodyParameter.required === true };
    if (typeof bodyParameter.description === 'string' && isJsonObject(bodySchema) && bodySchema.description === undefined)
      bodySchema = { ...bodySchema, description: bodyParameter.description };
  } else if (formFields.length > 0) {
    const fields: JsonObject = {};
    const fieldsRequired: string[] = [];
    for (const field of formFields) {
      const schema = swaggerParameterSchema(field);
      if (typeof field.description === 'string') schema.description = field.description;
      defineOwn(fields, field.name as string, schema);
      if (field.required === true) fieldsRequired.push(field.name as string);
    }
    bodySchema = { type: 'object', properties: fields, ...(fieldsRequired.length > 0 ? { required: fieldsRequired } : {}) };
    body = { key: BODY_KEY, contentType: 'application/x-www-form-urlencoded', required: fieldsRequired.length > 0 };
  }

  if (body !== null && bodySchema !== undefined) {
    properties[body.key] = collector.convert(bodySchema);
    if (body.required) required.push(body.key);
  }
  const schema: JsonObject = { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
  const defs = collector.defs();
  if (Object.keys(defs).length > 0) schema.$defs = defs;
  return { schema, parameters, body };
}

/** The schema of the first 2xx response with a JSON body (200 before 201 before 2XX), or null. */
function outputSchema(context: DocumentContext, operation: JsonObject): JsonObject | null {
  const responses = isJsonObject(operation.responses) ? operation.responses : {};
  const codes = Object.keys(responses)
    .filter((code) => /^2(\d\d|XX)$/i.test(code))
    .sort();
  for (const code of codes) {
    const response = followed(context, responses[code]);
    const schema = context.major === 2 ? response.schema : firstJsonMedia(response.content)?.media.schema;
    if (schema !== undefined && (isJsonObject(schema) || typeof schema === 'boolean'))
      return withLocalDefs(schema, context.dialect, context.read);
  }
  return null;
}

/** MCP annotations from the method, unless the operation's `x-mcp.annotations` says otherwise. */
function annotationsOf(method: string, operation: JsonObject): ToolAnnotations {
  const readOnly = method === 'get' || method === 'head' || method === 'options';
  const annotations: ToolAnnotations = readOnly
    ? { readOnlyHint: true, openWorldHint: true }
    : {
        readOnlyHint: false,
        destructiveHint: method === 'delete',
        idempotentHint: method === 'put' || method === 'delete',
        openWorldHint: true,
      };
  const extension = isJsonObject(operation['x-mcp']) ? operation['x-mcp'].annotations : undefined;
  if (isJsonObject(extension)) {
    for (const key of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
      if (typeof extension[key] === 'boolean') annotations[key] = extension[key];
    }
  }
  return annotations;
}

/** Server URLs with their variables' defaults filled in, resolved against the document's own URL when relative. */
function serversOf(context: DocumentContext, pathItem: JsonObject, operation: JsonObject): string[] {
  const document = context.document;
  const resolve = (url: string): string => {
    if (context.baseUrl === null) return url;
    try {
      return new URL(url, context.baseUrl).toString().replace(/\/+$/, '');
    } catch {
      return url;
    }
  };
  if (context.major === 2) {
    const schemes = Array.isArray(document.schemes) && document.schemes.length > 0 ? document.schemes : ['https'];
    const basePath = typeof document.basePath === 'string' ? document.basePath.replace(/\/+$/, '') : '';
    if (typeof document.host !== 'string') return [resolve(basePath === '' ? '/' : basePath)];
    const scheme = schemes.includes('https') ? 'https' : String(schemes[0]);
    return [`${scheme}://${document.host}${basePath}`];
  }
  const declared = [operation.servers, pathItem.servers, document.servers].find((list) => Array.isArray(list) && list.length > 0) as
    unknown[] | undefined;
  if (declared === undefined) return [resolve('/')];
  return declared
    .filter(isJsonObject)
    .filter((server) => typeof server.url === 'string')
    .map((server) => {
      const variables = isJsonObject(server.variables) ? server.variables : {};
      const url = (server.url as string).replace(/\{([^}]+)\}/g, (whole, name: string) => {
        const variable = variables[name];
        return isJsonObject(variable) && variable.default !== undefined ? String(variable.default) : whole;
      });
      return resolve(url).replace(/\/+$/, '');
    });
}

/** The document's security schemes, reduced to what a call sends. */
export function securitySchemesOf(context: DocumentContext): Record<string, SecurityScheme> {
  const document = context.document;
  const declared =
    context.major === 2
      ? document.securityDefinitions
      : isJsonObject(document.components)
        ? document.components.securitySchemes
        : undefined;
  const out: Record<string, SecurityScheme> = {};
  if (!isJsonObject(declared)) return out;
  for (const name of Object.keys(declared).sort()) {
    const scheme = followed(context, declared[name]);
    let reduced: SecurityScheme;
    if (
      scheme.type === 'apiKey' &&
      typeof scheme.name === 'string' &&
      (scheme.in === 'header' || scheme.in === 'query' || scheme.in === 'cookie')
    ) {
      reduced = { type: 'apiKey', in: scheme.in, name: scheme.name };
    } else if (scheme.type === 'http' && typeof scheme.scheme === 'string') {
      reduced = { type: 'http', scheme: scheme.scheme.toLowerCase() };
    } else if (scheme.type === 'basic') {
      reduced = { type: 'http', scheme: 'basic' };
    } else if (scheme.type === 'oauth2') {
      const flows = isJsonObject(scheme.flows) ? scheme.flows : {};
      const credentials = isJsonObject(flows.clientCredentials) ? flows.clientCredentials : scheme.flow === 'application' ? scheme : null;
      const tokenUrl = credentials !== null && typeof credentials.tokenUrl === 'string' ? credentials.tokenUrl : null;
      reduced = { type: 'oauth2', tokenUrl, scopes: [] };
    } else {
      reduced = { type: 'unsupported', declared: String(scheme.type ?? 'unknown') };
    }
    out[name] = reduced;
  }
  return out;
}

function securityOf(document: JsonObject, operation: JsonObject): string[][] {
  const declared = Array.isArray(operation.security) ? operation.security : Array.isArray(document.security) ? document.security : [];
  return declared.filter(isJsonObject).map((alternative) => Object.keys(alternative));
}

const METHOD_LABEL = (method: string, path: string): string => `${method.toUpperCase()} ${path}`;

/** The slug of an operation: its operationId, or `<method> <path>` when it has none. */
export function operationSlug(method: string, path: string, operation: JsonObject): string {
  return typeof operation.operationId === 'string' && operation.operationId.trim() !== '' ? operation.operationId : `${method} ${path}`;
}

export function operationManifest(
  context: DocumentContext,
  path: string,
  method: string,
  pathItem: JsonObject,
  operation: JsonObject,
  schemes: Record<string, SecurityScheme>,
): Manifest {
  const slug = operationSlug(method, path, operation);
  const summary = typeof operation.summary === 'string' && operation.summary.trim() !== '' ? operation.summary.trim() : null;
  const description =
    typeof operation.description === 'string' && operation.description.trim() !== '' ? operation.description.trim() : null;
  const tags = Array.isArray(operation.tags) ? operation.tags.filter((t): t is string => typeof t === 'string') : [];
  const info = isJsonObject(context.document.info) ? context.document.info : {};
  const input = buildInput(context, pathItem, operation);
  const security = securityOf(context.document, operation);
  const used = new Set(security.flat());
  const call: OperationCall = {
    method: method.toUpperCase(),
    path,
    parameters: input.parameters,
    body: input.body,
    servers: serversOf(context, pathItem, operation),
    security,
    securitySchemes: Object.fromEntries(Object.entries(schemes).filter(([name]) => used.has(name))),
  };
  const manifest: Manifest = {
    slug,
    name: summary ?? (typeof operation.operationId === 'string' ? operation.operationId : METHOD_LABEL(method, path)),
    description: description ?? summary ?? METHOD_LABEL(method, path),
    category: tags[0] ?? 'default',
    tags,
    version: typeof info.version === 'string' ? info.version : '0.0.0',
    input_schema: input.schema,
    output_schema: outputSchema(context, operation),
    annotations: annotationsOf(method, operation),
    [OPERATION_FIELD]: call,
  };
  if (operation.deprecated === true) manifest.deprecated = 'The API description marks this operation deprecated.';
  return manifest;
}

/** Every operation of the document as a manifest, in path then method order; `x-mcp: {exclude: true}` leaves one out. */
export function documentManifests(context: DocumentContext): Manifest[] {
  const paths = isJsonObject(context.document.paths) ? context.document.paths : {};
  const schemes = securitySchemesOf(context);
  const manifests: Manifest[] = [];
  for (const path of Object.keys(paths)) {
    const pathItem = followed(context, paths[path]);
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (!isJsonObject(operation)) continue;
      if (isJsonObject(operation['x-mcp']) && operation['x-mcp'].exclude === true) continue;
      manifests.push(operationManifest(context, path, method, pathItem, operation, schemes));
    }
  }
  return manifests;
}
