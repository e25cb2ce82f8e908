// The base of every command: failures are printed whole (no line wrapping) on stderr, or as JSON with --json.

import { Command } from '@oclif/core';

export abstract class BaseCommand extends Command {
  static override enableJsonFlag = true;

  /** A diagnostic line on stderr, printed with --json too (stdout then carries only the JSON result). */
  protected diagnostic(line: string): void {
    process.stderr.write(`${line}\n`);
  }

  /** Ends the command with exit code `exit`, printing `message` as it is (oclif would wrap long lines). */
  protected fail(message: string, exit = 1): never {
    if (this.jsonEnabled()) this.error(message, { exit });
    this.logToStderr(`Error: ${message}`);
    this.exit(exit);
  }
}
