// The example server published to a real npm registry (Verdaccio on 127.0.0.1, no uplinks, seeded with the
// package's dependencies), then run the way users run it: `npx -y @nexusbloom/mcp-server` under the SDK client and
// the MCP Inspector CLI, and installed into a TypeScript project that imports the typed wrappers.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { manifestsFromBundle, startMockApi, type MockApi } from '../../src/runtime/dev/mock-api.js';
import { REPO_ROOT, runProcess } from '../helpers/cli.js';
import { builtExample, EXAMPLE_CATALOGUE } from '../helpers/mcp.js';
import { isolatedNpmEnv, startSeededRegistry, type Registry } from '../helpers/registry.js';

const PACKAGE_NAME = '@nexusbloom/mcp-server';
const INSPECTOR_LAUNCHER = join(
  REPO_ROOT,
  'node_modules',
  '@modelcontextprotocol',
  'inspector',
  'clients',
  'launcher',
  'build',
  'index.js',
);
const HAS_INSPECTOR = existsSync(INSPECTOR_LAUNCHER);
const TSC = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

const catalogue = JSON.parse(readFileSync(EXAMPLE_CATALOGUE, 'utf8')) as {
  tools: Array<{ slug: string; examples?: Array<{ params: Record<string, unknown>; result?: unknown }> }>;
};
const manifests = manifestsFromBundle(catalogue);
const envValidatorExamples = catalogue.tools.find((tool) => tool.slug === 'env-validator')!.examples!;
/** tools/list: every slug inside the MCP tool-name grammar (catalogue-api.md, "Names"), and the meta-tool. */
const LISTED_TOOLS = catalogue.tools.filter((tool) => /^[A-Za-z0-9_-]{1,64}$/.test(tool.slug)).length + 1;

interface PackedFile {
  path: string;
}

