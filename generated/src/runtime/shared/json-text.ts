// JSON text as it arrives from files and APIs.

/** `text` without a leading byte order mark, which Windows tools like to add: RFC 8259 §8.1 lets a parser skip it. */
export function withoutByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
