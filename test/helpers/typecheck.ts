// Type-checks consumer code against a generated package, as a strict NodeNext project would.

import { join } from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from './cli.js';

/**
 * The errors in `file` itself, as `line: message`; options in `extra` add to the strict NodeNext defaults. With
 * `everywhere`, errors in the declarations it reaches count too (as `path:line: message`), as with skipLibCheck off.
 */
export function typeErrors(file: string, extra: ts.CompilerOptions = {}, everywhere = false): string[] {
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    skipLibCheck: true,
    types: ['node'],
    typeRoots: [join(REPO_ROOT, 'node_modules', '@types')],
    ...extra,
  });
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => everywhere || d.file?.fileName === file)
    .map(
      (d) =>
        `${everywhere ? `${d.file?.fileName ?? ''}:` : ''}${d.file ? d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1 : 0}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`,
    );
}
