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
  constructor(
    readonly pattern: string,
    readonly reason: string,
  ) {
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
  const key = `/${pattern}/${flags}`;
  const known = compiledPatterns.get(key);
  if (known !== undefined) return known;
  const compiled = compilePattern(pattern, flags, key);
  // Catalogues repeat their patterns across tools; the memo is cleared rather than grown without end.
  if (compiledPatterns.size >= MAX_REMEMBERED_PATTERNS) compiledPatterns.clear();
  compiledPatterns.set(key, compiled);
  return compiled;
}
// ajv writes this into standalone code only, which the package never generates; it must differ from "new RegExp".
linearRegExp.code = 'linearRegExp';

const MAX_REMEMBERED_PATTERNS = 1000;
const compiledPatterns = new Map<string, LinearPattern>();

function compilePattern(pattern: string, flags: string, key: string): LinearPattern {
  let re2: RE2JS;
  try {
    re2 = RE2JS.compile(RE2JS.translateRegExp(pattern));
  } catch (error) {
    throw new UnsupportedPatternError(pattern, re2Reason(error));
  }
  const native = isProvablyLinear(pattern) ? nativeRegExp(pattern, flags) : null;
  if (native !== null) return { test: (text) => native.test(text), toString: () => `native:${key}` };
  return { test: (text) => re2.test(text), toString: () => `re2:${key}` };
}

/** The native expression, or null when its syntax refuses what RE2's takes (`\-` outside a class under `u`). */
function nativeRegExp(pattern: string, flags: string): RegExp | null {
  try {
    return new RegExp(pattern, flags);
  } catch {
    return null;
  }
}

function re2Reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/\\[1-9]|\\k/.test(message)) return `a backreference (${message}); RE2 syntax has none`;
  if (/\(\?[=!<]/.test(message)) return `a lookahead or lookbehind (${message}); RE2 syntax has none`;
  return message;
}

/** A set of code points as sorted, disjoint, inclusive ranges. */
type CharSet = ReadonlyArray<readonly [number, number]>;

const MAX_CODE_POINT = 0x10ffff;
const DIGITS: CharSet = [[0x30, 0x39]];
const WORD: CharSet = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
/** ECMAScript WhiteSpace and LineTerminator, the set `\s` matches. */
const SPACE: CharSet = normalized([
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
]);
const LINE_TERMINATORS: CharSet = [
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
];

function normalized(ranges: Array<readonly [number, number]>): CharSet {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [low, high] of sorted) {
    const last = merged[merged.length - 1];
    if (last !== undefined && low <= last[1] + 1) last[1] = Math.max(last[1], high);
    else merged.push([low, high]);
  }
  return merged;
}

