import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { appendFile, cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ts } from 'ts-morph';
import { compilePackage } from '../../src/pipeline/compile/compile-package.js';
import { CONSTANT_ENTRIES, PREBUILT_DIR, prebuiltRuntimeFor, readPrebuiltManifest } from '../../src/pipeline/compile/runtime-prebuilt.js';
import { splicedDeclarations } from '../../src/pipeline/compile/spliced-declarations.js';
import { resolveConfig } from '../../src/pipeline/config.js';
import { PipelineError } from '../../src/pipeline/problems.js';
import { buildPackage } from '../../src/pipeline/run-pipeline.js';
import { bundle, tool } from '../fixtures/catalogues.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { staticImports } from '../helpers/import-graph.js';

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath ?? e.path, e.name).slice(dir.length + 1))
    .sort();
}

async function writtenPackage(dir: string): Promise<string> {
  const source = join(dir, 'catalogue.json');
  await writeFile(source, JSON.stringify(bundle(['alpha', 'beta-tool'].map((slug) => tool(slug)))));
  const out = join(dir, 'package');
  await buildPackage({ source, outDir: out, config: resolveConfig(), compile: false });
  return out;
}

function parsed(text: string): ts.SourceFile {
  return ts.createSourceFile('/x/tool.ts', text, ts.ScriptTarget.ES2022, true);
}

