// `nexusbloom-gen verify DIR`: runs a built package's own catalogue-check (every tool through its real server).

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../cli/base-command.js';
import { CATALOGUE_CHECK_SCRIPT, LAYOUT } from '../pipeline/plan/layout.js';
import type { CatalogueCheckReport } from '../runtime/dev/catalogue-check.js';
import { notRunText, runSelectionOf, selectionText } from '../runtime/dev/run-selection.js';

export interface VerifyResult extends CatalogueCheckReport {
  /** The package folder that was verified, absolute. */
  dir: string;
}

export default class Verify extends BaseCommand {
  static override description = `Walk every tool of a built package through its real MCP server.

Runs DIR's own catalogue-check (node DIR/${CATALOGUE_CHECK_SCRIPT}): the server is started over stdio and, for each
tool, the check confirms it is advertised or withheld as its slug requires, has a description, has an example that
validates and runs against the API, runs in a batch, and resolves as a resource. The API is the one
NEXUSBLOOM_API_URL (the package's prefix) names; --mock starts the package's mock API instead. Against a real API,
--only-read-only runs only the tools annotated readOnlyHint: true and --allow names others that may run (a refund or
an e-mail must not go out from CI); every other check still covers every tool. Exits non-zero on any failure. Build
the package first (nexusbloom-gen build, compile on).`;

  static override examples = [
    '<%= config.bin %> verify generated --mock',
    '<%= config.bin %> verify ./server --json',
    'NEXUSBLOOM_API_URL=http://127.0.0.1:4010/api <%= config.bin %> verify generated',
    'NEXUSBLOOM_API_URL=https://nexusbloom.dev/api <%= config.bin %> verify generated --only-read-only --allow send-test-mail',
  ];

  static override args = {
    // ignoreStdin: a missing argument is the default folder, never whatever a pipe on stdin holds (oclif would read it).
    dir: Args.string({ description: 'Folder of the built package.', default: 'generated', ignoreStdin: true }),
  };

  static override flags = {
    mock: Flags.boolean({ description: "Start the package's mock API on a free port and check against it.", default: false }),
    'only-read-only': Flags.boolean({
      description: 'Run only tools annotated readOnlyHint: true against the API (the other checks still cover every tool).',
      default: false,
    }),
    allow: Flags.string({
      description: 'Also run these tools against the API (comma-separated slugs; repeatable). Alone, only these run.',
      multiple: true,
      helpValue: 'SLUG,...',
    }),
  };

  async run(): Promise<VerifyResult> {
    const { args, flags } = await this.parse(Verify);
    const dir = resolve(args.dir);
    const script = join(dir, CATALOGUE_CHECK_SCRIPT);
    if (!existsSync(dir)) this.fail(`${args.dir} does not exist: build a package there first (nexusbloom-gen build --out ${args.dir}).`);
    if (!existsSync(join(dir, LAYOUT.servedCatalogue))) {
      this.fail(
        `${args.dir} is not a generated package (it has no ${LAYOUT.servedCatalogue}): pass the folder of a package nexusbloom-gen build wrote.`,
      );
    }
    if (!existsSync(script)) {
      this.fail(
        `${args.dir} has no ${CATALOGUE_CHECK_SCRIPT}: build and compile the package first (nexusbloom-gen build --out ${args.dir}, without --no-compile).`,
      );
    }
    const selection = runSelectionOf(flags['only-read-only'], flags.allow ?? []);
    const selectionArgs =
      selection === null
        ? []
        : [...(selection.readOnly ? ['--only-read-only'] : []), ...selection.allow.flatMap((slug) => ['--allow', slug])];
    const checked = await runScript(script, dir, [...(flags.mock ? ['--mock'] : []), '--json', ...selectionArgs]);
    let report: CatalogueCheckReport;
    try {
      report = JSON.parse(checked.stdout) as CatalogueCheckReport;
    } catch {
      const advice = /\bERR_MODULE_NOT_FOUND\b/.test(checked.stderr)
        ? `\nInstall the package's dependencies first (npm install in ${args.dir}).`
        : '';
      this.fail(`catalogue-check in ${args.dir} did not report (exit code ${checked.code}):\n${checked.stderr.trim()}${advice}`);
    }
    const result: VerifyResult = { dir, ...report };
    if (!this.jsonEnabled()) for (const line of humanLines(result)) this.log(line);
    if (!result.ok) {
      if (this.jsonEnabled()) {
        // --json callers get the report alone on stdout (oclif prints what run() returns) and a non-zero exit.
        process.exitCode = 1;
        return result;
      }
      this.fail(
        `${args.dir}: ${result.failed} of ${result.tools} tools failed${result.problems.length > 0 ? `; ${result.problems.join('; ')}` : ''}`,
      );
    }
    return result;
  }
}

function humanLines(result: VerifyResult): string[] {
  const lines = result.results.map((tool) =>
    tool.ok
      ? `ok    ${JSON.stringify(tool.slug)} (${tool.advertised ? 'advertised' : 'withheld'}${tool.skipped.length > 0 ? `; not run: outside ${selectionText(result.runSelection)}` : ''})`
      : `FAIL  ${JSON.stringify(tool.slug)}: ${tool.failures.map((failure) => `${failure.check}: ${failure.message}`).join('; ')}`,
  );
  for (const problem of result.problems) lines.push(`FAIL  ${problem}`);
  // A package built before the tool policy reports no outsidePolicy count.
  const outside = result.outsidePolicy ?? 0;
  lines.push(
    `${result.passed} of ${result.tools} tools passed (${result.advertised} advertised, ${result.withheld} withheld${outside > 0 ? `, ${outside} outside the tool policy and refused` : ''}; API ${result.apiUrl}${result.mock ? ', mock' : ''}${notRunText(result)}).`,
  );
  return lines;
}

function runScript(script: string, cwd: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [script, ...args], { cwd, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}
