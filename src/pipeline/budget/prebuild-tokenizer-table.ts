// Writes the tokenizer's rank table as JSON into `dist/tokenizer/` when the generator is built, so that a build parses
// it instead of compiling the library's 2.4 MB module (see token-count.ts, o200kRanks).
//
// Usage: node dist/pipeline/budget/prebuild-tokenizer-table.js   (`npm run build` runs it after tsc)

import { runBuildStep } from '../build-step.js';
import { writeShippedRanks } from './token-count.js';

await runBuildStep(import.meta.url, 'prebuild-tokenizer-table', () => writeShippedRanks());
