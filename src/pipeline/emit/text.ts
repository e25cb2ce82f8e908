// Formatting of catalogue text for the places it may appear in generated files: comments and markdown.
// Catalogue text never reaches generated code except through JSON.stringify or these escapes.

/** Text safe inside a `/* … *\/` block comment, one logical line per source line. */
export function commentText(text: string): string {
  return (
    text
      .replace(/\r\n?|[\u2028\u2029\u0085]/g, '\n')
      .replace(/\*\//g, '*\\/')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  );
}

/** A JSDoc block for `text`, indented by `indent`. */
export function docComment(text: string, indent = ''): string {
  const lines = commentText(text).split('\n');
  return [`${indent}/**`, ...lines.map((line) => `${indent} * ${line}`.trimEnd()), `${indent} */`].join('\n');
}

/** Text safe inside a markdown table cell: one line, pipes escaped. */
export function markdownCell(text: string): string {
  return text
    .replace(/\r\n?|[\n\u2028\u2029\u0085]/g, ' ')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/</g, '&lt;')
    .trim();
}

/** The first sentence (or line) of a description, for summaries. */
export function firstSentence(text: string, max = 160): string {
  const line = text.split(/\r\n?|\n|[\u2028\u2029]/)[0]?.trim() ?? '';
  const sentence = /^(.+?[.!?])(\s|$)/.exec(line)?.[1] ?? line;
  return sentence.length > max ? `${sentence.slice(0, max - 1)}…` : sentence;
}

/**
 * `text` with its trailing LFs replaced by exactly one. A loop from the end: a regex anchored at `$` would try every
 * position of a large file (data/catalogue.json) before failing at each.
 */
export function endingInOneNewline(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 10) end -= 1;
  // Most files already end in one LF: return them as they are rather than copy a large one.
  return end === text.length - 1 ? text : `${text.slice(0, end)}\n`;
}
