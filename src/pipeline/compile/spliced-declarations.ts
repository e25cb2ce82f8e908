// Declarations of a module that holds only imports, exports, interfaces, type aliases and fully annotated functions
// (a tool module, the tools index, types.ts): its own text with each function's body cut, `declare` in place of
// `async`, and a parameter's default value as `?`. What the compiler's declaration emitter would write, with the
// docs as written, without its printing, which is most of a large package's compile. Any other module: null, and
// the compiler emits it.

import type { ts } from 'ts-morph';
import { typescript } from './typescript-api.js';

function isPlainDeclaration(statement: ts.Statement): boolean {
  return (
    typescript.isImportDeclaration(statement) ||
    typescript.isExportDeclaration(statement) ||
    typescript.isInterfaceDeclaration(statement) ||
    typescript.isTypeAliasDeclaration(statement)
  );
}

/** `export declare function name<T>(a: A, b?: B): R;` for a function whose parameters and result are typed, else null. */
function declaredFunction(node: ts.FunctionDeclaration, sourceFile: ts.SourceFile): string | null {
  const modifiers = node.modifiers ?? [];
  const exported = modifiers.some((m) => m.kind === typescript.SyntaxKind.ExportKeyword);
  const others = modifiers.filter((m) => m.kind !== typescript.SyntaxKind.ExportKeyword && m.kind !== typescript.SyntaxKind.AsyncKeyword);
  if (!exported || others.length > 0 || node.name === undefined || node.type === undefined || node.asteriskToken !== undefined) return null;
  const parameters: string[] = [];
  let optionalFrom = node.parameters.length;
  // A default value makes a parameter optional only when no required one follows it.
  for (let i = node.parameters.length - 1; i >= 0; i -= 1) {
    const parameter = node.parameters[i]!;
    if (parameter.initializer === undefined && parameter.questionToken === undefined && parameter.dotDotDotToken === undefined) break;
    optionalFrom = i;
  }
  for (const [i, parameter] of node.parameters.entries()) {
    if (parameter.type === undefined || !typescript.isIdentifier(parameter.name) || parameter.modifiers !== undefined) return null;
    if (parameter.initializer === undefined) {
      parameters.push(parameter.getText(sourceFile));
      continue;
    }
    if (i < optionalFrom) return null;
    parameters.push(`${parameter.name.text}?: ${parameter.type.getText(sourceFile)}`);
  }
  const typeParameters = node.typeParameters ? `<${node.typeParameters.map((t) => t.getText(sourceFile)).join(', ')}>` : '';
  return `export declare function ${node.name.text}${typeParameters}(${parameters.join(', ')}): ${node.type.getText(sourceFile)};`;
}

/** The declaration file's text for `sourceFile`, or null when it holds anything the emitter must work out. */
export function splicedDeclarations(sourceFile: ts.SourceFile): string | null {
  const text = sourceFile.text;
  let out = '';
  let copiedTo = 0;
  for (const statement of sourceFile.statements) {
    if (isPlainDeclaration(statement)) continue;
    if (!typescript.isFunctionDeclaration(statement) || statement.body === undefined) return null;
    const declared = declaredFunction(statement, sourceFile);
    if (declared === null) return null;
    // Leading docs and everything before stay; the function's own text is replaced.
    out += text.slice(copiedTo, statement.getStart(sourceFile)) + declared;
    copiedTo = statement.end;
  }
  return out + text.slice(copiedTo);
}
