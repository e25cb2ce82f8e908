// The emit printer lays json-schema-to-typescript's output out exactly as Prettier would, with the package's settings,
// and keeps the text of every string literal.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import * as prettier from 'prettier';
import { prettierDeclarations, requoted } from '../../src/pipeline/emit/type-printer.js';
import { REPO_ROOT } from '../helpers/cli.js';

const SETTINGS = JSON.parse(readFileSync(join(REPO_ROOT, '.prettierrc.json'), 'utf8')) as prettier.Options;
const LONG = Array.from({ length: 14 }, (_, i) => `"value-number-${i}"`).join(' | ');

/** Shapes json-schema-to-typescript prints (no semicolons, double quotes, parenthesized unions). */
const SAMPLES = [
  `export interface A {\nmode?: ("encode" | "decode")\n[k: string]: unknown | undefined\n}\n`,
  `export interface B {\n"odd-key"?: string\nlabel: ("it's" | "say \\"hi\\"" | "both ' and \\"")\n}\n`,
  `export interface C {\n/**\n * A comment { with braces }\n */\ncolor: (string | {\nr: number\n})\nrows: ({\n[k: string]: unknown | undefined\n} | unknown[])[]\n}\n`,
  `export type D = (${LONG})\nexport interface E {\nlist?: (${LONG})[]\nmaybe: ({\na: string\n} | null)\n}\n`,
  `export type F = (VeryLongNameOfAGeneratedTypeThatGoesOnAndOnAndOn & AnotherVeryLongNameOfAGeneratedTypeThatGoesOnAndOnAndOnToo)\n`,
  `export type G = (({\nid?: string\n} & {\n}) & G1)\nexport interface H {\n}\n`,
];

/** The text of a TypeScript string literal whose escapes are JSON's, with either quote. */
const literalText = (literal: string): string =>
  literal.startsWith('"')
    ? (JSON.parse(literal) as string)
    : (JSON.parse(
        `"${literal.slice(1, -1).replace(/\\(.)|"/g, (m, c: string | undefined) => (c === "'" ? "'" : c === undefined ? '\\"' : m))}"`,
      ) as string);

describe('the emit type printer', () => {
  for (const [index, sample] of SAMPLES.entries()) {
    it(`prints sample ${index} as Prettier does`, async () => {
      const printed = prettierDeclarations(sample);
      assert.ok(printed !== null, 'a shape the printer knows');
      assert.equal(printed, await prettier.format(printed, { ...SETTINGS, parser: 'typescript' }));
      // Only the layout changed: the same text once whitespace, semicolons and redundant parentheses are set aside.
      const formatted = await prettier.format(sample, { ...SETTINGS, parser: 'typescript' });
      assert.equal(printed, formatted);
    });
  }

  it('re-quotes a literal without changing its text', () => {
    assert.equal(requoted(`"it's"`), `"it's"`);
    assert.equal(requoted(`"say \\"hi\\""`), `'say "hi"'`);
    assert.equal(requoted(`"a ' and \\" and \\\\ and \\n"`), `'a \\' and " and \\\\ and \\n'`);
    for (const raw of [`"it's"`, `"say \\"hi\\""`, `"a ' and \\" and \\\\ and \\n"`])
      assert.equal(literalText(requoted(raw)), JSON.parse(raw));
  });

  it('leaves a shape it does not know to the plain indentation', () => {
    assert.equal(prettierDeclarations('export enum X { A = 1 }\n'), null);
  });
});
