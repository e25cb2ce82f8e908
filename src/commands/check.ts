// `nexusbloom-gen check`: validate a catalogue and report every problem at once.

import { BaseCommand } from '../cli/base-command.js';
import { hasErrors, type Problem } from '../pipeline/problems.js';
import { readAndCheck } from '../pipeline/read-and-check.js';
import { shownSource } from '../pipeline/source/read-source.js';
import { problemLines, resolveSource, sourceFlags, sourceOptions } from '../cli/shared-flags.js';
import { configFlag, projectConfig } from '../cli/config-file.js';

export interface CheckReport {
  /** As read, with an API URL's credentials masked. */
  source: string;
  ok: boolean;
  tools: number;
  errors: number;
  warnings: number;
  withheld: Array<{ slug: string; reason: string }>;
  problems: Problem[];
}

export default class Check extends BaseCommand {
  static override description = `Validate a catalogue without writing anything.

Checks the bundle against the manifest schema, compiles every input and output schema, validates every example, and
holds every slug against the MCP tool-name grammar. Reports every problem with its tool (slug) and JSON pointer.
Exits non-zero on any error; withheld slugs are warnings.`;

  static override examples = ['<%= config.bin %> check', '<%= config.bin %> check --source ./catalogue.json --json'];

  // --config: only its `source` matters here (the default catalogue of a project that has a config file).
  static override flags = { ...sourceFlags, config: configFlag };

  async run(): Promise<CheckReport> {
    const { flags } = await this.parse(Check);
    let configured: string | undefined;
    try {
      configured = (await projectConfig(flags.config))?.source;
    } catch (error) {
      this.failOn(error);
    }
    const source = resolveSource(flags.source, configured);
    const shown = shownSource(source);
    let report: CheckReport;
    try {
      const { check } = await readAndCheck(
        source,
        sourceOptions(flags, (line) => this.diagnostic(line)),
      );
      const problems = check.problems;
      report = {
        source: shown,
        ok: !hasErrors(problems),
        tools: check.tools.length,
        errors: problems.filter((p) => p.severity === 'error').length,
        warnings: problems.filter((p) => p.severity === 'warning').length,
        withheld: check.tools.flatMap((t) => (t.withheldReason === null ? [] : [{ slug: t.manifest.slug, reason: t.withheldReason }])),
        problems,
      };
    } catch (error) {
      this.failOn(error);
    }
    if (!this.jsonEnabled()) for (const line of problemLines(report.problems)) this.diagnostic(line);
    if (!report.ok) {
      if (this.jsonEnabled()) {
        // --json callers get the full report on stdout and a non-zero exit.
        process.exitCode = 1;
        return report;
      }
      this.fail(`${shown}: ${report.errors} error(s), ${report.warnings} warning(s)`, 1);
    }
    this.log(`${shown}: ${report.tools} tools, no errors, ${report.warnings} warning(s).`);
    return report;
  }
}
