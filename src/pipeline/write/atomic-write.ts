// Files written whole or not at all: text goes out in pieces to a temporary file beside its target, which is then
// renamed into place. Every file the generator writes (the package, its build cache, a pulled bundle) goes this way.

import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Text, bytes, or a function that puts it out a part at a time (a large file need never be one string); a part may be
 * bytes already encoded (the build cache's frames, a data file's unchanged items), written as they are.
 */
export type FileText = string | Uint8Array | ((put: (part: string | Uint8Array) => void) => void);

/** Characters encoded per write: large enough for few system calls, small beside a large catalogue's files. */
const PIECE = 1 << 20;

/** Writes `text` to `path` (replacing it) in pieces, never between the two halves of a surrogate pair. */
export function writeTextSync(path: string, text: FileText): void {
  const fd = openSync(path, 'w');
  try {
    let pending = '';
    const flush = (all: boolean): void => {
      while (pending.length >= PIECE || (all && pending.length > 0)) {
        let end = Math.min(PIECE, pending.length);
        // A high surrogate at the end of a piece would be written as U+FFFD, and so would its low half.
        if (end < pending.length && (pending.charCodeAt(end - 1) & 0xfc00) === 0xd800) end -= 1;
        writeSync(fd, pending.slice(0, end));
        pending = pending.slice(end);
      }
    };
    const put = (part: string | Uint8Array): void => {
      if (typeof part !== 'string') {
        flush(true);
        writeSync(fd, part);
        return;
      }
      pending += part;
      flush(false);
    };
    if (typeof text === 'function') text(put);
    else put(text);
    flush(true);
  } finally {
    closeSync(fd);
  }
}

/** A temporary file beside `target`: a short name, so that a long target name cannot overflow the limit there. */
export function temporaryBeside(target: string, index = 0): string {
  return join(dirname(target), `.nexusbloom-gen-${process.pid}-${index}.tmp`);
}

/** Writes `path` whole or not at all, making its folder when missing. */
export function writeFileAtomic(path: string, text: FileText): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = temporaryBeside(path);
  try {
    writeTextSync(temporary, text);
    renameSync(temporary, path);
  } finally {
    rmSync(temporary, { force: true });
  }
}
