// What a tool converted from an OpenAPI operation carries so the server can call it: the `x-nexusbloom-operation` field.

import type { Manifest } from '../shared/contracts.js';
import { isJsonObject } from '../shared/json-values.js';

export const OPERATION_FIELD = 'x-nexusbloom-operation';

export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';

/** One declared parameter: the argument key that holds it and how it is serialized (OpenAPI `style`/`explode`). */
export interface OperationParameter {
  /** Top-level key of the tool's arguments (the parameter's name, or `<in>_<name>` when two locations share it). */
  key: string;
  name: string;
  in: ParameterLocation;
  style: string;
  explode: boolean;
  allowReserved?: boolean;
}

/** A security scheme as the document declares it, reduced to what a call needs. */
export type SecurityScheme =
  | { type: 'apiKey'; in: 'header' | 'query' | 'cookie'; name: string }
  | { type: 'http'; scheme: string }
  | { type: 'oauth2'; tokenUrl: string | null; scopes: string[] }
  | { type: 'unsupported'; declared: string };

export interface OperationCall {
  method: string;
  /** The path template as declared, e.g. `/pets/{petId}`. */
  path: string;
  parameters: OperationParameter[];
  /** The request body: under the argument key `body`, sent with `contentType`; null when the operation takes none. */
  body: { key: string; contentType: string; required: boolean } | null;
  /** Base URLs (server variables filled with their defaults); the first is used unless `<prefix>API_URL` is set. */
  servers: string[];
  /** Alternatives (any one suffices), each a list of scheme names that must all be sent; [] means no auth. */
  security: string[][];
  /** The schemes the alternatives name, by name. */
  securitySchemes: Record<string, SecurityScheme>;
}

/** The operation a manifest carries, or null for a NexusBloom tool (run through `POST /tools/{slug}/run`). */
export function operationOf(manifest: Manifest): OperationCall | null {
  const field = manifest[OPERATION_FIELD];
  if (!isJsonObject(field) || typeof field.method !== 'string' || typeof field.path !== 'string' || !Array.isArray(field.parameters))
    return null;
  return field as unknown as OperationCall;
}
