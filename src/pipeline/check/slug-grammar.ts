// Why a slug fails the MCP tool-name grammar strict hosts enforce, in words a catalogue author can act on.
// The grammar itself is the server's (runtime/catalogue/advertise.ts), so generator and server never disagree on it.

import { TOOL_NAME_GRAMMAR } from '../../runtime/catalogue/advertise.js';

/** Null when the slug can be advertised as an MCP tool name; otherwise the reason it is withheld. */
export function withheldReason(slug: string): string | null {
  if (TOOL_NAME_GRAMMAR.test(slug)) return null;
  const length = [...slug].length;
  if (slug.length > 64) return `longer than 64 characters (${length})`;
  if (/\s/.test(slug)) return 'contains white space';
  if (slug.includes('/')) return 'contains "/"';
  // eslint-disable-next-line no-control-regex
  if (/[^\x00-\x7f]/.test(slug)) return 'contains non-ASCII characters';
  const bad = [...new Set(slug.replace(/[A-Za-z0-9_-]/g, ''))].map((c) => JSON.stringify(c)).join(' ');
  return `contains characters outside [A-Za-z0-9_-]: ${bad}`;
}

/** A string with an unpaired UTF-16 surrogate cannot be percent-encoded into a URI. */
export function hasLoneSurrogate(text: string): boolean {
  return /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
}
