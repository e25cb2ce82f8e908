// The generator the way users get it: packed, published to a registry (Verdaccio on 127.0.0.1, no uplinks, seeded
// with the generator's dependencies), installed as a devDependency of a fresh project outside this checkout with npm
// and with pnpm (strict layout), then `init`, `check` and `build` of a billing catalogue named only by the project's
// nexusbloom-gen.config.json; the built server runs under the SDK client against the mock API, and a TypeScript
// consumer of its wrappers compiles and runs. Then a global install, and `npx -y nexusbloom-gen@<version> build` in
// an empty folder.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { manifestsFromBundle, startMockApi, type MockApi } from '../../src/runtime/dev/mock-api.js';
import { REPO_ROOT, runProcess, type CliResult } from '../helpers/cli.js';
import { GENERATOR_DEPENDENCIES, isolatedNpmEnv, startSeededRegistry, type Registry } from '../helpers/registry.js';

const BILLING_CATALOGUE = join(REPO_ROOT, 'test', 'fixtures', 'billing-catalogue.json');
const PNPM = join(REPO_ROOT, 'node_modules', '.bin', 'pnpm');
const GENERATOR = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
/** What the user's project adds next to the generator: a compiler and Node's types for its own code. */
const PROJECT_TOOLS = [`typescript@${GENERATOR.devDependencies.typescript}`, `@types/node@${GENERATOR.dependencies['@types/node']}`];

const billing = JSON.parse(readFileSync(BILLING_CATALOGUE, 'utf8')) as {
  tools: Array<{ slug: string; examples: Array<{ params: Record<string, unknown>; result: unknown }> }>;
};
const invoiceExample = billing.tools.find((tool) => tool.slug === 'invoice-total')!.examples[0]!;

interface PackedEntry {
  filename: string;
  files: Array<{ path: string }>;
}

type Manager = 'npm' | 'pnpm';

