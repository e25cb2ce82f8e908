// Writes the tokenizer's rank table as JSON into `dist/tokenizer/` when the generator is built, so that a build parses
// it instead of compiling the library's 2.4 MB module (see token-count.ts, o200kRanks).
//
// Usage: node dist/pipeline/budget/prebuild-tokenizer-table.js   (`npm run build` runs it after tsc)

import { errorText, isEntryPoint } from '../../runtime/dev/entry-point.js';
import { writeShippedRanks } from './token-count.js';

if (isEntryPoint(import.meta.url)) {
  try {
    await writeShippedRanks();
  } catch (error) {
    process.stderr.write(`prebuild-tokenizer-table: ${errorText(error)}\n`);
    process.exitCode = 1;
  }
}
