// The config file found by convention (nexusbloom-gen.config.json in the working folder or a parent), what it may
// name (source, out), what flags and --config take over, `init`, and the warning a foreign catalogue gets when it
// would take NexusBloom's names.

import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { ask, suggestions } from '../../src/cli/init-answers.js';
import { findConfigFile } from '../../src/cli/config-file.js';
import { REPO_ROOT, runCli } from '../helpers/cli.js';
import { EXAMPLE_CATALOGUE } from '../helpers/mcp.js';

const BILLING = join(REPO_ROOT, 'test', 'fixtures', 'billing-catalogue.json');
const BILLING_NAMES = { packageName: '@acme/billing-mcp-server', serverName: 'billing', defaultApiUrl: 'https://billing.acme.test/api' };

interface BuildJson {
  outDir: string;
  tools: number;
  config: { file: string | null; names: Record<string, string>; warning: string | null };
}

function manifestOf(dir: string): { name: string } {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string };
}

describe('nexusbloom-gen.config.json by convention', () => {
  let scratch: string;
  let project: string;

  before(() => {
    // Real path: a temp folder behind a symlink (macOS) would be named two ways.
    scratch = realpathSync(mkdtempSync(join(tmpdir(), 'nexusbloom-convention-')));
    project = join(scratch, 'billing-app');
    mkdirSync(join(project, 'deep', 'er'), { recursive: true });
    copyFileSync(BILLING, join(project, 'billing.json'));
    writeFileSync(
      join(project, 'nexusbloom-gen.config.json'),
      `${JSON.stringify({ source: 'billing.json', out: 'server', ...BILLING_NAMES }, null, 2)}\n`,
    );
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('findConfigFile: the working folder, else the nearest parent, else none', () => {
    assert.equal(findConfigFile(project), join(project, 'nexusbloom-gen.config.json'));
    assert.equal(findConfigFile(join(project, 'deep', 'er')), join(project, 'nexusbloom-gen.config.json'));
    assert.equal(findConfigFile(scratch), null);
  });

  it('plain `build` from a subfolder: source and out relative to the file, its names, no warning', async () => {
    const result = await runCli(['build', '--no-compile', '--json'], { cwd: join(project, 'deep', 'er') });
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout) as BuildJson;
    assert.equal(report.outDir, join(project, 'server'));
    assert.equal(report.tools, 3);
    assert.deepEqual(report.config, { file: join(project, 'nexusbloom-gen.config.json'), names: BILLING_NAMES, warning: null });
    assert.equal(manifestOf(join(project, 'server')).name, '@acme/billing-mcp-server');
    assert.doesNotMatch(result.stderr, /warning/);
  });

  it('plain `check` reads the source the file names', async () => {
    const result = await runCli(['check'], { cwd: project });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout.trim(), `${join(project, 'billing.json')}: 3 tools, no errors, 0 warning(s).`);
  });

  it('flags win over the file: --source and --out as given, relative to the working folder', async () => {
    const result = await runCli(['build', '--no-compile', '--json', '--source', EXAMPLE_CATALOGUE, '--out', 'elsewhere'], { cwd: project });
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout) as BuildJson;
    assert.equal(report.outDir, join(project, 'elsewhere'));
    assert.equal(report.tools, 31);
    assert.equal(manifestOf(join(project, 'elsewhere')).name, '@acme/billing-mcp-server', 'the names still come from the file');
  });

  it('--config names another file, and the one found by convention is not read', async () => {
    const other = join(scratch, 'other.json');
    writeFileSync(
      other,
      JSON.stringify({ packageName: '@acme/other-server', serverName: 'other', defaultApiUrl: 'https://other.test/api' }),
    );
    const out = join(scratch, 'other-out');
    const result = await runCli(['build', '--no-compile', '--json', '--config', other, '--source', BILLING, '--out', out], {
      cwd: project,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal((JSON.parse(result.stdout) as BuildJson).config.file, other);
    assert.equal(manifestOf(out).name, '@acme/other-server');
  });

  it('a foreign catalogue with no config file warns once, naming the file to create and the names it took', async () => {
    const out = join(scratch, 'unnamed');
    const result = await runCli(['build', '--no-compile', '--json', '--source', BILLING, '--out', out], { cwd: scratch });
    assert.equal(result.code, 0, result.stderr);
    const warnings = result.stderr.split('\n').filter((line) => line.startsWith('warning: '));
    assert.equal(warnings.length, 1, result.stderr);
    const [warning] = warnings;
    assert.ok(warning!.includes(`Create ${join(scratch, 'nexusbloom-gen.config.json')}`), warning);
    assert.ok(
      warning!.includes('packageName "@nexusbloom/mcp-server", serverName "nexusbloom", defaultApiUrl "https://nexusbloom.dev/api"'),
      warning,
    );
    assert.match(warning!, /nexusbloom-gen init/);
    const report = JSON.parse(result.stdout) as BuildJson;
    assert.equal(report.config.file, null);
    assert.equal(report.config.warning, warning);
  });

  it('a config file that leaves out defaultApiUrl warns about that name only', async () => {
    const dir = join(scratch, 'partial');
    mkdirSync(dir);
    writeFileSync(join(dir, 'nexusbloom-gen.config.json'), JSON.stringify({ packageName: '@acme/partial', serverName: 'partial' }));
    const result = await runCli(['build', '--no-compile', '--source', BILLING, '--out', join(dir, 'out')], { cwd: dir });
    assert.equal(result.code, 0, result.stderr);
    const warnings = result.stderr.split('\n').filter((line) => line.startsWith('warning: '));
    assert.deepEqual(warnings, [
      `warning: ${join(dir, 'nexusbloom-gen.config.json')} does not set defaultApiUrl, so ${BILLING} was built with NexusBloom's: defaultApiUrl "https://nexusbloom.dev/api". Add it to ${join(dir, 'nexusbloom-gen.config.json')}.`,
    ]);
  });

  it('the bundled example under its own names gives no warning', async () => {
    const result = await runCli(['build', '--no-compile', '--json', '--out', join(scratch, 'example')], { cwd: scratch });
    assert.equal(result.code, 0, result.stderr);
    assert.equal((JSON.parse(result.stdout) as BuildJson).config.warning, null);
    assert.doesNotMatch(result.stderr, /warning: no nexusbloom-gen\.config\.json/);
  });

  it('an option the file may not hold is still an error naming it', async () => {
    const dir = join(scratch, 'typo');
    mkdirSync(dir);
    writeFileSync(join(dir, 'nexusbloom-gen.config.json'), JSON.stringify({ sourc: 'billing.json' }));
    const result = await runCli(['build', '--no-compile', '--json'], { cwd: dir });
    assert.equal(result.code, 1);
    const { error } = JSON.parse(result.stdout) as { error: { message: string } };
    assert.match(error.message, /unknown option "sourc" \(known: source, out, packageName/);
  });
});

describe('nexusbloom-gen init', () => {
  let scratch: string;

  before(() => {
    scratch = realpathSync(mkdtempSync(join(tmpdir(), 'nexusbloom-init-')));
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('with stdin not a terminal: writes the flags, and suggestions from the project for the rest; --json returns them', async () => {
    const dir = join(scratch, 'flags');
    mkdirSync(dir);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: '@acme/billing-app' }));
    const result = await runCli(['init', '--json', '--source', 'billing.json', '--default-api-url', 'https://billing.acme.test/api'], {
      cwd: dir,
    });
    assert.equal(result.code, 0, result.stderr);
    const want = {
      source: 'billing.json',
      out: 'generated',
      packageName: '@acme/billing-app-mcp-server',
      serverName: 'billing-app',
      productName: 'Billing App',
      metaToolName: 'billing-app',
      uriScheme: 'billing-app',
      envPrefix: 'BILLING_APP_',
      defaultApiUrl: 'https://billing.acme.test/api',
    };
    assert.deepEqual(JSON.parse(result.stdout), { file: join(dir, 'nexusbloom-gen.config.json'), config: want, prompted: false });
    assert.equal(readFileSync(join(dir, 'nexusbloom-gen.config.json'), 'utf8'), `${JSON.stringify(want, null, 2)}\n`);

    copyFileSync(BILLING, join(dir, 'billing.json'));
    const built = await runCli(['build', '--no-compile', '--json'], { cwd: dir });
    assert.equal(built.code, 0, built.stderr);
    assert.equal((JSON.parse(built.stdout) as BuildJson).config.warning, null, 'what init writes leaves no name to NexusBloom');
    assert.equal(manifestOf(join(dir, 'generated')).name, '@acme/billing-app-mcp-server');
  });

  it('an existing file is kept unless --force', async () => {
    const dir = join(scratch, 'exists');
    mkdirSync(dir);
    writeFileSync(join(dir, 'nexusbloom-gen.config.json'), '{"packageName":"@acme/mine"}\n');
    const kept = await runCli(['init', '--package-name', '@acme/theirs'], { cwd: dir });
    assert.equal(kept.code, 1);
    assert.match(kept.stderr, /nexusbloom-gen\.config\.json already exists: edit it, or pass --force/);
    assert.equal(readFileSync(join(dir, 'nexusbloom-gen.config.json'), 'utf8'), '{"packageName":"@acme/mine"}\n');
    const forced = await runCli(['init', '--force', '--package-name', '@acme/theirs', '--server-name', 'theirs'], { cwd: dir });
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal(
      (JSON.parse(readFileSync(join(dir, 'nexusbloom-gen.config.json'), 'utf8')) as { packageName: string }).packageName,
      '@acme/theirs',
    );
    assert.match(forced.stderr, /names no source/);
    assert.match(forced.stderr, /names no defaultApiUrl: add the API your server calls, or its users must set THEIRS_API_URL/);
  });

  it('a value that cannot be used is refused with exit 2 naming the flag, and nothing is written', async () => {
    const dir = join(scratch, 'bad');
    mkdirSync(dir);
    const result = await runCli(['init', '--package-name', 'Billing Server'], { cwd: dir });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--package-name: Billing Server is not an npm package name/);
    assert.equal(existsSync(join(dir, 'nexusbloom-gen.config.json')), false);
  });

  it('suggestions: an API source names the server after its host and is the default API', () => {
    const got = suggestions({ source: 'https://api.billing.acme.com/api' }, scratch);
    assert.equal(got.packageName, 'billing-mcp-server');
    assert.equal(got.serverName, 'billing');
    assert.equal(got.envPrefix, 'BILLING_');
    assert.equal(got.defaultApiUrl, 'https://api.billing.acme.com/api');
  });

  it('prompts: one question per value, an empty answer takes the suggestion, later suggestions follow earlier answers', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let asked = '';
    output.on('data', (chunk: Buffer) => (asked += chunk.toString()));
    input.end(['https://api.ledger.test/api', '', '@acme/ledger-server', '', '', '', '', '', ''].join('\n') + '\n');
    const answers = await ask(
      ['source', 'out', 'packageName', 'serverName', 'productName', 'metaToolName', 'uriScheme', 'envPrefix', 'defaultApiUrl'],
      (given) => suggestions(given, scratch),
      {},
      { input, output },
    );
    assert.deepEqual(answers, {
      source: 'https://api.ledger.test/api',
      out: 'generated',
      packageName: '@acme/ledger-server',
      serverName: 'ledger',
      productName: 'Ledger',
      metaToolName: 'ledger',
      uriScheme: 'ledger',
      envPrefix: 'LEDGER_',
      defaultApiUrl: 'https://api.ledger.test/api',
    });
    assert.match(asked, /^Catalogue \(bundle file or API URL\): Folder to write the server package to \(generated\): /);
    assert.match(asked, /MCP server name \(ledger\): /);
  });
});
