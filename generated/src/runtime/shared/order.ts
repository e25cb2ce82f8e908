// The one order for strings wherever output must not depend on locale or input order: by UTF-16 code unit.

/** `a` before `b` by code unit (as `<` compares strings), never by locale: for `sort`, as in the determinism rules. */
export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
