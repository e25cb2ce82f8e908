// Which kind of API description a parsed document is, by its content alone: light enough for every source to ask,
// so that the parser and YAML (openapi-source.ts) load only for a document that is one.

import { isJsonObject } from '../../../runtime/shared/json-values.js';

/** The OpenAPI or Swagger version a parsed document declares, or null when it is not an API description. */
export function openApiVersionOf(document: unknown): { major: 2 | 3; minor: number; version: string } | null {
  if (!isJsonObject(document)) return null;
  if (typeof document.swagger === 'string' && /^2\./.test(document.swagger)) return { major: 2, minor: 0, version: document.swagger };
  const match = typeof document.openapi === 'string' ? /^3\.(\d+)/.exec(document.openapi) : null;
  return match ? { major: 3, minor: Number(match[1]), version: document.openapi as string } : null;
}
