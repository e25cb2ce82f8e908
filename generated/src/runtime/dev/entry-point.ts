// What every dev script needs to run as a command: whether it is the script node started, its output, and an error's text.

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

/**
 * A writer of `text` to stdout or stderr that goes quiet when the reader has gone (`npm run catalogue-check | head`):
 * the script runs on to its real exit code and closes what it started, where an unhandled EPIPE would end it with a
 * stack trace and leave the server it spawned running.
 */
export function processOutput(stream: NodeJS.WriteStream): (text: string) => void {
  let closed = false;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    closed = true;
  });
  return (text) => {
    if (!closed) stream.write(text);
  };
}

/** Line writers for a dev script's stdout and stderr (see processOutput). */
export function processLines(): { stdout: (line: string) => void; stderr: (line: string) => void } {
  const out = processOutput(process.stdout);
  const err = processOutput(process.stderr);
  return { stdout: (line) => out(`${line}\n`), stderr: (line) => err(`${line}\n`) };
}
