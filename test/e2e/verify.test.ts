// `nexusbloom-gen verify DIR` through the real binary, on the built example package.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { VerifyResult } from '../../src/commands/verify.js';
import { REPO_ROOT, runCli } from '../helpers/cli.js';
import { builtExample, EXAMPLE_CATALOGUE } from '../helpers/mcp.js';
import { manifestsFromBundle, startMockApi } from '../../src/runtime/dev/mock-api.js';

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
    const withheld = report.results
      .filter((tool) => !tool.advertised)
      .map((tool) => tool.slug)
      .sort();
    assert.deepEqual(withheld, ['Text Stats', 'déaccentuer', 'git/commit-lint']);
    for (const tool of report.results)
      assert.deepEqual(tool.passed, ['listing', 'description', 'example', 'run', 'batch', 'resource'], tool.slug);
  });

  it('--allow runs only the named tools against the API; every tool still gets the other checks', async () => {
    const api = await startMockApi({ manifests: manifestsFromBundle(JSON.parse(readFileSync(EXAMPLE_CATALOGUE, 'utf8'))) });
    try {
      const env = { NEXUSBLOOM_API_URL: api.url };
      const result = await runCli(['verify', packageDir, '--allow', 'slugify,env-validator', '--json'], { env });
      assert.equal(result.code, 0, result.stderr);
      const report = JSON.parse(result.stdout) as VerifyResult;
      assert.deepEqual([report.ok, report.passed, report.notRun], [true, 31, 29]);
      assert.deepEqual(report.runSelection, { readOnly: false, allow: ['env-validator', 'slugify'] });
      const ran = [...new Set(api.requests.filter((request) => request.endpoint === 'run').map((request) => request.slug))].sort();
      assert.deepEqual(ran, ['env-validator', 'slugify']);
      for (const tool of report.results) {
        const selected = tool.slug === 'slugify' || tool.slug === 'env-validator';
        assert.deepEqual(
          tool.passed,
          selected ? ['listing', 'description', 'example', 'run', 'batch', 'resource'] : ['listing', 'description', 'example', 'resource'],
          tool.slug,
        );
        assert.deepEqual(tool.skipped, selected ? [] : ['run', 'batch'], tool.slug);
      }
      const text = await runCli(['verify', packageDir, '--allow', 'slugify', '--allow', 'no-such-tool'], { env });
      assert.equal(text.code, 1);
      assert.match(text.stdout + text.stderr, /--allow names "no-such-tool", which is not in the catalogue/);
      assert.match(text.stdout, /not run: outside "no-such-tool", "slugify"/);
      // Every example tool is annotated read-only: all of them run.
      const readOnly = JSON.parse((await runCli(['verify', packageDir, '--only-read-only', '--json'], { env })).stdout) as VerifyResult;
      assert.deepEqual([readOnly.ok, readOnly.notRun], [true, 0]);
    } finally {
      await api.close();
    }
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

  it('refuses a folder that does not exist, is not a package, or is not compiled, each with its own message', async () => {
    const work = await mkdtemp(join(tmpdir(), 'nb-verify-'));
    try {
      const missing = await runCli(['verify', join(work, 'nowhere')]);
      assert.equal(missing.code, 1);
      assert.match(
        missing.stderr,
        /^Error: .*nowhere does not exist: build a package there first \(nexusbloom-gen build --out .*nowhere\)\.$/m,
      );

      const notPackage = await runCli(['verify', work]);
      assert.equal(notPackage.code, 1);
      assert.match(
        notPackage.stderr,
        /^Error: .* is not a generated package \(it has no data\/catalogue\.json\): pass the folder of a package nexusbloom-gen build wrote\.$/m,
      );

      const uncompiled = join(work, 'uncompiled');
      await mkdir(join(uncompiled, 'data'), { recursive: true });
      await writeFile(join(uncompiled, 'data', 'catalogue.json'), '{}');
      const notCompiled = await runCli(['verify', uncompiled]);
      assert.equal(notCompiled.code, 1);
      // One line, as printed (no wrapping).
      assert.match(
        notCompiled.stderr,
        /^Error: .*uncompiled has no dist\/runtime\/dev\/catalogue-check\.js: build and compile the package first \(nexusbloom-gen build --out .*uncompiled, without --no-compile\)\.$/m,
      );

      // --json: the failure as {"error":{"message","exit"}} on stdout, same exit code.
      const json = await runCli(['verify', work, '--json']);
      assert.equal(json.code, 1);
      assert.deepEqual(JSON.parse(json.stdout), {
        error: {
          message: `${work} is not a generated package (it has no data/catalogue.json): pass the folder of a package nexusbloom-gen build wrote.`,
          exit: 1,
        },
      });
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });

  it('a package whose dependencies are not installed: says to install them', async () => {
    // Outside the repo, where no node_modules above the copy holds the package's dependencies.
    const work = await mkdtemp(join(tmpdir(), 'nb-verify-deps-'));
    try {
      await cp(packageDir, work, { recursive: true, filter: (source) => !source.includes('node_modules') });
      const result = await runCli(['verify', work, '--mock']);
      assert.equal(result.code, 1);
      assert.match(result.stderr, /ERR_MODULE_NOT_FOUND/);
      assert.match(result.stderr, /^Install the package's dependencies first \(npm install in .*nb-verify-deps-.*\)\.$/m);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });

  it('a server that does not start: what it wrote, exit 1, and the same as JSON with --json', async () => {
    // Inside the repo, so the copy resolves its dependencies as the original does.
    const work = await mkdtemp(join(REPO_ROOT, '.tmp', 'verify-broken-'));
    try {
      await cp(packageDir, work, { recursive: true });
      await writeFile(join(work, 'dist', 'bin.js'), 'throw new Error("no start today");\n');
      const result = await runCli(['verify', work, '--mock']);
      assert.equal(result.code, 1);
      assert.match(result.stderr, /^Error: catalogue-check in .* did not report \(exit code 1\):$/m);
      assert.match(result.stderr, /^Error: no start today$/m);

      const json = await runCli(['verify', work, '--mock', '--json']);
      assert.equal(json.code, 1);
      const { error } = JSON.parse(json.stdout) as { error: { message: string; exit: number } };
      assert.equal(error.exit, 1);
      assert.match(error.message, /did not start[\s\S]*no start today/);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});
