// Watches a child's resident memory (Buffers and other memory outside the V8 heap included) and reports when it passes
// a cap. Reads /proc/<pid>/status, so it watches on Linux; elsewhere the heap cap alone applies.

import { readFileSync } from 'node:fs';

/** How often a running child's memory is read; a child fills memory at a few GB/s, so this bounds the overshoot. */
export const MEMORY_POLL_MS = 20;

/** The resident set of `pid` in bytes, or null when it cannot be read (process gone, not Linux). */
export function residentBytes(pid: number): number | null {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'latin1');
  } catch {
    return null;
  }
  const match = /\nVmRSS:\s+(\d+) kB/.exec(status);
  return match === null ? null : Number(match[1]) * 1024;
}

export interface MemoryWatch {
  /** The largest resident set seen so far, in bytes. */
  readonly peakBytes: number;
  stop(): void;
}

/** Calls `onExceeded` (once) when the resident set of `pid` passes `capBytes`; `stop` ends the watch. */
export function watchMemory(pid: number, capBytes: number, onExceeded: (bytes: number) => void): MemoryWatch {
  let peak = 0;
  const timer = setInterval(() => {
    const bytes = residentBytes(pid);
    if (bytes === null) return;
    if (bytes > peak) peak = bytes;
    if (bytes > capBytes) {
      clearInterval(timer);
      onExceeded(bytes);
    }
  }, MEMORY_POLL_MS);
  // The watch must never be what keeps the server's process alive.
  timer.unref();
  return {
    get peakBytes() {
      return peak;
    },
    stop: () => clearInterval(timer),
  };
}
