// JavaScript for the package's own modules (tools, types, entry points), transpiled by esbuild file by file while the
// TypeScript compiler checks them and writes their declarations: the JavaScript of a module that type-checks does not
// depend on other files, and printing it is a third of what the compiler would spend emitting. Not written until the
// check passed (see compile-package.ts). The runtime's JavaScript stays the compiler's own (runtime-prebuilt.ts).

import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import { TSCONFIG } from '../emit/package-json.js';

export interface TranspiledFile {
  path: string;
  text: string;
}

/** `src/**\/*.ts` files of the package at `root` (absolute paths) → their `dist/**\/*.js`, in memory. */
export async function transpileModules(root: string, files: readonly string[]): Promise<TranspiledFile[]> {
  if (files.length === 0) return [];
  const result = await build({
    absWorkingDir: root,
    entryPoints: [...files],
    outdir: join(root, 'dist'),
    outbase: join(root, 'src'),
    bundle: false,
    write: false,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // As the compiler reads the sources: the same target (class fields as defined) and import elision.
    tsconfigRaw: { compilerOptions: { target: TSCONFIG.compilerOptions.target, useDefineForClassFields: true } },
    // Text as written (catalogue text in names.ts), and no comments carried over: the declarations keep the docs.
    charset: 'utf8',
    legalComments: 'none',
    logLevel: 'silent',
  });
  return result.outputFiles.map((file) => ({ path: file.path, text: file.text }));
}

export async function writeTranspiled(files: readonly TranspiledFile[]): Promise<void> {
  const folders = new Set(files.map((file) => dirname(file.path)));
  await Promise.all([...folders].map((folder) => mkdir(folder, { recursive: true })));
  await Promise.all(files.map((file) => writeFile(file.path, file.text)));
}