describe('the generator installed from a registry into a project of its own', { timeout: 900_000 }, () => {
  let registry: Registry;
  let api: MockApi;
  let scratch: string;
  let npmEnv: Record<string, string>;
  let packed: PackedEntry;
  const timings: string[] = [];

  async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
    const started = Date.now();
    try {
      return await work();
    } finally {
      timings.push(`${label}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
  }

  function run(command: string, args: string[], cwd: string, extraEnv: Record<string, string> = {}): Promise<CliResult> {
    return runProcess(command, args, { cwd, env: { ...npmEnv, ...extraEnv }, timeoutMs: 300_000 });
  }

  function ok(result: CliResult, what: string): CliResult {
    assert.equal(result.code, 0, `${what}: exit ${result.code}\n${result.stdout}\n${result.stderr}`);
    return result;
  }

  before(async () => {
    const [seeded, mock] = await Promise.allSettled([
      timed('seeding the registry', () => startSeededRegistry([...GENERATOR_DEPENDENCIES, 'typescript'])),
      startMockApi({ manifests: manifestsFromBundle(billing) }),
    ]);
    if (seeded.status === 'fulfilled') registry = seeded.value;
    if (mock.status === 'fulfilled') api = mock.value;
    for (const part of [seeded, mock]) if (part.status === 'rejected') throw part.reason;
    scratch = await mkdtemp(join(tmpdir(), 'nb-user-install-'));
    await mkdir(join(scratch, 'home'), { recursive: true });
    npmEnv = isolatedNpmEnv(registry, join(scratch, 'home'));
    // dist/ is this checkout's build (`npm run build`, which prepack runs for a release): packed as it stands.
    const pack = ok(
      await timed('npm pack', () => run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], REPO_ROOT)),
      'npm pack',
    );
    packed = (JSON.parse(pack.stdout) as [PackedEntry])[0];
    ok(
      await timed('npm publish', () => run('npm', ['publish', join(scratch, packed.filename), '--registry', registry.url], scratch)),
      'npm publish',
    );
  });

  after(async () => {
    process.stderr.write(`user-install timings: ${timings.join('; ')}\n`);
    await Promise.all([registry?.close(), api?.close()]);
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('the tarball holds what the CLI reads at run time, and no tests, sources of the CLI or dev scripts', () => {
    const paths = packed.files.map((file) => file.path).sort();
    for (const required of [
      'package.json',
      'bin/run.js',
      'oclif.manifest.json',
      'dist/commands/build.js',
      'dist/commands/init.js',
      'dist/pipeline/compile/compile-package.js',
      'dist/runtime-build/manifest.json',
      'dist/runtime-build/runtime/execution/sdk.d.ts',
      'src/schemas/manifest.schema.json',
      'src/runtime/transport/server.ts',
      'templates/tool.ts.hbs',
      'examples/catalogue.json',
    ]) {
      assert.ok(paths.includes(required), `${required} is in the tarball`);
    }
    assert.deepEqual(
      paths.filter((path) => /(^|\/)(test|tests|__tests__)\/|\.test\.|^\.tmp\/|^generated\/|^node_modules\//.test(path)),
      [],
    );
    // The runtime's sources are copied into every package; its prebuilt declarations are what packages are checked against.
    assert.deepEqual(
      paths.filter(
        (path) =>
          path.endsWith('.ts') && !path.startsWith('src/runtime/') && !(path.startsWith('dist/runtime-build/') && path.endsWith('.d.ts')),
      ),
      [],
      'only the runtime ships as TypeScript (and its prebuilt declarations)',
    );
    assert.deepEqual(
      paths.filter((path) => path.startsWith('src/') && !path.startsWith('src/runtime/') && !path.startsWith('src/schemas/')),
      [],
    );
    assert.equal(paths.includes('bin/dev.js'), false, 'the dev entry needs tsx, a devDependency');
    const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    assert.match(manifest.scripts.prepack!, /pack-build.mjs --clean/, 'a release packs a fresh dist/');
    assert.match(manifest.scripts.prepare!, /pack-build.mjs/, 'a git dependency builds dist/');
  });

  async function userProject(manager: Manager): Promise<void> {
    const project = await mkdtemp(join(scratch, `${manager}-project-`));
    await writeFile(
      join(project, 'package.json'),
      `${JSON.stringify({ name: 'billing-app', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`,
    );
    const exec =
      manager === 'npm'
        ? (args: string[]) => run('npx', ['--no', '--', ...args], project)
        : (args: string[]) => run(PNPM, ['exec', ...args], project);
    const registryFlags = ['--registry', `${registry.url}/`];
    const add = (specs: string[]) =>
      manager === 'npm'
        ? run('npm', ['install', ...registryFlags, ...specs], project)
        : run(PNPM, ['add', ...registryFlags, '--store-dir', join(scratch, 'pnpm-store'), ...specs], project);

    // pnpm fails an install whose dependencies have build scripts nobody approved; esbuild's only checks its binary,
    // which comes in its platform package, and the generator needs no other.
    if (manager === 'pnpm') await writeFile(join(project, 'pnpm-workspace.yaml'), 'allowBuilds:\n  esbuild: false\n');
    ok(
      await timed(`${manager} install of the generator`, () =>
        add(['-D', '-E', `${GENERATOR.name}@${GENERATOR.version}`, ...PROJECT_TOOLS]),
      ),
      `${manager} add`,
    );
    if (manager === 'pnpm')
      assert.equal(
        existsSync(join(project, 'node_modules', '@modelcontextprotocol')),
        false,
        "pnpm's strict layout: the generator's dependencies are not at the top",
      );

    await copyFile(BILLING_CATALOGUE, join(project, 'billing-catalogue.json'));
    const init = ok(
      await exec([
        'nexusbloom-gen',
        'init',
        '--source',
        'billing-catalogue.json',
        '--out',
        'server',
        '--package-name',
        '@acme/billing-mcp-server',
        '--server-name',
        'billing',
        '--product-name',
        'Acme Billing',
        '--default-api-url',
        'https://billing.acme.test/api',
      ]),
      'init',
    );
    assert.match(init.stdout, /Wrote nexusbloom-gen\.config\.json: package @acme\/billing-mcp-server, server billing/);
    const config = JSON.parse(await readFile(join(project, 'nexusbloom-gen.config.json'), 'utf8')) as Record<string, string>;
    assert.equal(config.envPrefix, 'BILLING_');

    const checked = ok(await exec(['nexusbloom-gen', 'check']), 'check');
    assert.match(checked.stdout, /billing-catalogue\.json: 3 tools, no errors/);

    const built = ok(await timed(`${manager}: build (with compile)`, () => exec(['nexusbloom-gen', 'build'])), 'build');
    assert.match(
      built.stdout,
      /Listed by default: 3 of 3 tools plus the meta-tool[^\n]*\nBuilt 3 tools \(0 withheld from the tool list by name\) into .*server: .*compiled\./,
    );
    assert.doesNotMatch(built.stderr, /warning: |Cannot find/, 'the config names everything: no warning');
    const server = join(project, 'server');
    assert.equal((JSON.parse(await readFile(join(server, 'package.json'), 'utf8')) as { name: string }).name, '@acme/billing-mcp-server');
    const bin = await readFile(join(server, 'dist', 'bin.js'), 'utf8');
    assert.doesNotMatch(
      bin,
      /"(?:\.\.\/)+[^"]*node_modules\/|\/\.pnpm\//,
      'module names in the bundle are relative to the package, whatever the layout',
    );

    // The server over stdio: only the bundled bin, before the package's own install.
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(server, 'dist', 'bin.js')],
      env: { PATH: process.env.PATH ?? '', BILLING_API_URL: api.url },
      cwd: project,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'user-install-e2e', version: '1.0.0' }, { capabilities: {} });
    try {
      await client.connect(transport);
      assert.equal(client.getServerVersion()?.name, 'billing');
      const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
      assert.deepEqual(names, ['billing', 'invoice-total', 'refund-payment', 'send_payment_reminder']);
      const before = api.requests.length;
      const result = (await client.callTool({ name: 'invoice-total', arguments: invoiceExample.params })) as CallToolResult;
      assert.equal(result.isError, undefined, JSON.stringify(result.content));
      assert.deepEqual(result.structuredContent, invoiceExample.result);
      assert.deepEqual(
        api.requests.slice(before).map((request) => [request.endpoint, request.slug]),
        [['run', 'invoice-total']],
      );
    } catch (error) {
      throw new Error(`${error instanceof Error ? error.message : String(error)}\nserver stderr:\n${stderr}`, { cause: error });
    } finally {
      await client.close();
    }

    // The wrappers, imported by the project's own TypeScript from the committed server folder.
    ok(
      await timed(`${manager}: adding the generated package`, () =>
        add(manager === 'npm' ? ['--prefer-offline', './server'] : ['--prefer-offline', 'file:./server']),
      ),
      'add ./server',
    );
    await writeFile(
      join(project, 'consumer.ts'),
      [
        "import { invoiceTotal, type InvoiceTotalInput, type InvoiceTotalOutput } from '@acme/billing-mcp-server/tools';",
        '',
        "const input: InvoiceTotalInput = JSON.parse(process.argv[2] ?? '{}');",
        'const output: InvoiceTotalOutput = await invoiceTotal(input);',
        'const total: number = output.total;',
        'process.stdout.write(`${JSON.stringify({ output, total })}\\n`);',
        '',
        '// The wrapper is typed: a misspelt parameter does not compile.',
        '// @ts-expect-error line is not a parameter of invoiceTotal',
        'export const misspelt = () => invoiceTotal({ line: [] });',
        '',
      ].join('\n'),
    );
    const compilerOptions = {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      outDir: 'out',
      types: ['node'],
    };
    await writeFile(join(project, 'tsconfig.json'), `${JSON.stringify({ compilerOptions, files: ['consumer.ts'] }, null, 2)}\n`);
    ok(await exec(['tsc', '-p', 'tsconfig.json']), 'tsc of the consumer');
    const before = api.requests.length;
    const ran = ok(
      await run(process.execPath, [join(project, 'out', 'consumer.js'), JSON.stringify(invoiceExample.params)], project, {
        BILLING_API_URL: api.url,
      }),
      'the consumer',
    );
    assert.deepEqual(JSON.parse(ran.stdout), { output: invoiceExample.result, total: (invoiceExample.result as { total: number }).total });
    assert.deepEqual(
      api.requests.slice(before).map((request) => [request.endpoint, request.slug]),
      [['run', 'invoice-total']],
    );
  }

  it('npm: a devDependency that inits, checks and builds a billing catalogue whose server runs and whose wrappers compile', () =>
    userProject('npm'));

  it('pnpm (strict layout): the same', () => userProject('pnpm'));

  it('npm i -g: the global bin builds and compiles a catalogue named by the config in the working folder', async () => {
    const prefix = join(scratch, 'global');
    ok(
      await timed('npm i -g', () =>
        run(
          'npm',
          ['install', '-g', '--prefer-offline', '--registry', `${registry.url}/`, `${GENERATOR.name}@${GENERATOR.version}`],
          scratch,
          { npm_config_prefix: prefix },
        ),
      ),
      'npm i -g',
    );
    const project = await mkdtemp(join(scratch, 'global-project-'));
    await copyFile(BILLING_CATALOGUE, join(project, 'billing.json'));
    await writeFile(
      join(project, 'nexusbloom-gen.config.json'),
      `${JSON.stringify({ source: 'billing.json', out: 'server', packageName: '@acme/billing-mcp-server', serverName: 'billing', defaultApiUrl: 'https://billing.acme.test/api' })}\n`,
    );
    const built = ok(await timed('global build', () => run(join(prefix, 'bin', 'nexusbloom-gen'), ['build'], project)), 'global build');
    assert.match(
      built.stdout,
      /Listed by default: 3 of 3 tools plus the meta-tool[^\n]*\nBuilt 3 tools \(0 withheld from the tool list by name\) into .*server: .*compiled\./,
    );
    assert.ok(existsSync(join(project, 'server', 'dist', 'bin.js')));
  });

  it('npx -y nexusbloom-gen@<version> build in an empty folder builds and compiles the bundled example', async () => {
    const empty = await mkdtemp(join(scratch, 'npx-'));
    const built = ok(
      await timed('npx -y build', () =>
        run('npx', ['-y', '--prefer-offline', '--registry', `${registry.url}/`, `${GENERATOR.name}@${GENERATOR.version}`, 'build'], empty),
      ),
      'npx -y build',
    );
    assert.match(
      built.stdout,
      /Listed by default: 28 of 31 tools plus the meta-tool[^\n]*\nBuilt 31 tools \(3 withheld from the tool list by name\) into generated: .*compiled\./,
    );
    assert.doesNotMatch(built.stderr, /warning: no nexusbloom-gen\.config\.json/, "the bundled example is NexusBloom's own catalogue");
    for (const file of ['package.json', 'dist/bin.js', 'dist/tools/index.d.ts', 'names.lock.json'])
      assert.ok(existsSync(join(empty, 'generated', file)), `generated/${file}`);
  });
});
