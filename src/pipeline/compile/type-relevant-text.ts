// What of a module's text its type-check reads: its tokens, and whether a line break separates two (automatic
// semicolon insertion reads that), without its comments and spacing. Two texts with the same such text type-check
// alike, so a change to a tool's docs alone (its description, title, example) needs its module's JavaScript and
// declarations written again, not the package checked again. Comments that can change what the compiler reports are
// kept as text: directives (`@ts-ignore`, `@ts-expect-error`, `@ts-nocheck`), triple-slash references, and `{@link}`
// and `@see`, which make an import used.
//
// The text is read as TypeScript's scanner reads it (a test holds the two to the same result) but by a single pass over
// the characters: the compile stage reads every module of a package, and the scanner takes six times as long. Only
// strings, comments and spacing are told apart; anything else is code and kept as it stands. A `/` that starts no
// comment (a division, or a regular expression, which only the parser can tell apart) and a template literal (where
// its text resumes, only the parser knows) make the module count whole, as do a shebang and a string or comment left
// open.

import { createHash } from 'node:crypto';

const MEANINGFUL_COMMENT = /@ts-|@link|@see|^\/\/\//;
const LINE_BREAK = /[\n\r\u2028\u2029]/;

const isSpace = (code: number): boolean => code === 0x20 || code === 0x09 || code === 0x0b || code === 0x0c;
const isLineBreak = (code: number): boolean => code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029;

/** Where the line comment starting at `at` ends: its line's break, or the text's end. */
function lineCommentEnd(text: string, at: number): number {
  let end = at;
  while (end < text.length && !isLineBreak(text.charCodeAt(end))) end += 1;
  return end;
}

/** Where the string literal starting at `at` ends (past its closing quote), or -1 when it is left open. */
function stringEnd(text: string, at: number): number {
  const quote = text.charCodeAt(at);
  let end = at + 1;
  while (end < text.length) {
    const code = text.charCodeAt(end);
    if (code === quote) return end + 1;
    if (code === 0x5c) end += 2;
    else if (code === 0x0a || code === 0x0d) return -1;
    else end += 1;
  }
  return -1;
}

/** The module's code with what separates its tokens reduced to nothing, a space or a line break; or the text as it is. */
export function typeRelevantText(text: string): string {
  if (text.startsWith('#!')) return text;
  const parts: string[] = [];
  let gap = '';
  // The code from `copied` up to `at` is kept as it stands.
  let copied = 0;
  let at = 0;
  const keep = (): void => {
    if (at === copied) return;
    parts.push(gap, text.slice(copied, at));
    gap = '';
  };
  /** Trivia from `at` to `end`: dropped, leaving a line break where it held one and a space otherwise. */
  const separate = (end: number, lineBreak: boolean): void => {
    keep();
    gap = lineBreak ? '\n' : gap || ' ';
    at = copied = end;
  };
  while (at < text.length) {
    const code = text.charCodeAt(at);
    if (isSpace(code)) {
      let end = at + 1;
      while (end < text.length && isSpace(text.charCodeAt(end))) end += 1;
      separate(end, false);
    } else if (isLineBreak(code)) {
      separate(at + 1, true);
    } else if (code === 0x22 || code === 0x27) {
      const end = stringEnd(text, at);
      if (end < 0) return text;
      at = end;
    } else if (code === 0x2f) {
      const next = text.charCodeAt(at + 1);
      let end: number;
      if (next === 0x2f) end = lineCommentEnd(text, at);
      else if (next === 0x2a) {
        const close = text.indexOf('*/', at + 2);
        if (close < 0) return text;
        end = close + 2;
      } else return text;
      const comment = text.slice(at, end);
      if (MEANINGFUL_COMMENT.test(comment)) at = end;
      else separate(end, next === 0x2a && LINE_BREAK.test(comment));
    } else if (code === 0x60) {
      return text;
    } else {
      at += 1;
    }
  }
  keep();
  return parts.join('');
}

/** A hash of typeRelevantText. */
export function typeRelevantHash(text: string): string {
  return createHash('sha256').update(typeRelevantText(text)).digest('base64url');
}
