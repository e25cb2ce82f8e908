// What every dev script needs to run as a command: whether it is the script node started, and an error's text.

import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * True when this module's file is the script node was started with (so importing it has no side effects). argv[1]
 * is the path as typed, while a module knows its real path: the entry is resolved as node resolved it (`.js` added
 * to `dist/runtime/dev/catalogue-check`, symlinked folders such as a package linked into node_modules or macOS's
 * /tmp followed), or such a start would do nothing and exit 0.
 */
export function isEntryPoint(moduleUrl: string): boolean {
  const entry = process.argv[1];
  if (entry === undefined) return false;
  try {
    return realpathSync(createRequire(moduleUrl).resolve(entry)) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}