describe('publishing the example server to a private registry', { timeout: 600_000 }, () => {
  let registry: Registry;
  let api: MockApi;
  let packageDir: string;
  let scratch: string;
  let npmEnv: Record<string, string>;
  let version: string;

  before(async () => {
    // Settled one by one, so that whatever did start is closed by after() when another part fails.
    const [built, seeded, mock] = await Promise.allSettled([builtExample(), startSeededRegistry(), startMockApi({ manifests })]);
    if (seeded.status === 'fulfilled') registry = seeded.value;
    if (mock.status === 'fulfilled') api = mock.value;
    for (const part of [built, seeded, mock]) if (part.status === 'rejected') throw part.reason;
    if (built.status !== 'fulfilled') return;
    // A private copy inside the repo: `npm publish` runs the package's `prepack` (tsc), which finds its compiler and
    // the dependencies' types in the repo's node_modules, and must not rewrite the shared e2e build.
    packageDir = join(REPO_ROOT, '.tmp', 'publish-example', String(process.pid));
    await rm(packageDir, { recursive: true, force: true });
    await mkdir(join(packageDir, '..'), { recursive: true });
    await cp(built.value, packageDir, { recursive: true, filter: (source) => !source.includes(`${built.value}/node_modules`) });
    version = (JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string }).version;
    scratch = await mkdtemp(join(tmpdir(), 'nb-publish-'));
    npmEnv = isolatedNpmEnv(registry, join(scratch, 'home'));
    await mkdir(join(scratch, 'home'), { recursive: true });
  });

  after(async () => {
    await Promise.all([registry?.close(), api?.close()]);
    if (scratch) await rm(scratch, { recursive: true, force: true });
    if (packageDir) await rm(packageDir, { recursive: true, force: true });
  });

  it('the registry is offline: a package that is not seeded is a 404, never fetched from elsewhere', async () => {
    const answer = await fetch(`${registry.url}/left-pad`);
    assert.equal(answer.status, 404);
    const sdk = (await (await fetch(`${registry.url}/@modelcontextprotocol%2fsdk`)).json()) as { versions: Record<string, unknown> };
    assert.ok('1.32.2' in sdk.versions);
  });

  it('npm pack --dry-run: the tarball holds dist/, data/, README.md and package.json, no sources or tests', async () => {
    const packed = await runProcess('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: packageDir, env: npmEnv });
    assert.equal(packed.code, 0, packed.stderr);
    const [entry] = JSON.parse(packed.stdout) as Array<{ name: string; version: string; files: PackedFile[] }>;
    assert.equal(entry!.name, PACKAGE_NAME);
    const paths = entry!.files.map((file) => file.path).sort();
    const outside = paths.filter(
      (path) => !path.startsWith('dist/') && !path.startsWith('data/') && path !== 'README.md' && path !== 'package.json',
    );
    assert.deepEqual(outside, []);
    assert.deepEqual(
      paths.filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts')),
      [],
    );
    assert.deepEqual(
      paths.filter((path) => /(^|\/)(src|test|tests|__tests__)\/|\.test\./.test(path)),
      [],
    );
    for (const required of [
      'README.md',
      'package.json',
      'data/catalogue.json',
      'dist/bin.js',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/tools/index.js',
      'dist/tools/index.d.ts',
      'dist/types.d.ts',
    ]) {
      assert.ok(paths.includes(required), `${required} is in the tarball`);
    }
  });

  it('npm publish puts it in the registry', async () => {
    const published = await runProcess('npm', ['publish', '--registry', registry.url], { cwd: packageDir, env: npmEnv });
    assert.equal(published.code, 0, `${published.stdout}\n${published.stderr}\n${registry.log()}`);
    const packument = (await (await fetch(`${registry.url}/@nexusbloom%2fmcp-server`)).json()) as {
      'dist-tags': Record<string, string>;
      versions: Record<string, { bin: Record<string, string> }>;
    };
    assert.equal(packument['dist-tags'].latest, version);
    assert.deepEqual(packument.versions[version]!.bin, { 'mcp-server': 'dist/bin.js' });
  });

  it('npx -y @nexusbloom/mcp-server, driven by the SDK client: tools, a call through the API, a resource, a prompt', async () => {
    const emptyFolder = await mkdtemp(join(scratch, 'npx-'));
    const transport = new StdioClientTransport({
      command: 'npx',
      args: ['-y', '--registry', registry.url, PACKAGE_NAME],
      env: { ...npmEnv, NEXUSBLOOM_API_URL: api.url },
      cwd: emptyFolder,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'publish-e2e', version: '1.0.0' }, { capabilities: {} });
    try {
      // The first request waits for npx to install the package and its dependencies from the registry.
      await client.connect(transport, { timeout: 180_000 });
      assert.equal(client.getServerVersion()?.name, 'nexusbloom');

      const { tools } = await client.listTools();
      assert.equal(tools.length, LISTED_TOOLS, 'the advertised catalogue tools and the meta-tool');
      assert.ok(tools.some((tool) => tool.name === 'env-validator'));

      const before = api.requests.length;
      const [example] = envValidatorExamples;
      const result = (await client.callTool({ name: 'env-validator', arguments: example!.params })) as CallToolResult;
      assert.equal(result.isError, undefined, JSON.stringify(result.content));
      assert.deepEqual(result.structuredContent, example!.result);
      assert.deepEqual(
        api.requests.slice(before).map((request) => [request.endpoint, request.slug]),
        [['run', 'env-validator']],
      );

      const [catalogueResource] = (await client.readResource({ uri: 'nexusbloom://catalogue' })).contents;
      const index = JSON.parse('text' in catalogueResource! ? catalogueResource.text : '{}') as {
        count: number;
        tools: Array<{ slug: string }>;
      };
      assert.equal(index.count, catalogue.tools.length);
      assert.deepEqual(index.tools.map((tool) => tool.slug).sort(), catalogue.tools.map((tool) => tool.slug).sort());

      const prompt = await client.getPrompt({ name: 'use-tool', arguments: { slug: 'env-validator' } });
      const content = prompt.messages[0]!.content;
      const text = content.type === 'text' ? content.text : '';
      assert.match(text, /Use the tool "env-validator"/);
      assert.match(text, /env_content \(string, required\)/);
    } catch (error) {
      throw new Error(`${error instanceof Error ? error.message : String(error)}\nserver stderr:\n${stderr}`, { cause: error });
    } finally {
      await client.close();
    }
  });

  it(
    HAS_INSPECTOR
      ? 'npx -y @nexusbloom/mcp-server, driven by the MCP Inspector CLI: tools/list, tools/call, resources/read, prompts/get'
      : 'MCP Inspector CLI part left out: @modelcontextprotocol/inspector is not installed in node_modules',
    async () => {
      if (!HAS_INSPECTOR) {
        assert.equal(existsSync(INSPECTOR_LAUNCHER), false);
        return;
      }
      const emptyFolder = await mkdtemp(join(scratch, 'inspector-'));
      const serverEnv = [
        'npm_config_registry',
        'npm_config_userconfig',
        'npm_config_cache',
        'npm_config_update_notifier',
        'HOME',
        'PATH',
      ].flatMap((key) => ['-e', `${key}=${npmEnv[key]!}`]);
      const inspect = async (method: string[]): Promise<unknown> => {
        const run = await runProcess(
          process.execPath,
          [
            INSPECTOR_LAUNCHER,
            '--cli',
            '--cwd',
            emptyFolder,
            ...serverEnv,
            '-e',
            `NEXUSBLOOM_API_URL=${api.url}`,
            ...method,
            '--',
            'npx',
            '-y',
            '--registry',
            registry.url,
            PACKAGE_NAME,
          ],
          { cwd: emptyFolder, env: npmEnv, timeoutMs: 180_000 },
        );
        assert.equal(run.code, 0, `${method.join(' ')}: exit ${run.code}\n${run.stdout}\n${run.stderr}`);
        return JSON.parse(run.stdout);
      };

      const listed = (await inspect(['--method', 'tools/list'])) as { tools: Array<{ name: string }> };
      assert.equal(listed.tools.length, LISTED_TOOLS);
      const [, example] = envValidatorExamples;
      const called = (await inspect([
        '--method',
        'tools/call',
        '--tool-name',
        'env-validator',
        '--tool-args-json',
        JSON.stringify(example!.params),
      ])) as CallToolResult;
      assert.deepEqual(called.structuredContent, example!.result);
      const read = (await inspect(['--method', 'resources/read', '--uri', 'nexusbloom://catalogue'])) as {
        contents: Array<{ text: string }>;
      };
      assert.equal((JSON.parse(read.contents[0]!.text) as { count: number }).count, catalogue.tools.length);
      const prompt = (await inspect(['--method', 'prompts/get', '--prompt-name', 'use-tool', '--prompt-args', 'slug=env-validator'])) as {
        messages: Array<{ content: { text: string } }>;
      };
      assert.match(prompt.messages[0]!.content.text, /Use the tool "env-validator"/);
    },
  );

  it('installs in its own folder with --omit=dev, without a compiler: nothing is built on install', async () => {
    const copy = await mkdtemp(join(scratch, 'omit-dev-'));
    await cp(packageDir, copy, { recursive: true, filter: (source) => !source.includes(`${packageDir}/node_modules`) });
    const installed = await runProcess('npm', ['install', '--omit=dev', '--no-package-lock', '--no-audit', '--no-fund'], {
      cwd: copy,
      env: npmEnv,
    });
    assert.equal(installed.code, 0, installed.stdout + installed.stderr);
    assert.equal(existsSync(join(copy, 'node_modules', 'typescript')), false);
    assert.equal(existsSync(join(copy, 'node_modules', 'ajv')), true);
  });

  it('installs into a TypeScript project whose typed call of envValidator compiles and runs against the API', async () => {
    const project = await mkdtemp(join(scratch, 'consumer-'));
    await writeFile(
      join(project, 'package.json'),
      `${JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`,
    );
    const installed = await runProcess('npm', ['install', `${PACKAGE_NAME}@${version}`], { cwd: project, env: npmEnv });
    assert.equal(installed.code, 0, installed.stderr);
    // The package has no install scripts, so npm has none to warn about or run.
    assert.doesNotMatch(installed.stdout + installed.stderr, /install script|prepare/i);
    const installedPackage = join(project, 'node_modules', '@nexusbloom', 'mcp-server');
    assert.equal(existsSync(join(installedPackage, 'dist', 'tools', 'index.d.ts')), true);
    assert.equal(existsSync(join(installedPackage, 'src')), false, 'sources are not published');

    const [, example] = envValidatorExamples;
    await writeFile(
      join(project, 'consumer.ts'),
      [
        "import { envValidator, type EnvValidatorInput, type EnvValidatorOutput } from '@nexusbloom/mcp-server/tools';",
        '',
        `const input: EnvValidatorInput = JSON.parse(process.argv[2] ?? '{}');`,
        'const output: EnvValidatorOutput = await envValidator(input);',
        'const missing: string[] = output.missing;',
        'process.stdout.write(`${JSON.stringify({ output, missing })}\\n`);',
        '',
        '// The wrapper is typed: a misspelt parameter does not compile.',
        '// @ts-expect-error env_contents is not a parameter of envValidator',
        "export const misspelt = () => envValidator({ env_contents: 'A=1' });",
        '',
      ].join('\n'),
    );
    await writeFile(
      join(project, 'tsconfig.json'),
      `${JSON.stringify(
        {
          compilerOptions: {
            target: 'ES2022',
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            strict: true,
            outDir: 'out',
            types: ['node'],
            typeRoots: [join(REPO_ROOT, 'node_modules', '@types')],
          },
          files: ['consumer.ts'],
        },
        null,
        2,
      )}\n`,
    );
    const compiled = await runProcess(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: project, env: npmEnv });
    assert.equal(compiled.code, 0, compiled.stdout + compiled.stderr);

    const before = api.requests.length;
    const ran = await runProcess(process.execPath, [join(project, 'out', 'consumer.js'), JSON.stringify(example!.params)], {
      cwd: project,
      env: { PATH: process.env.PATH ?? '', NEXUSBLOOM_API_URL: api.url },
    });
    assert.equal(ran.code, 0, ran.stderr);
    const printed = JSON.parse(ran.stdout) as { output: unknown; missing: string[] };
    assert.deepEqual(printed.output, example!.result);
    assert.deepEqual(printed.missing, (example!.result as { missing: string[] }).missing);
    assert.deepEqual(
      api.requests.slice(before).map((request) => [request.endpoint, request.slug]),
      [['run', 'env-validator']],
    );
  });
});