function complement(set: CharSet): CharSet {
  const out: Array<[number, number]> = [];
  let next = 0;
  for (const [low, high] of set) {
    if (low > next) out.push([next, low - 1]);
    next = high + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

function disjoint(a: CharSet, b: CharSet): boolean {
  return a.every(([low, high]) => b.every(([otherLow, otherHigh]) => high < otherLow || otherHigh < low));
}

/** The set an escape outside or inside a class stands for, and its length; null for any the scan does not know. */
function escapeSet(pattern: string, at: number): { set: CharSet; length: number } | null {
  const next = pattern[at + 1];
  if (next === undefined) return null;
  const classes: Record<string, CharSet> = {
    d: DIGITS,
    D: complement(DIGITS),
    w: WORD,
    W: complement(WORD),
    s: SPACE,
    S: complement(SPACE),
  };
  if (next in classes) return { set: classes[next] as CharSet, length: 2 };
  const controls: Record<string, number> = { n: 0x0a, r: 0x0d, t: 0x09, f: 0x0c, v: 0x0b };
  if (next in controls) return { set: [[controls[next] as number, controls[next] as number]], length: 2 };
  if (/[.\\/^$*+?()[\]{}|-]/.test(next)) return { set: [[next.charCodeAt(0), next.charCodeAt(0)]], length: 2 };
  const hex = /^u([0-9a-fA-F]{4})/.exec(pattern.slice(at + 1));
  if (hex !== null) return { set: [[parseInt(hex[1] as string, 16), parseInt(hex[1] as string, 16)]], length: 6 };
  return null;
}

/** A bracket class from its `[` at `start`: its set and where it ends; null for any the scan does not know. */
function classSet(pattern: string, start: number): { set: CharSet; end: number } | null {
  let index = start + 1;
  const negated = pattern[index] === '^';
  if (negated) index += 1;
  const ranges: Array<readonly [number, number]> = [];
  let first = true;
  while (index < pattern.length) {
    const char = pattern[index] as string;
    if (char === ']' && !first) {
      const set = normalized(ranges);
      return { set: negated ? complement(set) : set, end: index };
    }
    first = false;
    let item: CharSet;
    if (char === '\\') {
      const escaped = escapeSet(pattern, index);
      if (escaped === null) return null;
      item = escaped.set;
      index += escaped.length;
    } else if (char === '[') {
      return null;
    } else {
      const code = pattern.codePointAt(index) as number;
      item = [[code, code]];
      index += code > 0xffff ? 2 : 1;
    }
    // A range `a-z`: both ends single characters.
    if (
      pattern[index] === '-' &&
      pattern[index + 1] !== ']' &&
      pattern[index + 1] !== undefined &&
      item.length === 1 &&
      item[0]?.[0] === item[0]?.[1]
    ) {
      const endChar = pattern[index + 1] as string;
      if (endChar === '\\' || endChar === '[') return null;
      const endCode = pattern.codePointAt(index + 1) as number;
      const low = (item[0] as readonly [number, number])[0];
      if (endCode < low) return null;
      ranges.push([low, endCode]);
      index += endCode > 0xffff ? 3 : 2;
      continue;
    }
    ranges.push(...item);
  }
  return null;
}

interface Atom {
  set: CharSet;
  /** Whether the quantifier leaves a choice of how many (`*`, `+`, `?`, `{n,}`, `{n,m}` with m > n). */
  variable: boolean;
  /** Whether it must match at least once. */
  required: boolean;
}

/** The pattern as a sequence of quantified atoms, or null when it has anything else (alternation, quantified groups). */
function atomsOf(pattern: string): { atoms: Atom[]; anchoredEnd: boolean } | null {
  const atoms: Atom[] = [];
  let index = 1;
  let anchoredEnd = false;
  while (index < pattern.length) {
    const char = pattern[index] as string;
    let set: CharSet;
    if (char === '$' && index === pattern.length - 1) {
      anchoredEnd = true;
      index += 1;
      continue;
    }
    // A group that is not quantified only groups: `(\d+)\.(\d+)` is `\d+\.\d+` to the matcher.
    if (char === '(' || char === ')') {
      if (char === '(' && pattern.startsWith('(?', index) && !pattern.startsWith('(?:', index)) return null;
      index += char === '(' && pattern.startsWith('(?:', index) ? 3 : 1;
      if (char === ')' && /^[*+?{]/.test(pattern.slice(index))) return null;
      continue;
    }
    if (char === '|' || char === '^' || char === '$' || char === '*' || char === '+' || char === '?' || char === '{' || char === '}')
      return null;
    if (char === '\\') {
      const escaped = escapeSet(pattern, index);
      if (escaped === null) return null;
      set = escaped.set;
      index += escaped.length;
    } else if (char === '[') {
      const found = classSet(pattern, index);
      if (found === null) return null;
      set = found.set;
      index = found.end + 1;
    } else if (char === '.') {
      set = complement(LINE_TERMINATORS);
      index += 1;
    } else {
      const code = pattern.codePointAt(index) as number;
      set = [[code, code]];
      index += code > 0xffff ? 2 : 1;
    }
    let min = 1;
    let max = 1;
    const quantifier = /^(?:([*+?])|\{(\d+)(?:(,)(\d*))?\})/.exec(pattern.slice(index));
    if (quantifier !== null) {
      if (quantifier[1] !== undefined) [min, max] = quantifier[1] === '+' ? [1, Infinity] : quantifier[1] === '*' ? [0, Infinity] : [0, 1];
      else {
        min = Number(quantifier[2]);
        max = quantifier[3] === undefined ? min : quantifier[4] === '' ? Infinity : Number(quantifier[4]);
      }
      index += quantifier[0].length;
      if (pattern[index] === '?') index += 1;
    }
    atoms.push({ set, variable: max > min, required: min > 0 });
  }
  return { atoms, anchoredEnd };
}

/**
 * Whether a backtracking engine runs `pattern` in time linear in the input. It must be anchored at the start (one
 * starting position) and be a plain sequence of atoms (no alternation, no quantified group, no backreference or
 * lookaround), in which every atom with a choice of how many times it matches is followed by a required atom that
 * shares no character with it (or by the end): then only one split of the input can match, and every other is refused
 * at the next character, so backtracking costs at most one step per character. `^[a-z0-9-]+$`, `^\d{4}-\d{2}-\d{2}$`,
 * `^https?://` and `^v?(\d+)\.(\d+)\.(\d+)$` qualify; `^(a+)+$`, `^a?a?aa$` and unanchored patterns do not.
 */
export function isProvablyLinear(pattern: string): boolean {
  if (!pattern.startsWith('^')) return false;
  const parsed = atomsOf(pattern);
  if (parsed === null) return false;
  const { atoms } = parsed;
  return atoms.every((atom, index) => {
    if (!atom.variable) return true;
    const next = atoms[index + 1];
    if (next === undefined) return true;
    return next.required && disjoint(atom.set, next.set);
  });
}
