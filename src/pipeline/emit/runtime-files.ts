// The runtime shipped inside every generated package: `src/runtime/**/*.ts` of the generator, copied as text.

import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { byCodeUnit } from '../../runtime/shared/order.js';
import { endingInOneNewline } from './text.js';

const RUNTIME_DIR = fileURLToPath(new URL('../../../src/runtime/', import.meta.url));

let cached: ReadonlyMap<string, string> | undefined;

/** Paths relative to `src/runtime/` (POSIX separators), sorted, mapped to file text as the package holds it: LF line ends, one at the end. */
export function runtimeFiles(): ReadonlyMap<string, string> {
  if (cached) return cached;
  const entries = readdirSync(RUNTIME_DIR, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => {
      const full = `${entry.parentPath ?? entry.path}/${entry.name}`;
      const relative = full.slice(RUNTIME_DIR.length).replace(/\\/g, '/').replace(/^\/+/, '');
      return [relative, endingInOneNewline(readFileSync(full, 'utf8').replace(/\r\n?/g, '\n'))] as const;
    })
    .sort(([a], [b]) => byCodeUnit(a, b));
  cached = new Map(entries);
  return cached;
}