describe('compile stage', () => {
  it('checks against the prebuilt runtime and gives the dist/ a full compile gives; a changed runtime is compiled in full', async () => {
    assert.ok(readPrebuiltManifest() !== null, `no prebuilt runtime in ${PREBUILT_DIR}: run \`npm run build\``);
    // Inside the repo, so that the compiled modules resolve their dependencies from its node_modules.
    await mkdir(join(REPO_ROOT, '.tmp'), { recursive: true });
    const dir = await mkdtemp(join(REPO_ROOT, '.tmp', 'compile-'));
    try {
      const fast = await writtenPackage(dir);
      const slow = join(dir, 'slow');
      await cp(fast, slow, { recursive: true });
      // One byte more in one runtime file: its fingerprint no longer matches.
      await appendFile(join(slow, 'src', 'runtime', 'surface', 'guide.ts'), '\n');
      assert.deepEqual(Object.keys(prebuiltRuntimeFor(fast)?.entries ?? {}).sort(), [...CONSTANT_ENTRIES].sort());
      assert.equal(prebuiltRuntimeFor(slow), null);

      assert.equal((await compilePackage(fast)).runtime, 'prebuilt');
      assert.equal((await compilePackage(slow)).runtime, 'compiled');
      const fastFiles = await filesUnder(join(fast, 'dist'));
      assert.deepEqual(fastFiles, await filesUnder(join(slow, 'dist')));
      for (const file of [
        'bin.js',
        'index.js',
        'index.d.ts',
        'client.d.ts',
        'runtime/execution/sdk.js',
        'runtime/execution/sdk.d.ts',
        'runtime/execution/sandbox-child.js',
        'tools/alpha.d.ts',
        'tools/index.d.ts',
        'types.d.ts',
      ]) {
        assert.ok(fastFiles.includes(file), `dist/${file} is missing`);
      }
      for (const file of fastFiles) {
        if (file === 'runtime/surface/guide.js' || file === 'runtime/surface/guide.d.ts' || file === 'bin.js') continue;
        assert.equal(
          await readFile(join(fast, 'dist', file), 'utf8'),
          await readFile(join(slow, 'dist', file), 'utf8'),
          `dist/${file} differs between the two paths`,
        );
      }
      // A tool's declarations: its types and docs as written, the wrapper declared.
      const declarations = await readFile(join(fast, 'dist', 'tools', 'alpha.d.ts'), 'utf8');
      assert.match(declarations, /export declare function alpha\(input: AlphaInput, options\?: CallOptions\): Promise<AlphaOutput>;/);
      assert.doesNotMatch(declarations, /sdk\.invoke/);

      // The compiled SDK modules load and export the wrappers.
      const { spawnSync } = await import('node:child_process');
      const listed = spawnSync(
        process.execPath,
        [
          '-e',
          `import(${JSON.stringify(join(fast, 'dist', 'tools', 'index.js'))}).then((m) => console.log(typeof m.alpha, typeof m.createClient))`,
        ],
        { encoding: 'utf8' },
      );
      assert.equal(listed.stdout.trim(), 'function function', listed.stderr);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('keeps dist/ when the sources and dist/ are as the last compile left them, and compiles again on any change', async () => {
    await mkdir(join(REPO_ROOT, '.tmp'), { recursive: true });
    const dir = await mkdtemp(join(REPO_ROOT, '.tmp', 'compile-kept-'));
    try {
      const out = await writtenPackage(dir);
      assert.equal((await compilePackage(out)).kept, false);
      const compiled = await filesUnder(join(out, 'dist'));
      assert.equal((await compilePackage(out)).kept, true);

      // A dist/ file gone: compiled again, and back.
      await rm(join(out, 'dist', 'tools', 'alpha.js'));
      assert.equal((await compilePackage(out)).kept, false);
      assert.deepEqual(await filesUnder(join(out, 'dist')), compiled);
      assert.equal((await compilePackage(out)).kept, true);

      // Dependencies installed into the package (npm's record of them changed): compiled again.
      await mkdir(join(out, 'node_modules'), { recursive: true });
      await writeFile(join(out, 'node_modules', '.package-lock.json'), '{"lockfileVersion":3,"packages":{}}\n');
      assert.equal((await compilePackage(out)).kept, false);
      assert.equal((await compilePackage(out)).kept, true);

      // A source changed: compiled again; a compile that fails leaves no stamp, so the next one compiles too.
      const file = join(out, 'src', 'tools', 'alpha.ts');
      const text = await readFile(file, 'utf8');
      await writeFile(file, `${text}\nexport const two: number = 2;\n`);
      assert.equal((await compilePackage(out)).kept, false);
      assert.match(await readFile(join(out, 'dist', 'tools', 'alpha.d.ts'), 'utf8'), /two: number/);
      await writeFile(file, `${text}\nexport const broken: number = 'text';\n`);
      await assert.rejects(compilePackage(out), PipelineError);
      await writeFile(file, `${text}\nexport const two: number = 2;\n`);
      assert.equal((await compilePackage(out)).kept, false);

      // The build says so.
      const lines: string[] = [];
      const source = join(dir, 'catalogue.json');
      await buildPackage({ source, outDir: out, config: resolveConfig(), log: (line) => lines.push(line) });
      await buildPackage({ source, outDir: out, config: resolveConfig(), log: (line) => lines.push(line) });
      assert.equal(lines.filter((line) => line.startsWith('dist/ kept')).length, 1, lines.join('\n'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('writes again, without a type-check, modules whose docs alone changed: the dist/ a full compile gives', async () => {
    await mkdir(join(REPO_ROOT, '.tmp'), { recursive: true });
    const dir = await mkdtemp(join(REPO_ROOT, '.tmp', 'compile-reemit-'));
    try {
      const source = join(dir, 'catalogue.json');
      const catalogue = (description: string) => JSON.stringify(bundle([tool('alpha', { description }), tool('beta-tool')]));
      await writeFile(source, catalogue('Does alpha things.'));
      const out = join(dir, 'package');
      const build = () => buildPackage({ source, outDir: out, config: resolveConfig(), compile: false });
      await build();
      assert.equal((await compilePackage(out)).reemitted, 0);

      // A new description: the tool's module and the tools index change in their docs alone.
      await writeFile(source, catalogue('Does alpha things, and says so in other words.'));
      await build();
      const summary = await compilePackage(out);
      assert.equal(summary.kept, false);
      assert.ok(summary.reemitted >= 1, JSON.stringify(summary));
      assert.match(await readFile(join(out, 'dist', 'tools', 'alpha.d.ts'), 'utf8'), /says so in other words/);
      assert.equal((await compilePackage(out)).kept, true);
      // What a compile from nothing writes for the same sources, byte for byte.
      const full = join(dir, 'full');
      await cp(join(out, 'src'), join(full, 'src'), { recursive: true });
      for (const file of ['package.json', 'tsconfig.json']) await cp(join(out, file), join(full, file));
      assert.equal((await compilePackage(full)).reemitted, 0);
      const files = await filesUnder(join(out, 'dist'));
      assert.deepEqual(files, await filesUnder(join(full, 'dist')));
      for (const file of files) {
        assert.equal(await readFile(join(out, 'dist', file), 'utf8'), await readFile(join(full, 'dist', file), 'utf8'), `dist/${file}`);
      }

      // Code changed: type-checked, and a type error fails as ever.
      const module = join(out, 'src', 'tools', 'alpha.ts');
      const text = await readFile(module, 'utf8');
      await writeFile(module, `${text}\nexport const broken: number = 'text';\n`);
      await assert.rejects(compilePackage(out), PipelineError);
      await writeFile(module, text);
      assert.equal((await compilePackage(out)).reemitted, 0);
      // A module the bin bundles, its comments changed: compiled, since the bundle has to be made again.
      const stampFile = join(out, 'node_modules', '.cache', 'nexusbloom-gen', 'compiled.json');
      const stamp = JSON.parse(await readFile(stampFile, 'utf8')) as { bundled: string[] };
      assert.ok(stamp.bundled.includes('src/bin.ts') && !stamp.bundled.includes('src/tools/alpha.ts'), stamp.bundled.join());
      await writeFile(stampFile, JSON.stringify({ ...stamp, bundled: [...stamp.bundled, 'src/tools/alpha.ts'] }));
      await writeFile(module, `// A comment.\n${text}`);
      assert.deepEqual(await compilePackage(out).then(({ kept, reemitted }) => [kept, reemitted]), [false, 0]);
      // A comment that can change what the compiler reports: type-checked.
      await writeFile(module, text.replace('export async function', '// @ts-expect-error\nexport async function'));
      await assert.rejects(compilePackage(out), /Unused '@ts-expect-error' directive/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("writes the docs-only modules again with the compiler's parser alone, not ts-morph and the type-check", () => {
    const names = staticImports(new URL('../../src/pipeline/compile/reemit-modules.ts', import.meta.url));
    assert.ok(names.includes('pipeline/compile/typescript-api.ts'), names.join(' '));
    assert.ok(!names.includes('pipeline/compile/type-check.ts'), names.join(' '));
    for (const name of names) {
      const text = readFileSync(new URL(`../../src/${name}`, import.meta.url), 'utf8');
      assert.doesNotMatch(text, /^import (?!type )[^;]*from '(ts-morph|@ts-morph\/common)';$/ms, name);
    }
  });

  it('reports a type error in a tool module by file and line, and writes no dist/', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nb-compile-error-'));
    try {
      const out = await writtenPackage(dir);
      const file = join(out, 'src', 'tools', 'alpha.ts');
      await writeFile(file, `${await readFile(file, 'utf8')}\nexport const broken: number = 'text';\n`);
      await assert.rejects(compilePackage(out), (error: unknown) => {
        assert.ok(error instanceof PipelineError);
        assert.match(
          error.message,
          /does not type-check \(1 errors\); first: src\/tools\/alpha\.ts:\d+ Type 'string' is not assignable to type 'number'/,
        );
        return true;
      });
      assert.equal(existsSync(join(out, 'dist')), false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('spliced declarations', () => {
  it('keeps types and docs, declares annotated functions, and makes a defaulted parameter optional', () => {
    const text = [
      '// header',
      "import type { A } from './a.js';",
      "import { sdk } from './client.js';",
      '/** Doc. */',
      'export interface In { a: A }',
      'export type Out = { b: string };',
      '/** Runs it. */',
      'export async function run(input: In, options: { x?: number } = {}): Promise<Out> {',
      '  return sdk.invoke<Out>("run", input, options);',
      '}',
      '',
    ].join('\n');
    assert.equal(
      splicedDeclarations(parsed(text)),
      [
        '// header',
        "import type { A } from './a.js';",
        "import { sdk } from './client.js';",
        '/** Doc. */',
        'export interface In { a: A }',
        'export type Out = { b: string };',
        '/** Runs it. */',
        'export declare function run(input: In, options?: { x?: number }): Promise<Out>;',
        '',
      ].join('\n'),
    );
  });

  it('leaves to the compiler what needs inference or is not a declaration', () => {
    for (const text of [
      'export function f(a: number) { return a; }',
      'export function f(a = 1): number { return a; }',
      'export const x: number = 1;',
      'function hidden(): void {}',
      'export function f(a: number = 1, b: string): number { return a; }',
      'export class C {}',
      'await Promise.resolve();',
    ]) {
      assert.equal(splicedDeclarations(parsed(text)), null, text);
    }
  });
});
