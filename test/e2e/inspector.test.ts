// The generated server driven by a client we did not write: the MCP Inspector CLI (2.12.0, CLI mode) over stdio.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { manifestsFromBundle, startMockApi, type MockApi } from '../../src/runtime/dev/mock-api.js';
import { REPO_ROOT, runProcess, type CliResult } from '../helpers/cli.js';
import { builtExample, EXAMPLE_CATALOGUE, serverEnv } from '../helpers/mcp.js';

/** The CLI client's own entry (the package's `inspector` bin is a launcher that picks a client by flag). */
const INSPECTOR_CLI = join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'inspector', 'clients', 'cli', 'build', 'index.js');

describe('MCP Inspector CLI against the generated server', () => {
  let packageDir: string;
  let api: MockApi;
  let home: string;

  /** Runs the Inspector CLI with `args`, then the server command; the Inspector's catalog and config stay in a temp HOME. */
  function inspect(args: string[]): Promise<CliResult> {
    return runProcess(
      process.execPath,
      [INSPECTOR_CLI, '-e', `NEXUSBLOOM_API_URL=${api.url}`, ...args, process.execPath, join(packageDir, 'dist', 'bin.js')],
      {
        cwd: packageDir,
        env: serverEnv({
          HOME: home,
          MCP_CATALOG_PATH: join(home, 'mcp.json'),
          MCP_CLIENT_CONFIG_PATH: join(home, 'client.json'),
          NO_COLOR: '1',
        }),
      },
    );
  }

  before(async () => {
    packageDir = await builtExample();
    api = await startMockApi({ manifests: manifestsFromBundle(JSON.parse(readFileSync(EXAMPLE_CATALOGUE, 'utf8'))) });
    home = await mkdtemp(join(tmpdir(), 'nb-inspector-'));
  });
  after(async () => {
    await api?.close();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('tools/list shows the 28 advertised tools and the meta-tool', async () => {
    const result = await inspect(['--method', 'tools/list']);
    assert.equal(result.code, 0, result.stderr);
    const names = (JSON.parse(result.stdout) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name);
    assert.equal(names.length, 29);
    assert.ok(names.includes('env-validator') && names.includes('nexusbloom'));
    assert.ok(!names.includes('git/commit-lint'));
  });

  it('tools/call of env-validator runs against the mock API', async () => {
    const before = api.requests.length;
    const result = await inspect([
      '--method',
      'tools/call',
      '--tool-name',
      'env-validator',
      '--tool-args-json',
      '{"env_content":"DEBUG=true"}',
    ]);
    assert.equal(result.code, 0, result.stderr);
    const payload = JSON.parse(result.stdout) as { isError?: boolean; structuredContent: { valid: boolean; keys: string[] } };
    assert.equal(payload.isError, undefined);
    assert.deepEqual([payload.structuredContent.valid, payload.structuredContent.keys], [true, ['DEBUG']]);
    assert.deepEqual(
      api.requests.slice(before).map((request) => [request.endpoint, request.slug]),
      [['run', 'env-validator']],
    );
  });

  it('a failing call exits 5 (isError) and carries the error envelope', async () => {
    const result = await inspect(['--method', 'tools/call', '--tool-name', 'env-validator', '--tool-args-json', '{}']);
    assert.equal(result.code, 5, result.stderr);
    const payload = JSON.parse(result.stdout) as { isError: boolean; structuredContent: { code: string; error: string } };
    assert.equal(payload.isError, true);
    assert.equal(payload.structuredContent.code, 'VALIDATION_ERROR');
    assert.match(payload.structuredContent.error, /env_content/);
  });

  it('resources/read returns a percent-encoded tool manifest', async () => {
    const result = await inspect(['--method', 'resources/read', '--uri', 'nexusbloom://tools/git%2Fcommit-lint']);
    assert.equal(result.code, 0, result.stderr);
    const contents = (JSON.parse(result.stdout) as { contents: Array<{ text: string }> }).contents;
    assert.equal((JSON.parse(contents[0]!.text) as { slug: string }).slug, 'git/commit-lint');
  });

  it('prompts/get builds use-tool from the live catalogue', async () => {
    // --prompt-args is variadic, so it goes before the other options and the server command.
    const result = await inspect(['--prompt-args', 'slug=env-validator', '--method', 'prompts/get', '--prompt-name', 'use-tool']);
    assert.equal(result.code, 0, result.stderr);
    const messages = (JSON.parse(result.stdout) as { messages: Array<{ content: { text: string } }> }).messages;
    assert.match(messages[0]!.content.text, /Use the tool "env-validator"/);
    assert.match(messages[0]!.content.text, /"env_content": "DEBUG=true"/);
  });
});
