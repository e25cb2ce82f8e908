// oclif hook: what an unknown command, or a stray word after a known one, says (as JSON too, with --json).

import { Errors, type Hook } from '@oclif/core';
import { errorJson } from './base-command.js';

const hook: Hook<'command_not_found'> = async function commandNotFound({ id, argv, config }) {
  // With words separated by spaces, `check extra` reaches here as the id `check:extra`: a word after a command is read
  // as a subcommand, and none of ours has any.
  const commands = [...config.commandIDs].sort();
  const command = commands.find((known) => id.startsWith(`${known}:`));
  const words = (text: string): string => text.replaceAll(':', ' ');
  const message = command
    ? `${command} takes no arguments, only flags: unexpected ${JSON.stringify(words(id.slice(command.length + 1)))} (see ${config.bin} ${command} --help)`
    : `unknown command ${JSON.stringify(words(id))}: the commands are ${commands.map(words).join(', ')} (see ${config.bin} --help)`;
  if (argv?.includes('--json')) process.stdout.write(`${JSON.stringify(errorJson(message, 2), null, 2)}\n`);
  throw new Errors.CLIError(message, { exit: 2 });
};

export default hook;
