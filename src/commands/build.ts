// `nexusbloom-gen build`: pull, check, write the server package, and compile it.

import { resolve } from 'node:path';
import { Flags } from '@oclif/core';
import { BaseCommand } from '../cli/base-command.js';
import { resolveConfig } from '../pipeline/config.js';
import { buildPackage, type BuildResult } from '../pipeline/run-pipeline.js';
import { problemLines, resolveSource, sourceFlags, sourceOptions } from '../cli/shared-flags.js';
import { configFlag, projectConfig } from '../cli/config-file.js';
import { defaultNamesWarning } from '../cli/default-names.js';
import { shownSource } from '../pipeline/source/read-source.js';
// --max-tokens and the context budget lines (see src/pipeline/budget/)
import { budgetLines, listingLines } from '../pipeline/budget/context-budget.js';
// --changelog / --bump (the version follows the changes, see src/pipeline/changelog/package-changelog.ts)
import type { ReleaseMode } from '../pipeline/changelog/package-changelog.js';
import { LAYOUT } from '../pipeline/plan/layout.js';

/** Where a build writes when --out is absent or blank and the config file names no `out`. */
const DEFAULT_OUT = 'generated';

export interface BuildReport extends BuildResult {
  /** The config file used and the names that say whose server it is. */
  config: {
    file: string | null;
    names: { packageName: string; serverName: string; defaultApiUrl: string };
    /** Set when a catalogue other than NexusBloom's took NexusBloom's names (also printed on stderr). */
    warning: string | null;
  };
}

export default class Build extends BaseCommand {
  static override description = `Generate the MCP server package for a catalogue.

Reads the catalogue (API or bundle), checks every manifest, writes a complete npm package (MCP server, typed tool
wrappers, README, data) to --out, then type-checks and compiles it to dist/. Exit code 0 only when the package was
written and compiles. With --check nothing is written: the command fails and names the files when --out differs from
what a build would write (use it in CI to catch drift).`;

  static override examples = [
    '<%= config.bin %> build',
    '<%= config.bin %> build --config ./billing/nexusbloom-gen.config.json',
    '<%= config.bin %> build --source ./catalogue.json --out ./server',
    '<%= config.bin %> build --source https://nexusbloom.dev/api --out generated',
    '<%= config.bin %> build --check',
    '<%= config.bin %> build --changelog',
  ];

  static override flags = {
    ...sourceFlags,
    out: Flags.string({
      char: 'o',
      description: `Folder to write the package to. Default: the config file's out, else ${DEFAULT_OUT}.`,
      helpValue: 'DIR',
    }),
    check: Flags.boolean({
      description: 'Write nothing; fail and list the files when --out is not what a build would write.',
      default: false,
    }),
    force: Flags.boolean({
      description:
        'Write into a folder that holds files no build wrote (no names.lock.json), replacing and removing them. Without it such a build stops before writing.',
      default: false,
    }),
    compile: Flags.boolean({
      description: 'Type-check and compile the package to dist/ after writing it (--no-compile skips it).',
      default: true,
      allowNo: true,
    }),
    // --changelog (schema changelog, see src/pipeline/changelog/)
    changelog: Flags.boolean({
      description:
        'When --out already holds a package, prepend what changed for callers to its CHANGELOG.md, titled with the suggested next version, and write that version into package.json and server.json (implies --bump).',
      default: false,
    }),
    bump: Flags.boolean({
      description:
        'When --out already holds a package, write the version its changes suggest (0.x: breaking raises the minor) into package.json and server.json, without a CHANGELOG.md entry.',
      default: false,
    }),
    config: configFlag,
    'max-tokens': Flags.integer({
      description: 'Fail (writing nothing) when the tools/list the server advertises costs more than N tokens (o200k_base).',
      min: 1,
      helpValue: 'N',
    }),
  };

  async run(): Promise<BuildReport> {
    const { flags } = await this.parse(Build);
    const progress = (line: string) => this.diagnostic(`nexusbloom-gen: ${line}`);
    let file: Awaited<ReturnType<typeof projectConfig>>;
    try {
      file = await projectConfig(flags.config);
    } catch (error) {
      this.failOn(error);
    }
    const source = resolveSource(flags.source, file?.source);
    // Blank is the default, as for --source: `--out "$OUT"` with OUT unset must not write the package into the current
    // folder (a home folder has no files of a package to refuse to overwrite).
    const out = flags.out !== undefined && flags.out.trim() !== '' ? flags.out : (file?.out ?? DEFAULT_OUT);
    const config = resolveConfig(file?.overrides ?? {});
    const warning = defaultNamesWarning(source, shownSource(source), file, config);
    if (warning !== null) this.diagnostic(warning);
    const { packageName, serverName, defaultApiUrl } = config.names;
    const report = (built: BuildResult): BuildReport => ({
      ...built,
      config: { file: file?.path ?? null, names: { packageName, serverName, defaultApiUrl }, warning },
    });
    let result: BuildResult;
    try {
      // Against the package in --out before this build: the version is decided before anything is emitted.
      const release: ReleaseMode = flags.changelog ? 'changelog' : flags.bump ? 'bump' : 'keep';
      result = await buildPackage({
        source,
        outDir: resolve(out),
        config,
        check: flags.check,
        compile: flags.compile,
        force: flags.force,
        maxTokens: flags['max-tokens'],
        release,
        sourceOptions: sourceOptions(flags, progress),
        log: progress,
      });
      if (release !== 'keep') {
        const { version, bump, entry } = result.release;
        if (release === 'changelog')
          progress(
            entry === null
              ? `${LAYOUT.changelog}: no changes for callers (version ${version})`
              : `${LAYOUT.changelog}: added ${entry} (${bump})`,
          );
        else progress(bump === 'none' ? `version ${version}: no changes for callers` : `version ${version} (${bump})`);
      }
    } catch (error) {
      this.failOn(error);
    }
    for (const line of problemLines(result.warnings)) this.diagnostic(line);
    if (result.drift) {
      const { changed, missing, extra } = result.drift;
      const lines = [...changed.map((f) => `changed: ${f}`), ...missing.map((f) => `missing: ${f}`), ...extra.map((f) => `extra:   ${f}`)];
      if (lines.length > 0) {
        this.fail(
          `${out} is out of date with ${result.source} (${lines.length} files differ); run \`nexusbloom-gen build\` and commit:\n${lines.join('\n')}`,
          1,
          { drift: result.drift },
        );
      }
      this.log(`${out} is up to date with ${result.source} (${result.files} files, ${result.tools} tools).`);
      return report(result);
    }
    for (const line of budgetLines(result.budget)) this.log(line);
    for (const line of listingLines(result.listing, result.tools, config.names.envPrefix)) this.log(line);
    this.log(
      `Built ${result.tools} tools (${result.withheld.length} withheld from the tool list by name${result.listing.outsidePolicy > 0 ? `, ${result.listing.outsidePolicy} outside the tool policy` : ''}) into ${out}: ` +
        `${result.written.length} files written, ${result.removed.length} removed${result.compiled ? ', compiled' : ''}.`,
    );
    return report(result);
  }
}
