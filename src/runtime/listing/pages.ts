// Spec pagination for the lists that grow with the catalogue (tools/list, resources/list): pages of a fixed size,
// with an opaque cursor that names where the next page starts.

import { JSON_RPC_ERRORS, ProtocolError } from '../shared/contracts.js';

/** Entries per page: the most tools a host takes at once (VS Code and OpenAI cap a tool array at 128). */
export const LIST_PAGE_SIZE = 128;

const CURSOR_PREFIX = 'page:';

export function cursorFor(offset: number): string {
  return Buffer.from(`${CURSOR_PREFIX}${offset}`, 'utf8').toString('base64url');
}

/** Where a cursor points, or null when it is not one this server issued. */
export function offsetOf(cursor: string): number | null {
  const text = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const match = /^page:(\d{1,9})$/.exec(text);
  return match === null ? null : Number(match[1]);
}

/**
 * One page of `items` from `cursor` (the first without one), and the cursor of the next page when there is one. A
 * cursor this server did not issue, or one past the end (the list shrank), is -32602 Invalid params, as MCP asks.
 */
export function pageOf<T>(
  items: readonly T[],
  cursor: string | undefined,
  method: string,
  pageSize = LIST_PAGE_SIZE,
): { page: T[]; nextCursor?: string } {
  const offset = cursor === undefined ? 0 : offsetOf(cursor);
  if (offset === null || (cursor !== undefined && offset >= items.length)) {
    throw new ProtocolError(
      JSON_RPC_ERRORS.invalidParams,
      `Invalid cursor ${JSON.stringify(cursor)}: it is not one ${method} issued, or the list has ` +
        'changed since; list again without a cursor.',
    );
  }
  const end = offset + pageSize;
  const page = items.slice(offset, end);
  return end < items.length ? { page, nextCursor: cursorFor(end) } : { page };
}
