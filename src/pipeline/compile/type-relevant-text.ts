// What of a module's text its type-check reads: its tokens, and whether a line break separates two (automatic
// semicolon insertion reads that), without its comments and spacing. Two texts with the same such text type-check
// alike, so a change to a tool's docs alone (its description, title, example) needs its module's JavaScript and
// declarations written again, not the package checked again. Comments that can change what the compiler reports are
// kept as text: directives (`@ts-ignore`, `@ts-expect-error`, `@ts-nocheck`), triple-slash references, and `{@link}`
// and `@see`, which make an import used. Tokens are told by the scanner alone, which cannot tell a `/` that starts a
// regular expression from a division, nor where a template literal's text resumes: a module that holds either is
// taken whole, as is one the scanner finds malformed.

import { createHash } from 'node:crypto';
import { ts } from 'ts-morph';

const MEANINGFUL_COMMENT = /@ts-|@link|@see|^\/\/\//;
const LINE_BREAK = /[\n\r\u2028\u2029]/;

/** Tokens after which the scanner alone may go wrong. */
const NEEDS_THE_PARSER = new Set<ts.SyntaxKind>([
  ts.SyntaxKind.SlashToken,
  ts.SyntaxKind.SlashEqualsToken,
  ts.SyntaxKind.NoSubstitutionTemplateLiteral,
  ts.SyntaxKind.TemplateHead,
  ts.SyntaxKind.ConflictMarkerTrivia,
  ts.SyntaxKind.Unknown,
]);

/** The module's tokens with what separates them reduced to nothing, a space or a line break; or the text as it is. */
export function typeRelevantText(text: string): string {
  let malformed = false;
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text, () => {
    malformed = true;
  });
  const parts: string[] = [];
  let gap = '';
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    if (malformed || NEEDS_THE_PARSER.has(token)) return text;
    if (token === ts.SyntaxKind.NewLineTrivia) {
      gap = '\n';
      continue;
    }
    if (token === ts.SyntaxKind.WhitespaceTrivia || token === ts.SyntaxKind.ShebangTrivia) {
      gap ||= ' ';
      continue;
    }
    if (token === ts.SyntaxKind.SingleLineCommentTrivia || token === ts.SyntaxKind.MultiLineCommentTrivia) {
      const comment = scanner.getTokenText();
      if (!MEANINGFUL_COMMENT.test(comment)) {
        // A block comment across lines separates its neighbours as a line break does.
        gap = LINE_BREAK.test(comment) ? '\n' : gap || ' ';
        continue;
      }
    }
    parts.push(gap, scanner.getTokenText());
    gap = '';
  }
  return malformed ? text : parts.join('');
}

/** A hash of typeRelevantText. */
export function typeRelevantHash(text: string): string {
  return createHash('sha256').update(typeRelevantText(text)).digest('base64url');
}
