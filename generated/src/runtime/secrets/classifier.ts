// The one classifier of secrets, by name and by value shape: history redaction, shown messages and the environment of
// local runs all ask it, so a credential masked in one place is masked in all of them.

/**
 * Words that mark a name as holding a credential when one of the name's words (see `nameWords`) is exactly one of
 * them, or that word without a plural `s`. Matching whole words keeps `pass` from masking `passenger`, `pin` from
 * `pinned` and `auth` from `author`.
 */
export const SECRET_NAME_WORDS: readonly string[] = [
  'key',
  'secret',
  'token',
  'password',
  'passwd',
  'pwd',
  'pass',
  'passphrase',
  'passcode',
  'auth',
  'oauth',
  'authorization',
  'authentication',
  'cookie',
  'session',
  'credential',
  'creds',
  'jwt',
  'bearer',
  'pin',
  'otp',
  'totp',
  'hotp',
  'ssn',
  'cvv',
  'cvc',
  'signature',
  'sig',
  'dsn',
  'private',
  'pat',
  'sk',
  'webhook',
  'salt',
];

/**
 * Fragments long and specific enough to mark a name wherever they occur in it, words run together included
 * (`accesstoken`, `PGPASSWORD`, `connection_string`): matched against the name's words joined without separators.
 */
export const SECRET_NAME_FRAGMENTS: readonly string[] = [
  'secret',
  'token',
  'password',
  'passwd',
  'passphrase',
  'credential',
  'cookie',
  'apikey',
  'privatekey',
  'accesskey',
  'connectionstring',
  'authorization',
  'bearer',
  'jwt',
];

const wordSet = new Set(SECRET_NAME_WORDS);

/** A name's words: split at camelCase humps, digits runs kept with their word, and at anything not a letter or digit. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

const nameVerdicts = new Map<string, boolean>();

/** Whether a key or variable name looks like it holds a credential (`x-api-key`, `dbPass`, `SENTRY_DSN`, `GH_PAT`). */
export function isSecretName(name: string): boolean {
  const known = nameVerdicts.get(name);
  if (known !== undefined) return known;
  const words = nameWords(name);
  const joined = words.join('');
  const verdict =
    words.some((word) => wordSet.has(word) || (word.endsWith('s') && wordSet.has(word.slice(0, -1)))) ||
    SECRET_NAME_FRAGMENTS.some((fragment) => joined.includes(fragment));
  // Names come from schemas and environments, a bounded set; the cap only guards against a caller that invents them.
  if (nameVerdicts.size < 10_000) nameVerdicts.set(name, verdict);
  return verdict;
}

/** Replaces a secret found inside a value (the userinfo of a URL, the value of `Password=`, a bearer token). */
export const VALUE_MASK = '[redacted]';
/** What replaces the userinfo (`user:password@`) of a URL that is shown. */
export const URL_USERINFO_MASK = '***';

