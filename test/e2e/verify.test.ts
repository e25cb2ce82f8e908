// `nexusbloom-gen verify DIR` through the real binary, on the built example package.

import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { VerifyResult } from '../../src/commands/verify.js';
import { runCli } from '../helpers/cli.js';
import { builtExample } from '../helpers/mcp.js';

describe('nexusbloom-gen verify', () => {
  let packageDir: string;
  before(async () => {
    packageDir = await builtExample();
  });

  it('--mock --json returns the typed report: every tool passed', async () => {
    const result = await runCli(['verify', packageDir, '--mock', '--json']);
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout) as VerifyResult;
    assert.equal(report.dir, packageDir);
    assert.equal(report.ok, true);
    assert.equal(report.mock, true);
    assert.match(report.apiUrl, /^http:\/\/127\.0\.0\.1:\d+\/api$/);
    assert.deepEqual([report.tools, report.advertised, report.withheld, report.passed, report.failed], [31, 28, 3, 31, 0]);
    const withheld = report.results.filter((tool) => !tool.advertised).map((tool) => tool.slug).sort();
    assert.deepEqual(withheld, ['Text Stats', 'déaccentuer', 'git/commit-lint']);
    for (const tool of report.results) assert.deepEqual(tool.passed, ['listing', 'description', 'example', 'run', 'batch', 'resource'], tool.slug);
  });

  it('prints a line per tool, and fails with the reason when the API is unreachable', async () => {
    const unreachable = await runCli(['verify', packageDir], { env: { NEXUSBLOOM_API_URL: 'http://127.0.0.1:9/api' } });
    assert.equal(unreachable.code, 1);
    assert.match(unreachable.stdout + unreachable.stderr, /the API at http:\/\/127\.0\.0\.1:9\/api is not reachable/);

    const json = await runCli(['verify', packageDir, '--json'], { env: { NEXUSBLOOM_API_URL: 'http://127.0.0.1:9/api' } });
    assert.equal(json.code, 1);
    const report = JSON.parse(json.stdout) as VerifyResult;
    assert.equal(report.ok, false);
    assert.equal(report.problems.length, 1);
  });

  it('refuses a folder that is not a compiled package', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'nb-verify-'));
    try {
      const result = await runCli(['verify', empty]);
      assert.equal(result.code, 1);
      // oclif wraps long error lines, so the message is matched in parts.
      assert.match(result.stderr, /has no dist\/runtime\/dev\/catalogue-check\.js:/);
      assert.match(result.stderr, /build and compile/);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});
