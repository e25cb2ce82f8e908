// The TypeScript compiler's API alone: the very file ts-morph loads (one module, so one compiler in the process
// whichever loads it first), without ts-morph and its library files. Work that only parses (the declarations of modules
// whose docs changed, see reemit-modules.ts) then loads in some 170 ms instead of 310.

import { createRequire } from 'node:module';
import type { ts as Compiler } from 'ts-morph';

export const typescript = createRequire(import.meta.url)('@ts-morph/common/dist/typescript.js') as typeof Compiler;
