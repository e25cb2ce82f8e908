// `nexusbloom-gen diff OLD NEW`: the changelog between two catalogues or packages, classified for callers.

import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../cli/base-command.js';
import { sourceFlags, sourceOptions, errorMessage } from '../cli/shared-flags.js';
import { buildChangelog, type Changelog } from '../pipeline/changelog/changelog.js';
import { loadSide, type CatalogueSide, type LoadSideOptions } from '../pipeline/changelog/load-side.js';
import { renderMarkdown } from '../pipeline/changelog/render-markdown.js';
import { PipelineError } from '../pipeline/problems.js';
import { SOURCE_FLAG_ADVICE } from '../pipeline/source/bundle-source.js';

export interface DiffReport extends Changelog {
  old: string;
  new: string;
}

/**
 * One side of the diff; a failure names the side (OLD or NEW). When no tool is to blame (nothing usable was read), it
 * also says what the side may be; a catalogue whose tools have problems already says what to fix in each.
 */
async function readSide(side: 'OLD' | 'NEW', source: string, options: LoadSideOptions): Promise<CatalogueSide> {
  try {
    return await loadSide(source, options);
  } catch (error) {
    // The source stage's advice names a flag `diff` does not have.
    const why = errorMessage(error).replace(SOURCE_FLAG_ADVICE, '');
    const problems = error instanceof PipelineError ? error.problems : [];
    const advice = problems.some((problem) => problem.slug !== null)
      ? ''
      : `\n${side} must be an API base URL, a bundle file, an OpenAPI document or a generated package folder.`;
    throw new PipelineError(`${side} (${source}): ${why}${advice}`, problems);
  }
}

export default class Diff extends BaseCommand {
  static override description = `Show what changed for callers between two catalogues or generated packages.

OLD and NEW are each an API base URL, a bundle file, or a generated package folder. Lists tools added, removed,
withheld or advertised, renamed SDK wrappers, and every input/output schema change field by field (JSON pointer of
the schema node), each classified separately for callers of the typed SDK and for MCP clients, and suggests the
semver bump. A catalogue is named as a build over OLD would name it. Exits 0 whatever the diff unless --fail-on says
otherwise.`;

  static override examples = [
    '<%= config.bin %> diff old-catalogue.json new-catalogue.json',
    '<%= config.bin %> diff generated https://nexusbloom.dev/api',
    '<%= config.bin %> diff generated ./catalogue.json --fail-on breaking',
    '<%= config.bin %> diff old.json new.json --json',
  ];

  static override args = {
    old: Args.string({
      description: 'The earlier side: API URL, bundle file or generated package folder.',
      required: true,
      ignoreStdin: true,
    }),
    new: Args.string({
      description: 'The later side: API URL, bundle file or generated package folder.',
      required: true,
      ignoreStdin: true,
    }),
  };

  static override flags = {
    timeout: sourceFlags.timeout,
    concurrency: sourceFlags.concurrency,
    'max-body-mb': sourceFlags['max-body-mb'],
    'max-pages': sourceFlags['max-pages'],
    'max-tools': sourceFlags['max-tools'],
    'max-read-seconds': sourceFlags['max-read-seconds'],
    'fail-on': Flags.string({
      description: 'Exit 1 when the diff holds a change of this kind: breaking (for SDK callers or MCP clients), or any change at all.',
      options: ['breaking', 'any'],
      helpValue: 'breaking|any',
    }),
  };

  async run(): Promise<DiffReport> {
    const { args, flags } = await this.parse(Diff);
    const options = sourceOptions(flags, (line) => this.diagnostic(`nexusbloom-gen: ${line}`));
    let report: DiffReport;
    try {
      const before = await readSide('OLD', args.old, { sourceOptions: options });
      // The new side is named with the old side's names, exactly as a build over OLD would name it.
      const after = await readSide('NEW', args.new, { sourceOptions: options, lock: before.lock });
      report = { old: before.origin, new: after.origin, ...buildChangelog(before, after) };
    } catch (error) {
      this.failOn(error);
    }
    const failed =
      (flags['fail-on'] === 'breaking' && (report.breaking.sdk || report.breaking.mcp)) ||
      (flags['fail-on'] === 'any' && report.tools.length > 0);
    if (this.jsonEnabled()) {
      // --json callers get the full report on stdout, and a non-zero exit when --fail-on matched.
      if (failed) process.exitCode = 1;
      return report;
    }
    this.log(renderMarkdown(report, `Changes from ${report.old} to ${report.new}`).replace(/\n$/, ''));
    if (failed) this.fail(`${flags['fail-on'] === 'breaking' ? 'breaking changes' : 'changes'} found (--fail-on ${flags['fail-on']})`, 1);
    return report;
  }
}
