// The wrappers' types say what the schemas mean, where json-schema-to-typescript alone would not, and the package
// README's example call compiles as written even when no tool has examples.

import assert from 'node:assert/strict';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import ts from 'typescript';
import { bundle, tool } from '../fixtures/catalogues.js';
import { REPO_ROOT, runCli } from '../helpers/cli.js';

const OUT = join(REPO_ROOT, '.tmp', 'sdk-precision');

const catalogue = bundle(
  [
    tool('allof-required', { input_schema: { type: 'object', allOf: [{ properties: { q: { type: 'string' } } }, { required: ['q'] }] } }),
    tool('any-value', { input_schema: { type: 'object', required: ['data'], properties: { data: { description: 'Any JSON value.' } } } }),
    tool('ghost-required', { input_schema: { type: 'object', required: ['ghost'] } }),
    tool('needs-args', { input_schema: { type: 'object', required: ['n', 'mode'], properties: { n: { type: 'integer', minimum: 1 }, mode: { enum: ['a', 'b'] } } } }),
    tool('open-object', {
      input_schema: { type: 'object', properties: { meta: { type: 'object' }, row: { type: ['object', 'array'] } } },
      output_schema: { type: 'object', required: ['rows'], properties: { rows: { type: 'array', items: { type: ['object', 'array'] } } } },
    }),
    tool('no-schema', { input_schema: null }),
  ].map((manifest) => ({ ...manifest, examples: [] })),
);

const CONSUMER = `
import { allofRequired, anyValue, ghostRequired, needsArgs, noSchema, openObject } from '../src/tools/index.js';

export async function uses(): Promise<void> {
  await anyValue({ data: 42 });
  await anyValue({ data: null });
  await anyValue({ data: [1, 'x'] });
  // @ts-expect-error data is required, whatever it may hold
  await anyValue({});
  await openObject();
  await noSchema();
  const out = await openObject({ meta: { anything: true }, row: { k: 'v' } });
  await openObject({ row: [1, 2] });
  const row = out.rows[0];
  if (row !== undefined && !Array.isArray(row)) {
    const cell: unknown = row['a'];
    void cell;
  }
  // @ts-expect-error ghost is required, though no property describes it
  await ghostRequired({});
  await ghostRequired({ ghost: 1 });
  // @ts-expect-error q is required by a member of allOf
  await allofRequired({});
  await allofRequired({ q: 'x' });
  // @ts-expect-error a tool with required input cannot be called without it
  await needsArgs();
}
`;

const compileErrors = (files: string[]): string[] => {
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    skipLibCheck: true,
    types: ['node'],
    typeRoots: [join(REPO_ROOT, 'node_modules', '@types')],
  });
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file !== undefined && files.includes(d.file.fileName))
    .map((d) => `${d.file!.fileName}:${d.file!.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
};

describe('typed wrappers say what the schemas mean', () => {
  before(async () => {
    await rm(OUT, { recursive: true, force: true });
    await mkdir(OUT, { recursive: true });
    const source = join(OUT, 'catalogue.json');
    await writeFile(source, JSON.stringify(catalogue));
    const built = await runCli(['build', '--source', source, '--out', OUT, '--json']);
    assert.equal(built.code, 0, built.stderr);
  });

  it('any-value fields, open objects, required names without properties, allOf requirements, optional input', async () => {
    const file = join(OUT, 'consumer', 'uses.ts');
    await mkdir(join(OUT, 'consumer'), { recursive: true });
    await writeFile(file, CONSUMER);
    // Every @ts-expect-error must meet an error (else TS2578), and nothing else may fail.
    assert.deepEqual(compileErrors([file]), []);
  });

  it('the README example call compiles as written, with input the tool accepts, though no tool has examples', async () => {
    const readme = await readFile(join(OUT, 'README.md'), 'utf8');
    const snippet = /```ts\n(import [^\n]*\/tools';\n\nconst result = await [^\n]*\n)```/.exec(readme)?.[1];
    assert.ok(snippet, 'the README has the example call');
    // The first tool by slug takes allOf input, the next ones take input no plain value can stand for: the example uses
    // the first tool whose required input has plain values.
    assert.match(snippet, /await needsArgs\(\{"n":1,"mode":"a"\}\)/);
    const file = join(OUT, 'consumer', 'readme.ts');
    // Inside the package, its own name resolves to itself (through package.json "exports" and the compiled dist/).
    await writeFile(file, `${snippet}void result;\n`);
    assert.deepEqual(compileErrors([file]), []);
  });
});
