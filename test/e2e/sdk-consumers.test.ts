// The generated package as every kind of consumer project sees it, imported by its package name: TypeScript under
// node10 (typesVersions), node16, nodenext (ESM and CJS) and bundler resolution with skipLibCheck off; Node.js through
// `import` and `require`, against the mock API; and a package.json that runs no script when it is installed.

import assert from 'node:assert/strict';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import ts from 'typescript';
import { manifestsFromBundle, startMockApi, type MockApi } from '../../src/runtime/dev/mock-api.js';
import { bundle, tool } from '../fixtures/catalogues.js';
import { REPO_ROOT, runCli, runProcess } from '../helpers/cli.js';
import { typeErrors } from '../helpers/typecheck.js';

const OUT = join(REPO_ROOT, '.tmp', 'sdk-consumers');
const PACKAGE = join(OUT, 'package');
const PACKAGE_NAME = '@nexusbloom/mcp-server';

const catalogue = bundle([
  tool('text-length', { annotations: { readOnlyHint: true } }),
  tool('no-params', {
    input_schema: null,
    output_schema: null,
    examples: [],
    source: { runtime: 'node', code: 'exports.run = () => ({ ok: true });' },
  }),
]);

const TYPED_USE = `
import { createClient, textLength, ToolCallError, type ClientOptions } from '${PACKAGE_NAME}/tools';
import type { TextLengthInput, TextLengthOutput } from '${PACKAGE_NAME}/types';

export async function uses(options: ClientOptions): Promise<number> {
  const input: TextLengthInput = { text: 'abc' };
  const out: TextLengthOutput = await createClient(options).textLength(input, { retries: 1 });
  try {
    await textLength(input);
  } catch (error) {
    if (error instanceof ToolCallError && error.is('TIMEOUT')) return error.attempts;
  }
  // @ts-expect-error the text is a string
  await textLength({ text: 1 });
  return out.length;
}
`;

/** A consumer project in `dir` whose node_modules holds the package, as an install would put it. */
async function consumerProject(dir: string, type: 'module' | 'commonjs'): Promise<void> {
  await mkdir(join(dir, 'node_modules', '@nexusbloom'), { recursive: true });
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: `consumer-${type}`, private: true, type }));
  await symlink(PACKAGE, join(dir, 'node_modules', '@nexusbloom', 'mcp-server'), 'dir');
}

describe('the generated package in consumer projects', () => {
  let api: MockApi;

  before(async () => {
    await rm(OUT, { recursive: true, force: true });
    await mkdir(PACKAGE, { recursive: true });
    const source = join(OUT, 'catalogue.json');
    await writeFile(source, JSON.stringify(catalogue));
    const built = await runCli(['build', '--source', source, '--out', PACKAGE, '--json']);
    assert.equal(built.code, 0, built.stderr);
    await consumerProject(join(OUT, 'esm'), 'module');
    await consumerProject(join(OUT, 'cjs'), 'commonjs');
    api = await startMockApi({ manifests: manifestsFromBundle(catalogue) });
  });
  after(async () => {
    await api?.close();
  });

  const settings: Array<[string, string, ts.CompilerOptions]> = [
    [
      'node10 (moduleResolution "node", through typesVersions)',
      'cjs',
      { module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10 },
    ],
    ['node16, an ESM project', 'esm', { module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16 }],
    [
      'nodenext, a CommonJS project (require of ESM)',
      'cjs',
      { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext },
    ],
    ['bundler', 'esm', { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler }],
  ];
  for (const [name, project, options] of settings) {
    it(`type-checks under ${name}, with exactOptionalPropertyTypes and skipLibCheck off`, async () => {
      const file = join(OUT, project, `uses-${options.moduleResolution}.ts`);
      await writeFile(file, TYPED_USE);
      // No @types/node: a consumer need not have it, and checking all of it (skipLibCheck off) would take most of the time.
      const errors = typeErrors(file, { ...options, exactOptionalPropertyTypes: true, skipLibCheck: false, types: [] }, true);
      assert.deepEqual(errors, []);
    });
  }

  it('runs from `import` in an ESM project and `require` in a CommonJS one', async () => {
    const call = (load: string) => `${load}
const client = createClient({ apiUrl: process.env.API_URL, env: {} });
client.textLength({ text: 'four' }).then(async (out) => {
  const none = await client.noParams();
  process.stdout.write(JSON.stringify({ out, none }));
});
`;
    await writeFile(join(OUT, 'esm', 'run.js'), call(`import { createClient } from '${PACKAGE_NAME}/tools';`));
    await writeFile(join(OUT, 'cjs', 'run.js'), call(`const { createClient } = require('${PACKAGE_NAME}/tools');`));
    for (const project of ['esm', 'cjs']) {
      const run = await runProcess(process.execPath, ['run.js'], { cwd: join(OUT, project), env: { ...process.env, API_URL: api.url } });
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(JSON.parse(run.stdout), { out: { length: 4 }, none: { ok: true } }, project);
    }
  });

  it('runs no script when installed: it builds on prepack (publish.test.ts installs it with --omit=dev)', async () => {
    const manifest = JSON.parse(await readFile(join(PACKAGE, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) assert.equal(manifest.scripts[hook], undefined, hook);
    assert.match(manifest.scripts.prepack ?? '', /^tsc /);
  });
});
