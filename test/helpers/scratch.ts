// A scratch folder inside the repository (`.tmp/`), for code a test compiles: ajv's standalone code requires ajv's
// runtime helpers, which resolve from the generator's node_modules there as they do from dist/.

import { mkdirSync, mkdtempSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const SCRATCH = fileURLToPath(new URL('../../.tmp/', import.meta.url));

/** A new folder under `.tmp/` named from `prefix`, as a URL ending in `/`. */
export function scratchDir(prefix: string): URL {
  mkdirSync(SCRATCH, { recursive: true });
  return pathToFileURL(`${mkdtempSync(`${SCRATCH}${prefix}`)}/`);
}