// Every quantifier that can meet a long run of the same character is bounded, so each pattern runs in linear time.
/** `scheme://userinfo@`: the userinfo, username included (a token often sits there), up to the last `@` of the authority. */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]{0,31}:\/\/)([^\s/?#@"'<>`]{1,256}(?:@[^\s/?#@"'<>`]{1,256}){0,4})@/gi;
/** `name=value` pairs of connection strings, query strings and .env lines; masked when the name is a secret one. */
const NAME_VALUE =
  /(^|[\s;,&?{("'])([A-Za-z_][A-Za-z0-9_.-]{0,63})([ \t]{0,3}=[ \t]{0,3})("[^"\n]{0,4096}"|'[^'\n]{0,4096}'|[^\s;&"'<>,]+)/g;
/** `"name": "value"` inside JSON text (a body kept as a string); masked when the name is a secret one. */
const JSON_MEMBER = /("([A-Za-z_][A-Za-z0-9_.\- ]{0,63})"[ \t]{0,3}:[ \t]{0,3})"((?:[^"\\\n]|\\.){0,4096})"/g;
/** `Name: value` header lines (`Authorization: …`, `Cookie: …`); masked when the name is a secret one. */
const HEADER_LINE = /(^|\n)([A-Za-z][A-Za-z0-9-]{0,63})([ \t]{0,3}:[ \t]{0,3})([^\r\n]{1,8192})/g;
const HEADER_START = /^[A-Za-z][A-Za-z0-9-]{0,63}[ \t]{0,3}:/;
/** Some word of a secret name appears somewhere in the text (case-insensitively); built from the two lists above. */
const SECRET_NAME_HINT = new RegExp([...SECRET_NAME_WORDS, ...SECRET_NAME_FRAGMENTS].join('|'), 'i');
/** Credentials of the HTTP `Bearer` scheme, and `Basic` ones whose base64 decodes to `user:password`. */
const AUTH_SCHEME = /\b(Bearer|Basic)([ \t]{1,3})([A-Za-z0-9\-._~+/]{8,4096}=*)/gi;
/** JSON Web Tokens and the prefixed token formats of common services (GitHub, GitLab, Stripe, Slack, AWS access keys). */
const TOKEN_SHAPES =
  /\b(?:eyJ[A-Za-z0-9_-]{4,4096}\.eyJ[A-Za-z0-9_-]{4,8192}\.[A-Za-z0-9_-]{0,4096}|gh[pousr]_[A-Za-z0-9]{20,255}|github_pat_[A-Za-z0-9_]{20,255}|glpat-[A-Za-z0-9_-]{20,255}|[rs]k_(?:live|test)_[A-Za-z0-9]{10,255}|xox[abposr]-[A-Za-z0-9-]{10,255}|AKIA[0-9A-Z]{16})\b/g;
/** A PEM private key block. */
const PRIVATE_KEY_BLOCK = /-----BEGIN ([A-Z ]{0,40})PRIVATE KEY-----[\s\S]{0,16384}?-----END \1PRIVATE KEY-----/g;

/** Prefixes of the token shapes above, for a cheap first look before the full pattern runs. */
const TOKEN_PREFIXES = /eyJ|gh[pousr]_|github_pat_|glpat-|k_(?:live|test)_|xox[abposr]-|AKIA/;

function isBasicCredential(encoded: string): boolean {
  try {
    return atob(encoded.replace(/=+$/, '')).includes(':');
  } catch {
    return false;
  }
}

/**
 * `text` with every secret found by shape masked: URL userinfo (`postgres://***@host`), secret-named `name=value` pairs
 * (`Password=[redacted];`), JSON members and header lines, bearer and basic credentials, JWTs, prefixed service tokens
 * and private keys. Text without any returns unchanged (the same string). Each pattern runs only on text that has the
 * character it needs, so ordinary text costs a few `includes`.
 */
export function maskSecretsInText(text: string): string {
  if (text.length < 8) return text;
  let shown = text;
  if (shown.includes('PRIVATE KEY-----')) shown = shown.replace(PRIVATE_KEY_BLOCK, VALUE_MASK);
  if (shown.includes('@') && shown.includes('://')) {
    shown = shown.replace(URL_USERINFO, (_match, scheme: string) => `${scheme}${URL_USERINFO_MASK}@`);
  }
  if (/earer|asic/i.test(shown)) {
    shown = shown.replace(AUTH_SCHEME, (match, scheme: string, space: string, credential: string) =>
      scheme.toLowerCase() === 'basic' && !isBasicCredential(credential) ? match : `${scheme}${space}${VALUE_MASK}`,
    );
  }
  if (TOKEN_PREFIXES.test(shown)) shown = shown.replace(TOKEN_SHAPES, VALUE_MASK);
  // The three patterns below mask only under a secret name, so text that holds none of their words is skipped.
  if (!SECRET_NAME_HINT.test(shown)) return shown;
  if (shown.includes('":')) {
    shown = shown.replace(JSON_MEMBER, (match, head: string, name: string) => (isSecretName(name) ? `${head}"${VALUE_MASK}"` : match));
  }
  if (shown.includes('=')) {
    shown = shown.replace(NAME_VALUE, (match, before: string, name: string, equals: string, value: string) =>
      isSecretName(name) && value !== VALUE_MASK ? `${before}${name}${equals}${VALUE_MASK}` : match,
    );
  }
  // One line can be a header line only from its start: an anchored look instead of a scan.
  if (shown.includes('\n') ? shown.includes(':') : HEADER_START.test(shown)) {
    shown = shown.replace(HEADER_LINE, (match, before: string, name: string, colon: string) =>
      isSecretName(name) ? `${before}${name}${colon}${VALUE_MASK}` : match,
    );
  }
  return shown;
}

/** Whether a value holds a secret by its shape alone (see maskSecretsInText). */
export function holdsSecretValue(value: string): boolean {
  return maskSecretsInText(value) !== value;
}

/**
 * Whether an environment variable carries a credential: by its name (`DB_PASSWORD`, `GH_PAT`, `SENTRY_DSN`,
 * `CONNECTION_STRING`) or by its value (`DATABASE_URL=postgres://u:pw@h`, a proxy URL with userinfo, a JWT).
 */
export function isCredentialVariable(name: string, value: string | undefined): boolean {
  return (isSecretName(name) && !SHELL_DIRECTORY_VARIABLES.has(name)) || (value !== undefined && holdsSecretValue(value));
}

/** The shell's working-directory variables: named like a password (`pwd`), holding a path. */
const SHELL_DIRECTORY_VARIABLES = new Set(['PWD', 'OLDPWD']);
