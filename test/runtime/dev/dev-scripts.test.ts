// The generated package's developer scripts (catalogue-check, agent-demo, shell) against the built example package:
// compiled scripts run as `npm run` would run them, and the same entry functions called in-process with injected faults.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runAgentDemo, typoOf } from '../../../src/runtime/dev/agent-demo.js';
import { runCatalogueCheck, type CatalogueCheckReport } from '../../../src/runtime/dev/catalogue-check.js';
import { manifestsFromBundle, startMockApi, type MockApi } from '../../../src/runtime/dev/mock-api.js';
import { runProcess, type CliResult } from '../../helpers/cli.js';
import { builtExample, EXAMPLE_CATALOGUE, serverEnv } from '../../helpers/mcp.js';

const manifests = manifestsFromBundle(JSON.parse(readFileSync(EXAMPLE_CATALOGUE, 'utf8')));

function runScript(
  cwd: string,
  script: string,
  args: string[],
  options: { input?: string; env?: Record<string, string> } = {},
): Promise<CliResult> {
  return runProcess(process.execPath, [join(cwd, 'dist', 'runtime', 'dev', script), ...args], {
    cwd,
    env: serverEnv(options.env),
    input: options.input ?? '',
  });
}

function capture(): { io: { stdout: (line: string) => void; stderr: (line: string) => void }; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (line) => void out.push(line), stderr: (line) => void err.push(line) }, out, err };
}

