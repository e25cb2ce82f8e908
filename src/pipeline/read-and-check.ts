// source → check without the rest of the pipeline: for the check command, and a catalogue side of the changelog.

import type { CheckResult } from './check/check-catalogue.js';
import { readSource, type RawCatalogue, type SourceOptions } from './source/read-source.js';

export interface CheckedCatalogue {
  raw: RawCatalogue;
  check: CheckResult;
}

/** Problems are returned, not thrown (see failOnErrors in problems.ts). */
export async function readAndCheck(source: string, options: SourceOptions): Promise<CheckedCatalogue> {
  const raw = await readSource(source, options);
  // Loaded here, not with this module: a build imports it for the changelog's other side, and seldom reads one.
  const { checkCatalogue } = await import('./check/check-in-thread.js');
  const check = checkCatalogue(raw.document);
  return { raw, check };
}
