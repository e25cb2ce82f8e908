// Short forms of catalogue text for listings: a description's first line, cut to a length.

/** The first line of `text` (ended by CR LF, LF, U+2028 or U+2029), cut to `max` characters with an ellipsis. */
export function firstLine(text: string, max: number): string {
  const line = text.split(/\r?\n|\u2028|\u2029/)[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