describe('developer scripts of the generated package', () => {
  let packageDir: string;
  let api: MockApi;

  before(async () => {
    packageDir = await builtExample();
    api = await startMockApi({ manifests });
  });
  after(async () => api?.close());

  it('ships the scripts and their npm run entries', () => {
    const scripts = (JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    assert.equal(scripts['catalogue-check'], 'node dist/runtime/dev/catalogue-check.js');
    assert.equal(scripts['agent-demo:mock'], 'node dist/runtime/dev/agent-demo.js --mock');
    assert.equal(scripts['shell:mock'], 'node dist/runtime/dev/shell.js --mock');
  });

  it('catalogue-check --mock walks all 31 tools through the real server and passes', async () => {
    const result = await runScript(packageDir, 'catalogue-check.js', ['--mock']);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const lines = result.stdout.trim().split('\n');
    assert.equal(lines.filter((line) => line.startsWith('ok ')).length, 31);
    assert.match(
      lines.find((line) => line.includes('"git/commit-lint"'))!,
      /withheld +listing, description, example, run, batch, resource/,
    );
    assert.match(lines.at(-1)!, /^PASS: 31 of 31 tools passed, 0 failed \(28 advertised, 3 withheld/);
  });

  it('catalogue-check fails and names the tool and the check when a tool fails to run', async () => {
    api.setFaults({ run: { 'semver-compare': { kind: 'status', status: 500 } } });
    const { io, out } = capture();
    try {
      const code = await runCatalogueCheck(['--json'], io, { packageRoot: packageDir, env: serverEnv({ NEXUSBLOOM_API_URL: api.url }) });
      assert.equal(code, 1);
    } finally {
      api.setFaults({});
    }
    const report = JSON.parse(out.join('\n')) as CatalogueCheckReport;
    assert.equal(report.ok, false);
    assert.equal(report.mock, false);
    assert.equal(report.apiUrl, api.url);
    assert.deepEqual([report.passed, report.failed], [30, 1]);
    const failed = report.results.find((result) => !result.ok)!;
    assert.equal(failed.slug, 'semver-compare');
    assert.deepEqual(
      failed.failures.map((failure) => failure.check),
      ['run', 'batch'],
    );
    assert.match(failed.failures[0]!.message, /UPSTREAM_ERROR/);
  });

  it('catalogue-check says once that the API is unreachable and exits 1', async () => {
    const result = await runScript(packageDir, 'catalogue-check.js', [], { env: { NEXUSBLOOM_API_URL: 'http://127.0.0.1:9/api' } });
    assert.equal(result.code, 1);
    assert.match(result.stdout, /FAIL {2}the API at http:\/\/127\.0\.0\.1:9\/api is not reachable/);
    assert.doesNotMatch(result.stdout, /^ok /m);
  });

  it('agent-demo --mock walks list, search, schema, run, batch, typo recovery and the recover prompt', async () => {
    const result = await runScript(packageDir, 'agent-demo.js', ['--mock']);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    for (const step of ['1. tools/list', '2. search', '3. schema', '4. run', '5. batch', '6. a typo', '7. the recover prompt'])
      assert.match(result.stdout, new RegExp(step.replace('.', '\\.')));
    assert.match(result.stdout, /run "env-validatr" instead of "env-validator"/);
    assert.match(result.stdout, /TOOL_NOT_FOUND \(retryable: false\)/);
    assert.match(result.stdout, /recovering with the suggestion "env-validator"/);
    assert.match(result.stdout, /Done: every step of the agent path worked\./);
  });

  it('agent-demo checks the API first and says so in one message when it is not there', async () => {
    const { io, out, err } = capture();
    const code = await runAgentDemo([], io, { packageRoot: packageDir, env: serverEnv({ NEXUSBLOOM_API_URL: 'http://127.0.0.1:9/api' }) });
    assert.equal(code, 1);
    assert.deepEqual(out, []);
    assert.equal(err.length, 1);
    assert.match(err[0]!, /the API at http:\/\/127\.0\.0\.1:9\/api is not reachable .*agent-demo:mock/);
  });

  it('agent-demo against a running API follows the given goal', async () => {
    const { io, out } = capture();
    const code = await runAgentDemo(['--goal', 'convert a color'], io, {
      packageRoot: packageDir,
      env: serverEnv({ NEXUSBLOOM_API_URL: api.url }),
    });
    assert.equal(code, 0, out.join('\n'));
    assert.ok(
      out.some((line) => line.includes('schema: exact parameters of "color-converter"')),
      out.join('\n'),
    );
    assert.equal(typoOf('env-validator'), 'env-validatr');
  });

  it('shell runs piped commands over real stdio and keeps going after errors', async () => {
    const input = [
      'help',
      'list',
      'search validate env file',
      'schema git/commit-lint',
      'call env-validator {"env_content":"DEBUG=true"}',
      'call env-validator {}',
      'call env-validator {not json',
      'read nexusbloom://tools/git%2Fcommit-lint',
      'read nexusbloom://tools/env-validatr',
      'prompt use-tool slug=slugify',
      'prompt recover error=VALIDATION_ERROR slug=git/commit-lint',
      'prompt find-tool goal=convert a color to hex',
      'frobnicate',
      'quit',
      'list',
    ].join('\n');
    const result = await runScript(packageDir, 'shell.js', ['--mock'], { input: `${input}\n` });
    assert.equal(result.code, 0, result.stderr);
    const out = result.stdout;
    assert.match(out, /Commands:/);
    assert.match(out, /^env-validator: Env File Validator$/m);
    assert.match(out, /^nexusbloom: /m);
    assert.match(out, /1\. env-validator:/);
    assert.match(out, /"slug": "git\/commit-lint"/);
    assert.match(out, /^\{"valid":true,"keys":\["DEBUG"\]/m);
    assert.match(out, /^isError \{"success":false.*"code":"VALIDATION_ERROR"/m);
    assert.match(out, /^error: the arguments are not JSON/m);
    assert.match(out, /"call": \{\n\s+"tool": "nexusbloom"/);
    assert.match(out, /^error: .*env-validator/m);
    assert.match(out, /Use the tool "slugify"/);
    assert.match(out, /Code VALIDATION_ERROR \(not retryable\)[\s\S]*The tool "git\/commit-lint" takes 3 parameters; required: message/);
    assert.match(out, /Goal: convert a color to hex\n[\s\S]*color-converter/);
    assert.match(out, /unknown command "frobnicate"/);
    // `quit` ends the session: the `list` after it never ran, so the tool list appears once.
    assert.equal(out.match(/^env-validator: Env File Validator$/gm)?.length, 1);
  });
});
