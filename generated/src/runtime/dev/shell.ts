// `npm run shell [-- --mock]`: an interactive MCP client over real stdio against the package's own server, one
// command per line (list, search, schema, call, read, prompt, help, quit); also scriptable by piping lines in.

import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import {
  callTool,
  errorText,
  isEntryPoint,
  listEveryTool,
  openClientSession,
  openPackageApi,
  processLines,
  processOutput,
  resultText,
  type ClientSession,
  type DevIo,
} from './client-session.js';

export interface ShellIo extends DevIo {
  input: NodeJS.ReadableStream;
  /** Shows a prompt before each command (an interactive terminal); piped input runs without one. */
  prompt?: (text: string) => void;
}

export interface ShellOptions {
  /** Root of the generated package; by default the package this file is compiled into. */
  packageRoot?: string;
  env?: NodeJS.ProcessEnv;
}

const USAGE = 'usage: shell [--mock]';

export const SHELL_HELP = [
  'Commands:',
  '  list                      every advertised tool (tools/list)',
  '  search <words>            rank tools by what you want to do',
  '  schema <slug>             exact parameters and a ready-to-send call',
  '  call <name> <json>        tools/call, e.g. call env-validator {"env_content":"DEBUG=true"}',
  '  read <uri>                resources/read, e.g. read nexusbloom://guide',
  '  prompt <name> k=v ...     prompts/get, e.g. prompt find-tool goal=validate an env file',
  '  help                      this list',
  '  quit                      leave (so does end of input)',
].join('\n');

export async function runShell(argv: string[], io: ShellIo, options: ShellOptions = {}): Promise<number> {
  let mock: boolean;
  try {
    const { values } = parseArgs({ args: argv, options: { mock: { type: 'boolean', default: false } } });
    mock = values.mock === true;
  } catch (error) {
    io.stderr(`shell: ${errorText(error)}\n${USAGE}`);
    return 2;
  }
  const env = options.env ?? process.env;
  const opened = await openPackageApi('shell', io, { packageRoot: options.packageRoot, mock, env });
  if (opened === null) return 1;
  const { pkg, api } = opened;
  let session: ClientSession;
  try {
    session = await openClientSession(pkg, { apiUrl: api.serverUrl, env, clientName: 'shell' });
  } catch (error) {
    io.stderr(`shell: ${errorText(error)}`);
    await api.close();
    return 1;
  }
  const meta = pkg.names.metaToolName;
  io.stderr(`shell: connected to ${pkg.names.packageName} (API ${api.url}${api.mock ? ', mock' : ''}). Type help for commands.`);
  const lines = createInterface({ input: io.input, crlfDelay: Infinity, terminal: false });
  let exitCode = 0;
  try {
    io.prompt?.('> ');
    for await (const raw of lines) {
      const line = raw.trim();
      if (line === 'quit' || line === 'exit') break;
      if (line !== '' && !line.startsWith('#')) {
        try {
          for (const out of await execute(session, meta, line)) io.stdout(out);
        } catch (error) {
          // Without its server the shell can do nothing more: say why once instead of "Not connected" per line.
          const ended = session.ended();
          if (ended !== null) {
            io.stderr(`shell: ${ended}`);
            exitCode = 1;
            break;
          }
          io.stdout(`error: ${errorText(error)}`);
        }
      }
      io.prompt?.('> ');
    }
  } finally {
    lines.close();
    await session.close();
    await api.close();
  }
  return exitCode;
}

/** Runs one command line and returns what to print. Throws on a protocol error (printed as `error: …`). */
export async function execute(session: ClientSession, meta: string, line: string): Promise<string[]> {
  const space = line.search(/\s/);
  const command = space === -1 ? line : line.slice(0, space);
  const rest = space === -1 ? '' : line.slice(space + 1).trim();
  switch (command) {
    case 'help':
      return [SHELL_HELP];
    case 'list': {
      // Every page: a large list comes in pages with a cursor.
      return (await listEveryTool(session)).map((tool) => `${tool.name}${tool.title ? `: ${tool.title}` : ''}`);
    }
    case 'search':
      if (rest === '') return ['usage: search <words>'];
      return [resultText(await callTool(session, meta, { command: 'search', query: rest }))];
    case 'schema':
      if (rest === '') return ['usage: schema <slug>'];
      return [resultText(await callTool(session, meta, { command: 'schema', slug: rest }))];
    case 'call': {
      const match = /^(\S+)\s*([\s\S]*)$/.exec(rest);
      if (match === null) return ['usage: call <name> <json arguments>'];
      const [, name = '', json = ''] = match;
      let args: unknown = {};
      if (json !== '') {
        try {
          args = JSON.parse(json) as unknown;
        } catch (error) {
          return [`error: the arguments are not JSON: ${errorText(error)}`];
        }
      }
      if (typeof args !== 'object' || args === null || Array.isArray(args)) return ['error: the arguments must be a JSON object'];
      const result = await callTool(session, name, args as Record<string, unknown>);
      return [`${result.isError === true ? 'isError ' : ''}${resultText(result)}`];
    }
    case 'read': {
      if (rest === '') return ['usage: read <uri>'];
      const { contents } = await session.client.readResource({ uri: rest });
      return contents.map((content) => ('text' in content ? content.text : `(${content.mimeType ?? 'binary'} content)`));
    }
    case 'prompt': {
      const name = /^\S+/.exec(rest)?.[0];
      if (name === undefined) return ['usage: prompt <name> k=v ...'];
      // A value runs up to the next ` key=`, so `goal=validate an env file` needs no quotes.
      const pairs = rest
        .slice(name.length)
        .trim()
        .split(/\s+(?=[A-Za-z_][\w-]*=)/)
        .filter((part) => part !== '');
      const args: Record<string, string> = {};
      for (const pair of pairs) {
        const equals = pair.indexOf('=');
        if (equals <= 0) return [`error: prompt arguments are k=v pairs, got ${JSON.stringify(pair)}`];
        args[pair.slice(0, equals)] = pair.slice(equals + 1);
      }
      const prompt = await session.client.getPrompt({ name, arguments: args });
      return prompt.messages.map((message) =>
        message.content.type === 'text' ? message.content.text : `(${message.content.type} content)`,
      );
    }
    default:
      return [`unknown command ${JSON.stringify(command)}; type help for the list`];
  }
}

if (isEntryPoint(import.meta.url)) {
  const interactive = process.stdin.isTTY === true;
  const lines = processLines();
  const io: ShellIo = { input: process.stdin, ...lines, ...(interactive ? { prompt: processOutput(process.stdout) } : {}) };
  process.exitCode = await runShell(process.argv.slice(2), io);
}
