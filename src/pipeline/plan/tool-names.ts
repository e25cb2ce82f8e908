// Valid MCP tool names for slugs outside the tool-name grammar (opt-in `toolNames: "sanitize"`): `issues/create` →
// `issues_create`, at most 64 characters, a hash of the slug added where two would share one.

import { slugHash } from './naming.js';

export const MAX_TOOL_NAME = 64;

/** The slug with every run of characters outside [A-Za-z0-9_-] as one `_` (accents dropped first), trimmed to 64. */
export function sanitizedToolName(slug: string): string {
  const plain = slug
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (plain === '') return `tool_${slugHash(slug)}`;
  return plain.length <= MAX_TOOL_NAME ? plain : withToolNameHash(plain, slug);
}

/** `name` told apart by a hash of the slug it stands for, still within 64 characters. */
export function withToolNameHash(name: string, slug: string): string {
  const suffix = `_${slugHash(slug)}`;
  return `${name.slice(0, MAX_TOOL_NAME - suffix.length).replace(/_+$/, '')}${suffix}`;
}
