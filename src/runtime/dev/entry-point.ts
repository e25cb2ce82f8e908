// What every dev script needs to run as a command: whether it is the script node started, and an error's text.

import { pathToFileURL } from 'node:url';

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** True when this module's file is the script node was started with (so importing it has no side effects). */
export function isEntryPoint(moduleUrl: string): boolean {
  const entry = process.argv[1];
  return entry !== undefined && moduleUrl === pathToFileURL(entry).href;
}
