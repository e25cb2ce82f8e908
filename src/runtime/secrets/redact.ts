// Makes run payloads safe and bounded before they are kept in history (credential masking by key name and by value
// shape, depth cap, size cap), and URLs safe to show (credentials in the userinfo masked).

import { isSecretName, maskSecretsInText, SECRET_NAME_WORDS, URL_USERINFO_MASK } from './classifier.js';
import { defineOwn, pointerToken } from '../shared/json-values.js';

export { isSecretName, maskSecretsInText, URL_USERINFO_MASK } from './classifier.js';

/** The words that mark a key as holding a credential (matched against the key's own words; see secrets/classifier.ts). */
export const SECRET_KEY_PARTS: readonly string[] = SECRET_NAME_WORDS;
/** Constant mask: the length of the original value is deliberately not preserved. */
export const REDACTED_MASK = '[redacted]';
export const DEEP_MASK = '[deep]';
/** Levels of nesting walked; a value nested deeper is replaced rather than inspected. */
export const MAX_REDACTION_DEPTH = 6;
/** Characters of a payload's JSON kept in history. */
export const MAX_PAYLOAD_CHARS = 8000;

export function isSecretKey(key: string): boolean {
  return isSecretName(key);
}

export interface RedactedValue {
  value: unknown;
  /**
   * JSON pointers of masked values: secret-named keys, the `value` of a secret-named header entry, strings that held a
   * secret by shape (masked in place) and values beyond the depth cap.
   */
  masked: string[];
}

/** Members that name the header (or field) an entry of a header list is for: `[{name: "Authorization", value: …}]`. */
const ENTRY_NAME_MEMBERS = ['name', 'Name', 'key', 'Key', 'header', 'Header', 'field'];
const ENTRY_VALUE_MEMBERS = new Set(['value', 'Value', 'values']);

/** `{name: "Authorization", value: …}`: an entry whose name member is a secret name and which has a value member. */
function isSecretEntry(node: Record<string, unknown>): boolean {
  return ENTRY_NAME_MEMBERS.some((member) => {
    const name = node[member];
    return typeof name === 'string' && isSecretName(name);
  });
}

/**
 * Copies `value` with every secret masked: members whose key is a secret name, the value of a header-list entry that
 * names one (`{name: "Authorization", value}`, `["Cookie", value]`), and secrets inside strings by their shape (URL
 * userinfo, `Password=…`, bearer tokens; see maskSecretsInText). The top-level object's own members are level 1;
 * members at level 7 or deeper become "[deep]". The caller's value is never mutated; parts with nothing to mask are
 * shared with it rather than copied.
 */
export function redactSecrets(value: unknown): RedactedValue {
  const masked: string[] = [];
  // The keys from the root to the node being walked; a pointer is spelled only for what is masked.
  const path: string[] = [];
  const pointerHere = (): string => path.map((key) => `/${pointerToken(key)}`).join('');
  const mask = (replacement: string): string => {
    masked.push(pointerHere());
    return replacement;
  };
  // A node with nothing to mask is returned as it is (not copied): most results hold no secret, and copying each one
  // would make every recorded run pay for the few that do.
  const walk = (node: unknown, level: number): unknown => {
    if (typeof node === 'string') {
      const shown = maskSecretsInText(node);
      if (shown !== node) masked.push(pointerHere());
      return shown;
    }
    if (node === null || typeof node !== 'object') return node;
    const childLevel = level + 1;
    if (Array.isArray(node)) {
      // `["Authorization", "Bearer …"]`: a name/value pair as some clients list headers.
      const secretPair = node.length === 2 && typeof node[0] === 'string' && isSecretName(node[0]);
      let copy: unknown[] | undefined;
      for (let index = 0; index < node.length; index += 1) {
        const item: unknown = node[index];
        path.push(String(index));
        const value =
          childLevel > MAX_REDACTION_DEPTH ? mask(DEEP_MASK) : secretPair && index === 1 ? mask(REDACTED_MASK) : walk(item, childLevel);
        path.pop();
        if (value !== item && copy === undefined) copy = node.slice(0, index);
        copy?.push(value);
      }
      return copy ?? node;
    }
    const record = node as Record<string, unknown>;
    const secretEntry = isSecretEntry(record);
    const keys = Object.keys(record);
    let copy: Record<string, unknown> | undefined;
    for (let index = 0; index < keys.length; index += 1) {
      const key = keys[index] as string;
      const child = record[key];
      path.push(key);
      const value =
        childLevel > MAX_REDACTION_DEPTH
          ? mask(DEEP_MASK)
          : isSecretName(key) || (secretEntry && ENTRY_VALUE_MEMBERS.has(key))
            ? mask(REDACTED_MASK)
            : walk(child, childLevel);
      path.pop();
      if (value !== child && copy === undefined) {
        copy = {};
        for (const earlier of keys.slice(0, index)) defineOwn(copy, earlier, record[earlier]);
      }
      if (copy !== undefined) defineOwn(copy, key, value);
    }
    return copy ?? node;
  };
  return { value: walk(value, 0), masked };
}

/** A payload as history stores it. */
export interface StoredPayload {
  /** The value itself, or (when truncated) the first MAX_PAYLOAD_CHARS characters of its JSON as a string. */
  value: unknown;
  truncated: boolean;
  /** Length of the full JSON text before truncation. */
  chars: number;
}

export function capPayload(value: unknown): StoredPayload {
  const json = safeStringify(value);
  if (json.length <= MAX_PAYLOAD_CHARS) return { value: JSON.parse(json) as unknown, truncated: false, chars: json.length };
  return { value: json.slice(0, MAX_PAYLOAD_CHARS), truncated: true, chars: json.length };
}

/** JSON text of any value; undefined, cycles and BigInts degrade to something printable instead of throwing. */
export function safeStringify(value: unknown, indent?: number): string {
  try {
    return JSON.stringify(value, null, indent) ?? 'null';
  } catch {
    // Only cycles and BigInts get here; the fallback marks every repeated object, which is fine for a cycle.
    const seen = new WeakSet<object>();
    try {
      const text = JSON.stringify(
        value,
        (_key, item: unknown) => {
          if (typeof item === 'bigint') return item.toString();
          if (item !== null && typeof item === 'object') {
            if (seen.has(item)) return '[circular]';
            seen.add(item);
          }
          return item;
        },
        indent,
      );
      return text ?? 'null';
    } catch {
      return JSON.stringify(String(value));
    }
  }
}

/**
 * `text` with the userinfo of a URL-like value masked, username included (a token often sits there). Works on text that
 * does not parse as a URL too (a value missing its scheme is exactly the one a message has to show).
 */
export function redactUrlCredentials(text: string): string {
  return maskSecretsInText(text.replace(/^(\s*(?:[A-Za-z][A-Za-z0-9+.-]*:)?\/\/|\s*)[^/?#\s]*@/, `$1${URL_USERINFO_MASK}@`));
}
