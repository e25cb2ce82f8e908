// Makes run payloads safe and bounded before they are kept in history (credential masking, depth cap, size cap), and
// URLs safe to show (credentials in the userinfo masked).

/** Substrings that mark a key as holding a credential (matched case-insensitively). */
export const SECRET_KEY_PARTS: readonly string[] = [
  'key', 'secret', 'token', 'password', 'auth', 'cookie', 'session', 'passwd', 'passphrase', 'credential',
];
/** Constant mask: the length of the original value is deliberately not preserved. */
export const REDACTED_MASK = '[redacted]';
export const DEEP_MASK = '[deep]';
/** Levels of nesting walked; a value nested deeper is replaced rather than inspected. */
export const MAX_REDACTION_DEPTH = 6;
/** Characters of a payload's JSON kept in history. */
export const MAX_PAYLOAD_CHARS = 8000;

export function isSecretKey(key: string): boolean {
  const lower = key.toLowerCase();
  return SECRET_KEY_PARTS.some((part) => lower.includes(part));
}

export interface RedactedValue {
  value: unknown;
  /** JSON pointers of masked values (secret keys and values beyond the depth cap). */
  masked: string[];
  /** What `fingerprint` made of each masked value, by pointer; empty without a `fingerprint`. */
  fingerprints: Record<string, string>;
}

function pointerToken(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Copies `value` with every secret-named key masked. The top-level object's own members are level 1; members
 * at level 7 or deeper become "[deep]". The caller's value is never mutated. `fingerprint`, when given, is applied
 * to each masked value before it is dropped (a keyed digest lets a diff see that a secret changed without keeping it).
 */
export function redactSecrets(value: unknown, fingerprint?: (original: unknown) => string): RedactedValue {
  const masked: string[] = [];
  const fingerprints: Record<string, string> = {};
  const mask = (original: unknown, pointer: string, replacement: string): string => {
    masked.push(pointer);
    if (fingerprint !== undefined) fingerprints[pointer] = fingerprint(original);
    return replacement;
  };
  const walk = (node: unknown, level: number, pointer: string): unknown => {
    if (node === null || typeof node !== 'object') return node;
    const childLevel = level + 1;
    if (Array.isArray(node)) {
      return node.map((item, index) => {
        const childPointer = `${pointer}/${index}`;
        if (childLevel > MAX_REDACTION_DEPTH) return mask(item, childPointer, DEEP_MASK);
        return walk(item, childLevel, childPointer);
      });
    }
    const copy: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node as Record<string, unknown>)) {
      const childPointer = `${pointer}/${pointerToken(key)}`;
      const value = childLevel > MAX_REDACTION_DEPTH ? mask(child, childPointer, DEEP_MASK)
        : isSecretKey(key) ? mask(child, childPointer, REDACTED_MASK)
          : walk(child, childLevel, childPointer);
      // Defined, not assigned: JSON input can carry an own "__proto__" member, which assignment would turn into the
      // copy's prototype, dropping it from what history shows and diffs.
      Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
    }
    return copy;
  };
  return { value: walk(value, 0, ''), masked, fingerprints };
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

/** What replaces the userinfo (`user:password@`) of a URL that is shown. */
export const URL_USERINFO_MASK = '***';

/**
 * `text` with the userinfo of a URL-like value masked, username included (a token often sits there). Works on text that
 * does not parse as a URL too (a value missing its scheme is exactly the one a message has to show).
 */
export function redactUrlCredentials(text: string): string {
  return text.replace(/^(\s*(?:[A-Za-z][A-Za-z0-9+.-]*:)?\/\/|\s*)[^/?#\s]*@/, `$1${URL_USERINFO_MASK}@`);
}
