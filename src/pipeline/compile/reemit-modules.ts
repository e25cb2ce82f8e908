// A compile whose only work is the modules whose docs changed since the last one (compiled-stamp.ts): their JavaScript
// from esbuild and their declarations spliced from their text, as a full compile writes them, with no type-check and so
// without ts-morph (typescript-api.ts: the compiler's parser alone).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReemittedModule } from './compiled-stamp.js';
import { splicedDeclarations } from './spliced-declarations.js';
import { transpileModules, writeTranspiled, type TranspiledFile } from './transpile-modules.js';
import { typescript } from './typescript-api.js';

/**
 * The JavaScript and declarations of `modules` written again without a type-check: what a type-check reads of their
 * texts is as the last compile checked it (compiled-stamp.ts). The same text a compile writes: JavaScript from esbuild,
 * declarations spliced from the module's text. false, with nothing written, when one of them needs the compiler for
 * its declarations or changed while this ran.
 */
export async function reemitModules(root: string, modules: readonly ReemittedModule[]): Promise<boolean> {
  const declarations: TranspiledFile[] = [];
  for (const { path, text } of modules) {
    const sourceFile = typescript.createSourceFile(
      join(root, path),
      text,
      { languageVersion: typescript.ScriptTarget.Latest, jsDocParsingMode: typescript.JSDocParsingMode.ParseForTypeErrors },
      true,
    );
    const spliced = splicedDeclarations(sourceFile);
    if (spliced === null) return false;
    declarations.push({ path: join(root, 'dist', `${path.slice('src/'.length, -'.ts'.length)}.d.ts`), text: spliced });
  }
  const javascript = await transpileModules(
    root,
    modules.map(({ path }) => join(root, path)),
  );
  // esbuild read the files again: a file that changed meanwhile is compiled in full.
  if (modules.some(({ path, text }) => readFileSync(join(root, path), 'utf8') !== text)) return false;
  await writeTranspiled(declarations);
  await writeTranspiled(javascript);
  return true;
}
