// Where the compile stage finds the packages a generated package needs: by Node's resolution from the generator, in
// npm's hoisted layout and in pnpm's strict one (links into a store), never from a fixed path of the generator's own.

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { COMPILE_PACKAGES, generatorModules, moduleFolderOf, packageNameOf } from '../../src/pipeline/compile/generator-modules.js';
import { PipelineError } from '../../src/pipeline/problems.js';

function writePackage(dir: string, name: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0' }));
}

describe('moduleFolderOf', () => {
  let scratch: string;

  before(() => {
    scratch = realpathSync(mkdtempSync(join(tmpdir(), 'nexusbloom-modules-')));
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('hoisted (npm): the project node_modules above the generator, for scoped and plain names', () => {
    const project = join(scratch, 'hoisted');
    writePackage(join(project, 'node_modules', 'nexusbloom-gen'), 'nexusbloom-gen');
    writePackage(join(project, 'node_modules', '@types', 'node'), '@types/node');
    writePackage(join(project, 'node_modules', 'ajv'), 'ajv');
    const require = createRequire(join(project, 'node_modules', 'nexusbloom-gen', 'dist', 'pipeline', 'compile', 'x.js'));
    assert.equal(moduleFolderOf('@types/node', require), join(project, 'node_modules'));
    assert.equal(moduleFolderOf('ajv', require), join(project, 'node_modules'));
  });

  it("strict (pnpm): each package's own store folder, through the generator's links", () => {
    const store = join(scratch, 'strict', 'node_modules', '.pnpm');
    const generator = join(store, 'nexusbloom-gen@0.1.0', 'node_modules', 'nexusbloom-gen');
    writePackage(generator, 'nexusbloom-gen');
    writePackage(join(store, '@types+node@20.19.25', 'node_modules', '@types', 'node'), '@types/node');
    writePackage(join(store, 'ajv@8.20.0', 'node_modules', 'ajv'), 'ajv');
    mkdirSync(join(store, 'nexusbloom-gen@0.1.0', 'node_modules', '@types'), { recursive: true });
    symlinkSync(
      join(store, '@types+node@20.19.25', 'node_modules', '@types', 'node'),
      join(store, 'nexusbloom-gen@0.1.0', 'node_modules', '@types', 'node'),
      'dir',
    );
    symlinkSync(join(store, 'ajv@8.20.0', 'node_modules', 'ajv'), join(store, 'nexusbloom-gen@0.1.0', 'node_modules', 'ajv'), 'dir');
    const require = createRequire(join(generator, 'dist', 'x.js'));
    assert.equal(moduleFolderOf('@types/node', require), join(store, '@types+node@20.19.25', 'node_modules'));
    assert.equal(moduleFolderOf('ajv', require), join(store, 'ajv@8.20.0', 'node_modules'));
  });

  it('a package the generator cannot load is an error that names it and what to do', () => {
    const require = createRequire(join(scratch, 'empty', 'x.js'));
    assert.throws(
      () => moduleFolderOf('left-pad-not-installed', require),
      (error: unknown) =>
        error instanceof PipelineError &&
        /left-pad-not-installed is not installed where the generator can load it from; reinstall nexusbloom-gen/.test(error.message) &&
        /--no-compile/.test(error.message),
    );
  });

  it('from this checkout: every package a generated package compiles against, and Node types under an @types root', () => {
    const modules = generatorModules();
    assert.deepEqual([...modules.folders.keys()], [...COMPILE_PACKAGES]);
    for (const name of COMPILE_PACKAGES) assert.ok(existsSync(join(modules.folders.get(name)!, name, 'package.json')), name);
    assert.match(modules.nodeTypesRoot, /node_modules\/@types$/);
  });
});

describe('packageNameOf', () => {
  it('reads the package of a bare specifier; relative, absolute and node: specifiers have none', () => {
    const cases: Array<[string, string | null]> = [
      ['@modelcontextprotocol/sdk/server/index.js', '@modelcontextprotocol/sdk'],
      ['ajv/dist/2020.js', 'ajv'],
      ['zod/v4', 'zod'],
      ['esbuild', 'esbuild'],
      ['./runtime/sdk.js', null],
      ['/abs/file.js', null],
      ['node:fs', null],
    ];
    for (const [specifier, want] of cases) assert.equal(packageNameOf(specifier), want, specifier);
  });
});
