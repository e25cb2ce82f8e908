// Which TypeScript compiler the compile stage uses, named without loading it: the version of the package that bundles
// it (`@ts-morph/common`, which ts-morph re-exports it from; each version bundles one compiler). Loading the compiler
// takes a third of a second, which a build that finds its package compiled as it stands need not spend.

import { createRequire } from 'node:module';

export const COMPILER = `@ts-morph/common@${(createRequire(import.meta.url)('@ts-morph/common/package.json') as { version: string }).version}`;
