// Reads a catalogue bundle file (`{"format":"nexusbloom-catalogue/1","tools":[...]}`).

import { readFile } from 'node:fs/promises';
import { withoutByteOrderMark } from '../../runtime/shared/json-text.js';
import { PipelineError } from '../problems.js';

export const BUNDLE_FORMAT = 'nexusbloom-catalogue/1';

/** Why a file could not be read, in words: the common cases named, anything else as the system says it. */
export function unreadableReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : String((error as Error).message);
}

export async function readBundleFile(path: string): Promise<unknown> {
  return parseBundleText(path, await readSourceFile(path));
}

/** What `build`, `check` and `pull` advise after an unreadable source; `diff`, which has no --source, leaves it out. */
export const SOURCE_FLAG_ADVICE = ' (pass a bundle file, an OpenAPI document or an API URL to --source)';

/** The text of a source file (a bundle or an API description). */
export async function readSourceFile(path: string): Promise<string> {
  try {
    // Read as bytes and decoded once: read as text, a large file comes back as a string of its chunks, which JSON.parse
    // must first copy into one (some 20 ms of a 26 MB bundle).
    return (await readFile(path)).toString('utf8');
  } catch (error) {
    const why = unreadableReason(error);
    throw new PipelineError(`cannot read bundle ${path}: ${why}${SOURCE_FLAG_ADVICE}`, [
      { severity: 'error', slug: null, pointer: '', message: `cannot read ${path}: ${why}` },
    ]);
  }
}

export function parseBundleText(path: string, text: string): unknown {
  try {
    return JSON.parse(withoutByteOrderMark(text)) as unknown;
  } catch (error) {
    const message = `bundle ${path} is not valid JSON: ${(error as Error).message}`;
    throw new PipelineError(message, [{ severity: 'error', slug: null, pointer: '', message }]);
  }
}
