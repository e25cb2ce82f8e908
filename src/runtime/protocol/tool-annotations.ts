// MCP tool annotations as the spec types them (ToolAnnotations, 2025-11-25): the only keys and value types a tools/list
// entry carries, so no manifest can make the whole list unparseable for a client that checks it (as the SDK's does).

import type { ToolAnnotations } from '../shared/contracts.js';

/** Every annotation MCP defines, with the JSON type its value must have. */
export const ANNOTATION_TYPES: Readonly<Record<string, 'string' | 'boolean'>> = {
  title: 'string',
  readOnlyHint: 'boolean',
  destructiveHint: 'boolean',
  idempotentHint: 'boolean',
  openWorldHint: 'boolean',
};

/** The annotations a client may be shown: known keys with values of their type, in the order written; undefined for none. */
export function specAnnotations(annotations: unknown): ToolAnnotations | undefined {
  if (annotations === null || typeof annotations !== 'object' || Array.isArray(annotations)) return undefined;
  const kept = Object.entries(annotations).filter(
    ([key, value]) => Object.hasOwn(ANNOTATION_TYPES, key) && typeof value === ANNOTATION_TYPES[key],
  );
  return kept.length === 0 ? undefined : (Object.fromEntries(kept) as ToolAnnotations);
}
