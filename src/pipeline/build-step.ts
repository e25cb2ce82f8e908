// How a step of the generator's own build (`npm run build`, after tsc: precompiled templates, schema checks, the
// tokenizer's table) runs as a script: only when it is the script node started, its error on stderr under its name,
// with exit code 1. Importing the step's module (its tests do) runs nothing.

import { errorText, isEntryPoint } from '../runtime/dev/entry-point.js';

export async function runBuildStep(moduleUrl: string, name: string, step: () => unknown): Promise<void> {
  if (!isEntryPoint(moduleUrl)) return;
  try {
    await step();
  } catch (error) {
    process.stderr.write(`${name}: ${errorText(error)}\n`);
    process.exitCode = 1;
  }
}
