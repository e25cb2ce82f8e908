// What a type-check reads of a module (type-relevant-text.ts): the same for two texts that differ in comments and
// spacing alone, different wherever the code differs (a line break where a semicolon would be inserted included), and
// the text whole wherever the scanner alone cannot be sure of the tokens or a comment can change what is reported; and
// the same as TypeScript's own scanner gives, token by token.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ts } from 'ts-morph';
import { typeRelevantText } from '../../src/pipeline/compile/type-relevant-text.js';

const module = (doc: string, indent = '  '): string =>
  [
    "import type { CallOptions } from '../runtime/execution/sdk.js';",
    '',
    `/** ${doc} */`,
    'export interface AlphaInput {',
    `${indent}/** The text. */`,
    `${indent}text: string; // trailing words`,
    '}',
    '',
    `/**\n * ${doc}\n *\n * @example\n * \`\`\`ts\n * await alpha({ "text": "a // b" });\n * \`\`\`\n */`,
    'export async function alpha(input: AlphaInput, options?: CallOptions): Promise<number> {',
    `${indent}return sdk.invoke<number>('alpha', input, options);`,
    '}',
    '',
  ].join('\n');

test('docs, comments and spacing are not read: two modules that differ in them alone give the same text', () => {
  const before = module('Does alpha things.');
  assert.equal(typeRelevantText(module('Does alpha things, better: {} ; `x` /slashes/')), typeRelevantText(before));
  assert.equal(typeRelevantText(module('Does alpha things.', '    ')), typeRelevantText(before));
  assert.equal(typeRelevantText(`${before}\n// a last comment\n\n`), typeRelevantText(before));
  assert.notEqual(typeRelevantText(before), before);
  assert.doesNotMatch(typeRelevantText(before), /Does alpha|trailing words|@example/);
});

test('any change to the code is read: a type, a string, a name, a line break where a semicolon would go', () => {
  const before = module('Does alpha things.');
  for (const [from, to] of [
    ['text: string;', 'text: number;'],
    ["'alpha', input", "'alpha ', input"],
    ["'../runtime/execution/sdk.js'", "'../runtime/execution/sdk2.js'"],
    ['AlphaInput {', 'AlphaInputs {'],
    ['return sdk', 'return\nsdk'],
  ] as const) {
    const after = before.replace(from, to);
    assert.notEqual(after, before, from);
    assert.notEqual(typeRelevantText(after), typeRelevantText(before), `${from} → ${to}`);
  }
  // A block comment across lines stands for a line break, one within a line for a space.
  assert.equal(typeRelevantText('return /*\n*/ x;'), typeRelevantText('return\nx;'));
  assert.equal(typeRelevantText('return /* a */ x;'), typeRelevantText('return x;'));
  assert.notEqual(typeRelevantText('return /*\n*/ x;'), typeRelevantText('return x;'));
  // Comment markers inside a string are the string's.
  assert.notEqual(typeRelevantText("const a = 'x // y';"), typeRelevantText("const a = 'x';"));
});

test('comments that change what the compiler reports are read as text', () => {
  const code = 'const a: number = 1;\n';
  for (const comment of [
    '// @ts-ignore',
    '/* @ts-expect-error */',
    '// @ts-nocheck',
    '/// <reference types="node" />',
    '/** {@link Other} */',
    '/** @see Other */',
  ]) {
    assert.notEqual(typeRelevantText(`${comment}\n${code}`), typeRelevantText(code), comment);
  }
});

test('a module whose tokens the scanner alone cannot be sure of is taken whole', () => {
  for (const text of [
    'const pattern = /a\\/\\/b/;',
    'const half = total / 2;',
    'let a = 1; a /= 2;',
    'const greeting = `hello ${name} // not a comment`;',
    'const plain = `text`;',
    "const broken = 'unterminated;\n",
  ]) {
    assert.equal(typeRelevantText(text), text, text);
  }
});

/** The same reduction by TypeScript's own scanner, token by token: what typeRelevantText must agree with. */
function byTheScanner(text: string): string {
  let malformed = false;
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text, () => (malformed = true));
  const parts: string[] = [];
  let gap = '';
  const needsTheParser = new Set([
    ts.SyntaxKind.SlashToken,
    ts.SyntaxKind.SlashEqualsToken,
    ts.SyntaxKind.NoSubstitutionTemplateLiteral,
    ts.SyntaxKind.TemplateHead,
    ts.SyntaxKind.ShebangTrivia,
  ]);
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    if (malformed || needsTheParser.has(token)) return text;
    const tokenText = scanner.getTokenText();
    if (token === ts.SyntaxKind.NewLineTrivia) gap = '\n';
    else if (token === ts.SyntaxKind.WhitespaceTrivia) gap ||= ' ';
    else if (
      (token === ts.SyntaxKind.SingleLineCommentTrivia || token === ts.SyntaxKind.MultiLineCommentTrivia) &&
      !/@ts-|@link|@see|^\/\/\//.test(tokenText)
    )
      gap = /[\n\r\u2028\u2029]/.test(tokenText) ? '\n' : gap || ' ';
    else {
      parts.push(gap, tokenText);
      gap = '';
    }
  }
  return malformed ? text : parts.join('');
}

test("gives what TypeScript's scanner gives, token by token, for every module of a generated package and the generator", () => {
  const roots = [new URL('../../generated/src/', import.meta.url), new URL('../../src/', import.meta.url)];
  let compared = 0;
  const wholeTools: string[] = [];
  for (const root of roots) {
    for (const name of readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'))) {
      const text = readFileSync(new URL(name, root), 'utf8');
      const own = typeRelevantText(text);
      assert.equal(own, byTheScanner(text), name);
      compared += 1;
      if (own === text && root === roots[0] && name.startsWith('tools/')) wholeTools.push(name);
    }
  }
  // Every tool module is read token by token, none taken whole: their docs alone can change without a type-check.
  assert.ok(compared > 300, `${compared} modules`);
  assert.deepEqual(wholeTools, []);
});
