// Tool-name patterns as trust-gating hosts write them: `*` any run of characters, `?` one character, the rest literal.

const compiled = new Map<string, RegExp>();

/** Whether `name` matches `pattern` as a whole (case-sensitive, as slugs are). */
export function matchesPattern(pattern: string, name: string): boolean {
  let regexp = compiled.get(pattern);
  if (regexp === undefined) {
    const body = [...pattern]
      .map((ch) => (ch === '*' ? '[\\s\\S]*' : ch === '?' ? '[\\s\\S]' : ch.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')))
      .join('');
    regexp = new RegExp(`^${body}$`, 'u');
    compiled.set(pattern, regexp);
  }
  return regexp.test(name);
}
