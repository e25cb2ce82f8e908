// The base of every command: failures are printed whole (no line wrapping) on stderr, or as JSON with --json.

import { Command } from '@oclif/core';
import { PipelineError } from '../pipeline/problems.js';
import { errorMessage } from './shared-flags.js';

/** The exit code an error asks for: oclif's own (flag parsing: 2) carry it as `oclif.exit`, others as `exitCode`. */
export function exitCodeOf(error: unknown): number {
  const { oclif, exitCode } = (error ?? {}) as { oclif?: { exit?: unknown }; exitCode?: unknown };
  if (typeof oclif?.exit === 'number') return oclif.exit;
  return typeof exitCode === 'number' ? exitCode : 1;
}

/** What `--json` prints for a failure: `{"error":{"message","exit",…}}`, with fields a command adds (see fail). */
export function errorJson(message: string, exit: number, details: Record<string, unknown> = {}): { error: Record<string, unknown> } {
  return { error: { message, exit, ...details } };
}

/**
 * `--source` (or `-s`) with no value after it, last or before another flag, becomes `--source=`: the catalogue
 * contract reads "--source without a value" as "the default source" (see resolveSource), where the flag parser would
 * stop with "expects a value".
 */
export function withBareSourceAsBlank(argv: readonly string[]): string[] {
  const end = argv.includes('--') ? argv.indexOf('--') : argv.length;
  return argv.map((arg, index) =>
    (arg === '--source' || arg === '-s') && index < end && (index + 1 >= end || argv[index + 1]!.startsWith('-')) ? '--source=' : arg,
  );
}

/** What `--json` prints when nothing is coloured: the value indented by two spaces, and a line feed. */
export function plainJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

export abstract class BaseCommand extends Command {
  static override enableJsonFlag = true;

  override async init(): Promise<void> {
    await super.init();
    this.argv = withBareSourceAsBlank(this.argv);
  }

  /** Machine-readable fields of the failure in progress, for its --json output. */
  private failureDetails: Record<string, unknown> = {};

  /** A diagnostic line on stderr, printed with --json too (stdout then carries only the JSON result). */
  protected diagnostic(line: string): void {
    process.stderr.write(`${line}\n`);
  }

  /**
   * Ends the command with exit code `exit`, printing `message` as it is (oclif would wrap long lines). With --json,
   * `details` join the message in the error object on stdout.
   */
  protected fail(message: string, exit = 1, details: Record<string, unknown> = {}): never {
    if (this.jsonEnabled()) {
      this.failureDetails = details;
      this.error(message, { exit });
    }
    this.logToStderr(`Error: ${message}`);
    this.exit(exit);
  }

  /** Ends the command on a caught error (exit 1); with --json, a pipeline error's problems come as data too. */
  protected failOn(error: unknown): never {
    this.fail(errorMessage(error), 1, error instanceof PipelineError && error.problems.length > 0 ? { problems: error.problems } : {});
  }

  /**
   * The JSON as oclif prints it. Where nothing would be coloured (no JSON theme, or stdout not a terminal: a script,
   * a CI log), it is printed as it is: oclif's colouring pass splits the text into tokens with a regular expression
   * each, a tenth of a second for the list of files a 3,000-tool build wrote.
   */
  override logJson(json: unknown): void {
    if (this.config.theme?.json !== undefined && process.stdout.isTTY) return super.logJson(json);
    process.stdout.write(plainJson(json));
  }

  /** With --json, the same exit code as without (oclif's JSON path would turn a flag error's 2 into 1). */
  protected override async catch(error: Error & { exitCode?: number }): Promise<unknown> {
    if (!this.jsonEnabled()) return super.catch(error);
    process.exitCode = exitCodeOf(error);
    this.logJson(this.toErrorJson(error));
    return undefined;
  }

  /**
   * Only what a script can use. oclif's default spreads the error's own fields, and a flag error carries the whole
   * parse context: the CLI's configuration, home and cache paths, its package.json.
   */
  protected override toErrorJson(error: unknown): { error: Record<string, unknown> } {
    return errorJson(error instanceof Error ? error.message : String(error), exitCodeOf(error), this.failureDetails);
  }
}
