// The regular expression engine ajv runs `pattern` and `patternProperties` with: a catalogue's pattern is data, so it
// must never take super-linear time (`^(a+)+$` against "aaaa…!" would freeze the process under a backtracking engine).

import { RE2JS } from 're2js';

/** What ajv asks of a compiled pattern. */
export interface LinearPattern {
  test(text: string): boolean;
  toString(): string;
}

/** A pattern the linear-time engine cannot run: it needs backtracking (a backreference, a lookaround) or is malformed. */
export class UnsupportedPatternError extends Error {
  constructor(readonly pattern: string, readonly reason: string) {
    super(`pattern ${JSON.stringify(pattern)} cannot be matched in linear time: ${reason}`);
    this.name = 'UnsupportedPatternError';
  }
}

/**
 * Compiles `pattern` (ECMA-262 syntax, as JSON Schema writes it) for ajv. Every pattern must be one RE2 can take, so a
 * catalogue is accepted or refused the same way whichever engine runs it. A pattern whose backtracking is provably
 * linear (see isProvablyLinear) is then run by the native engine, which is about ten times faster per test; any other
 * is run by re2js, whose time is linear in the input whatever the pattern.
 */
export function linearRegExp(pattern: string, flags: string): LinearPattern {
  let re2: RE2JS;
  try {
    re2 = RE2JS.compile(RE2JS.translateRegExp(pattern));
  } catch (error) {
    throw new UnsupportedPatternError(pattern, re2Reason(error));
  }
  const key = `/${pattern}/${flags}`;
  if (isProvablyLinear(pattern)) {
    const native = new RegExp(pattern, flags);
    return { test: (text) => native.test(text), toString: () => `native:${key}` };
  }
  return { test: (text) => re2.test(text), toString: () => `re2:${key}` };
}
// ajv writes this into standalone code only, which the package never generates; it must differ from "new RegExp".
linearRegExp.code = 'linearRegExp';

function re2Reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/\\[1-9]|\\k/.test(message)) return `a backreference (${message}); RE2 syntax has none`;
  if (/\(\?[=!<]/.test(message)) return `a lookahead or lookbehind (${message}); RE2 syntax has none`;
  return message;
}

/**
 * Whether a backtracking engine runs `pattern` in time linear in the input: it is anchored at the start (one starting
 * position), has no group, alternation or backreference, and at most one quantifier with a choice in it (`*`, `+`, `?`,
 * `{n,}`, `{n,m}`; `{n}` has none), so a failing match backtracks through at most one run. `^[a-z0-9-]+$`,
 * `^\d{4}-\d{2}-\d{2}$` and `^https?://` qualify; anything the scan does not recognise does not.
 */
export function isProvablyLinear(pattern: string): boolean {
  if (!pattern.startsWith('^')) return false;
  let choices = 0;
  let index = 1;
  while (index < pattern.length) {
    const char = pattern[index] as string;
    if (char === '(' || char === ')' || char === '|' || char === '^') return false;
    if (char === '\\') {
      const next = pattern[index + 1];
      // \1…\9 and \k<name> are backreferences; \c, \u{…} and the like are left to RE2.
      if (next === undefined || !/[dDwWsStnrfv.\\/^$*+?()[\]{}|-]/.test(next)) return false;
      index += 2;
    } else if (char === '[') {
      const end = classEnd(pattern, index);
      if (end === -1) return false;
      index = end + 1;
    } else if (char === '*' || char === '+' || char === '?') {
      choices += 1;
      index += 1;
      if (pattern[index] === '?') index += 1;
      continue;
    } else if (char === '{') {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(index));
      if (match === null) return false;
      if (match[2] !== undefined) choices += 1;
      index += match[0].length;
      if (pattern[index] === '?') index += 1;
      continue;
    } else {
      index += 1;
    }
    if (choices > 1) return false;
  }
  return choices <= 1;
}

/** The index of the `]` closing the class opened at `start`, or -1 when the scan cannot tell. */
function classEnd(pattern: string, start: number): number {
  let index = start + 1;
  if (pattern[index] === '^') index += 1;
  if (pattern[index] === ']') index += 1;
  while (index < pattern.length) {
    const char = pattern[index];
    if (char === '\\') index += 2;
    else if (char === '[') return -1;
    else if (char === ']') return index;
    else index += 1;
  }
  return -1;
}
