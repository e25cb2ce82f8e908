// Every name the generated package derives from a slug: TypeScript identifiers, type names and file names.
// Names come from the slug's words; a slug that would share a name with another gets a suffix from a hash of
// the slug itself, so names never depend on the order tools arrive in.

import { createHash } from 'node:crypto';

const RESERVED_IDENTIFIERS = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for ' +
    'function if import in instanceof new null return super switch this throw true try typeof var void while with ' +
    'as implements interface let package private protected public static yield any boolean constructor declare get ' +
    'module require number set string symbol type from of async await undefined arguments eval prototype ' +
    'names sdk server client tools index runtime ' +
    // Exported by the tools index beside the wrappers.
    'createClient ' +
    // A module that exports `then` is a thenable: `await import()` of the tools index would call it.
    'then'
  ).split(' '),
);

/** Whether `identifier` cannot name a tool's export (a keyword, a name the package uses, or `then`). */
export function isReservedIdentifier(identifier: string): boolean {
  return RESERVED_IDENTIFIERS.has(identifier);
}

// File names that are taken by the package's own modules.
const RESERVED_FILE_NAMES = new Set(['index', 'tool']);

/**
 * Windows device names, which no file may be called whatever its extension (`nul.ts`, `COM¹.d.ts`): CON, PRN, AUX,
 * NUL, COM0-9 and LPT0-9, the superscript digits ¹²³ included, in any case.
 */
const WINDOWS_DEVICE_NAME = /^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3])(\.|$)/i;

export function isWindowsDeviceName(fileName: string): boolean {
  return WINDOWS_DEVICE_NAME.test(fileName);
}

/**
 * Longest file name stem from a slug. File systems allow 255 bytes per name, and the package adds `.d.ts`, `.js.map`
 * and a hash suffix in a collision: a longer stem is cut and given a hash of the whole slug, so it stays unique.
 */
export const MAX_FILE_STEM = 80;

/** The ASCII words of a slug: `Env Validator/v2` → `env`, `validator`, `v2`; camelCase is split too. */
export function slugWords(slug: string): string[] {
  return slug
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

export function slugHash(slug: string): string {
  return createHash('sha256').update(slug, 'utf8').digest('hex').slice(0, 6);
}

const capitalize = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

export interface BaseNames {
  identifier: string;
  typeName: string;
  fileName: string;
}

/** Names from the slug's words alone, before collisions are considered. */
export function baseNames(slug: string): BaseNames {
  const words = slugWords(slug).slice(0, 12);
  if (words.length === 0) words.push('tool', slugHash(slug));
  const camel = words.map((w, i) => (i === 0 ? w : capitalize(w))).join('');
  const identifier = /^[0-9]/.test(camel) ? `tool${capitalize(camel)}` : isReservedIdentifier(camel) ? `${camel}Tool` : camel;
  const fileBase = boundedStem(words.join('-'), slug);
  const fileName =
    /^[0-9]/.test(fileBase) || RESERVED_FILE_NAMES.has(fileBase) || isWindowsDeviceName(fileBase) ? `tool-${fileBase}` : fileBase;
  return { identifier: boundedIdentifier(identifier, slug), typeName: typeNameOf(boundedIdentifier(identifier, slug)), fileName };
}

/** `stem` when it is short enough, else its first part and a hash of the slug. */
function boundedStem(stem: string, slug: string): string {
  return stem.length <= MAX_FILE_STEM ? stem : `${stem.slice(0, MAX_FILE_STEM - 7).replace(/-+$/, '')}-${slugHash(slug)}`;
}

/** Identifiers are bounded alike, so that a type name in a message or a declaration stays readable. */
function boundedIdentifier(identifier: string, slug: string): string {
  return identifier.length <= MAX_FILE_STEM ? identifier : `${identifier.slice(0, MAX_FILE_STEM - 7)}_${slugHash(slug)}`;
}

/**
 * The PascalCase type name for an identifier, spelled so json-schema-to-typescript keeps it as given (it drops
 * underscores and upper-cases a letter after a digit when it names a type).
 */
export function typeNameOf(identifier: string): string {
  return capitalize(
    identifier
      .replace(/_+([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase())
      .replace(/(\d)([a-z])/g, (_, d: string, c: string) => d + c.toUpperCase()),
  );
}

/** The slug as its own base names would write it back: such a slug keeps the plain name in a collision. */
export function isCanonicalSpelling(slug: string): boolean {
  return slugWords(slug).join('-') === slug;
}

export function withHashSuffix(names: BaseNames, slug: string): BaseNames {
  const hash = slugHash(slug);
  const identifier = `${names.identifier}_${hash}`;
  return { identifier, typeName: typeNameOf(identifier), fileName: `${names.fileName}-${hash}` };
}
