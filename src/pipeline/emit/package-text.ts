// A package file's text: a string, or, for the large data files, the text put out a part at a time as it is written.
// A 3,000-tool catalogue's data/catalogue.json is 28 MB and its tools/list and search index 14 MB more: made whole at
// emit, they would sit in memory beside the token budget's tables, the build's peak; put out a part at a time, the
// parts are made while the file is written and die young, and the whole text is never one string.

/**
 * A file's text, or a function that puts it out a part at a time, in order (it may be called more than once). A
 * function made by lazyJoinedText with item keys also carries its `segments`: the write stage can then take an item
 * that did not change from the file already on disk instead of making its text again (write/segment-reuse.ts).
 */
export type PackageText = string | PutText;

export type PutText = ((put: (part: string) => void) => void) & { readonly segments?: Segments };

/**
 * A text made of `head`, one item per value with `separator` between them, and `tail`. `keyOf` says what an item's
 * text depends on: two values with one key give one text, so a file written before holds that text already.
 */
export interface Segments<T = unknown> {
  head: string;
  values: readonly T[];
  keyOf(value: T): string;
  itemOf(value: T): string;
  separator: string;
  tail: string;
}

/** The segments a text was made of, when it says (lazyJoinedText with keys); else undefined. */
export function segmentsOf(text: PackageText): Segments | undefined {
  return typeof text === 'string' ? undefined : text.segments;
}

/**
 * `head`, the items with `separator` between them, then `tail`, as one flat string made by one join. Concatenating
 * the joined items with a head and a tail instead gives a string V8 must copy whole to read its last character or to
 * write it, leaving the parts behind as garbage: some tens of MB for a large catalogue's data files.
 */
export function joinedText(head: string, items: readonly string[], separator: string, tail: string): string {
  const parts: string[] = [head];
  items.forEach((item, index) => {
    if (index > 0) parts.push(separator);
    parts.push(item);
  });
  parts.push(tail);
  return parts.join('');
}

/**
 * The text of `head`, what `itemOf` makes of each value with `separator` between them, and `tail`, made as it is put
 * out: each item when its turn comes. `tail` ends the file, so it ends in exactly one LF, as every package file does.
 * With `keyOf` (what an item's text depends on, as a cache key) the text carries its segments (see PutText).
 */
export function lazyJoinedText<T>(
  head: string,
  values: readonly T[],
  itemOf: (value: T) => string,
  separator: string,
  tail: string,
  keyOf?: (value: T) => string,
): PackageText {
  if (!tail.endsWith('\n') || tail.endsWith('\n\n')) throw new Error('a package file ends in exactly one LF: so must its tail');
  const text = (put: (part: string) => void): void => {
    put(head);
    values.forEach((value, index) => {
      if (index > 0) put(separator);
      put(itemOf(value));
    });
    put(tail);
  };
  if (keyOf === undefined) return text;
  const segments: Segments<T> = { head, values, keyOf, itemOf, separator, tail };
  return Object.assign(text, { segments });
}

/** Parts joined into one flat string per this many, before the one join of them all (see wholeText). */
const JOIN_CHUNK = 64;

/**
 * The text as one string, joined a few dozen parts at a time as they are put out: each part then dies young, where
 * holding every part until one join promotes them all (a 3,000-tool data/catalogue.json then takes some 85 MB of heap
 * to make instead of 170).
 */
export function wholeText(text: PackageText): string {
  if (typeof text === 'string') return text;
  const chunks: string[] = [];
  let pending: string[] = [];
  text((part) => {
    pending.push(part);
    if (pending.length === JOIN_CHUNK) {
      chunks.push(pending.join(''));
      pending = [];
    }
  });
  chunks.push(pending.join(''));
  return chunks.join('');
}

/**
 * The text, as wholeText makes it, unless it is exactly `current` (what a file holds, or null for none): then null.
 * One pass compares and makes it: the parts that match the start of `current` are not kept (that start is `current`'s
 * own), so a file that did not change is never made one string, and one that did is put out only once.
 */
export function changedText(current: string | null, text: PackageText): string | null {
  if (typeof text === 'string') return text === current ? null : text;
  if (current === null) return wholeText(text);
  let at = 0;
  let differs = false;
  const chunks: string[] = [];
  let pending: string[] = [];
  text((part) => {
    if (!differs) {
      if (current.startsWith(part, at)) {
        at += part.length;
        return;
      }
      differs = true;
      pending.push(current.slice(0, at));
    }
    pending.push(part);
    if (pending.length === JOIN_CHUNK) {
      chunks.push(pending.join(''));
      pending = [];
    }
  });
  if (!differs) return at === current.length ? null : current.slice(0, at);
  chunks.push(pending.join(''));
  return chunks.join('');
}

/** Thrown to stop putting out a text whose part already differs. */
const DIFFERS = Symbol('differs');

/** Whether `text` is exactly `current`, part by part, without making it one string. */
export function isSameText(current: string, text: PackageText): boolean {
  if (typeof text === 'string') return current === text;
  let at = 0;
  try {
    text((part) => {
      if (!current.startsWith(part, at)) throw DIFFERS;
      at += part.length;
    });
  } catch (error) {
    if (error === DIFFERS) return false;
    throw error;
  }
  return at === current.length;
}
