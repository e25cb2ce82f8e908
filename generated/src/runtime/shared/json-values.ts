// Questions asked of JSON values everywhere: is it an object (not an array, not null), and a key as a JSON pointer token.

import type { JsonObject } from './contracts.js';

/** An object as JSON has them: not null, not an array. */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One key as a JSON pointer reference token (RFC 6901: `~` as `~0`, `/` as `~1`). */
export function pointerToken(key: string): string {
  // Most keys hold neither: no copy for them (a large catalogue's walks make millions of pointers).
  return key.includes('~') || key.includes('/') ? key.replace(/~/g, '~0').replace(/\//g, '~1') : key;
}

/**
 * `target[key] = value` as an own data property, whatever the key: JSON can carry an own `__proto__` member, whose
 * assignment would set the prototype instead, so that one key is defined. Every other key is assigned, which costs
 * several times less than defining it on a large schema.
 */
export function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
