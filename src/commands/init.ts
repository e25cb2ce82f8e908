// `nexusbloom-gen init`: writes the project's nexusbloom-gen.config.json, so that a plain `nexusbloom-gen build`
// builds the project's catalogue under the project's own names.

import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { Flags } from '@oclif/core';
import { BaseCommand } from '../cli/base-command.js';
import { CONFIG_FILE_NAME } from '../cli/config-file.js';
import { ask, INIT_KEYS, invalidAnswer, suggestions, type InitAnswers, type InitKey } from '../cli/init-answers.js';

export interface InitResult {
  /** The file written (absolute). */
  file: string;
  /** What it holds. */
  config: InitAnswers;
  /** Whether the values were asked for (stdin a terminal, no --yes). */
  prompted: boolean;
}

/** The flag of each key, as `--package-name` for packageName. */
const FLAG_OF: Record<InitKey, string> = Object.fromEntries(
  INIT_KEYS.map((key) => [key, key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)]),
) as Record<InitKey, string>;

export default class Init extends BaseCommand {
  static override description = `Write ${CONFIG_FILE_NAME} for a project.

The file names the project's catalogue, the folder the server package goes to, and the server's own names (npm
package, MCP server, meta-tool, URI scheme, environment prefix, default API), so that \`nexusbloom-gen build\` run in
the project (or any folder below it) needs no flags. Values come from flags; the others are asked for when stdin is a
terminal, else suggested from the project (its package.json name or folder, or the API's host).`;

  static override examples = [
    '<%= config.bin %> init',
    '<%= config.bin %> init --source ./billing-catalogue.json --package-name @acme/billing-mcp-server --server-name billing --default-api-url https://billing.acme.com/api',
    '<%= config.bin %> init --yes --source https://billing.acme.com/api',
  ];

  static override flags = {
    source: Flags.string({
      char: 's',
      description: 'Catalogue the project builds: a bundle file (relative to the config file) or an API base URL.',
      helpValue: 'URL|FILE',
    }),
    out: Flags.string({
      char: 'o',
      description: 'Folder the package is written to, relative to the config file. Suggested: generated.',
      helpValue: 'DIR',
    }),
    'package-name': Flags.string({
      description: 'npm name of the generated server package (what hosts run with npx -y).',
      helpValue: 'NAME',
    }),
    'server-name': Flags.string({ description: 'MCP server name (initialize result, host snippets).', helpValue: 'NAME' }),
    'product-name': Flags.string({ description: 'Product name in descriptions and the package README.', helpValue: 'NAME' }),
    'meta-tool-name': Flags.string({
      description: 'Name of the meta-tool (search, list, schema, run, batch, history, diff).',
      helpValue: 'NAME',
    }),
    'uri-scheme': Flags.string({ description: 'URI scheme of the resources (scheme://catalogue).', helpValue: 'SCHEME' }),
    'env-prefix': Flags.string({
      description: 'Prefix of the environment variables (PREFIX_API_KEY, PREFIX_API_URL, …).',
      helpValue: 'PREFIX',
    }),
    'default-api-url': Flags.string({
      description: 'API the server calls when PREFIX_API_URL is not set. Suggested: --source when it is a URL.',
      helpValue: 'URL',
    }),
    config: Flags.string({ description: `File to write. Default: ${CONFIG_FILE_NAME} in the working folder.`, helpValue: 'FILE' }),
    yes: Flags.boolean({ char: 'y', description: 'Ask nothing: take the suggestion for every value not given.', default: false }),
    force: Flags.boolean({ description: 'Replace the file when it exists.', default: false }),
  };

  async run(): Promise<InitResult> {
    const { flags } = await this.parse(Init);
    const cwd = process.cwd();
    const file = resolve(flags.config !== undefined && flags.config.trim() !== '' ? flags.config : CONFIG_FILE_NAME);
    if (existsSync(file) && !flags.force) this.fail(`${file} already exists: edit it, or pass --force to replace it.`);

    const given: InitAnswers = {};
    for (const key of INIT_KEYS) {
      const value = (flags as Record<string, unknown>)[FLAG_OF[key]];
      if (typeof value === 'string' && value.trim() !== '') given[key] = value.trim();
    }
    const prompted = process.stdin.isTTY === true && !flags.yes && !this.jsonEnabled();
    const missing = INIT_KEYS.filter((key) => given[key] === undefined);
    const answers = prompted
      ? await ask(missing, (so) => suggestions(so, cwd), given, { input: process.stdin, output: process.stderr })
      : { ...suggestions(given, cwd), ...given };
    for (const key of INIT_KEYS) {
      const value = answers[key];
      const why = value === undefined ? null : invalidAnswer(key, value);
      if (why !== null) this.fail(`--${FLAG_OF[key]}: ${why}`, 2);
    }

    const config: InitAnswers = {};
    for (const key of INIT_KEYS) if (answers[key] !== undefined) config[key] = answers[key];
    await writeFile(file, `${JSON.stringify(config, null, 2)}\n`);

    const shown = relative(cwd, file) || file;
    if (config.source === undefined)
      this.diagnostic(`warning: ${shown} names no source: add "source" (a bundle file or an API URL), or pass --source to build.`);
    if (config.defaultApiUrl === undefined)
      this.diagnostic(
        `warning: ${shown} names no defaultApiUrl: add the API your server calls, or its users must set ${config.envPrefix ?? ''}API_URL.`,
      );
    this.log(
      `Wrote ${shown}: package ${config.packageName}, server ${config.serverName}${config.defaultApiUrl ? `, default API ${config.defaultApiUrl}` : ''}. Next: nexusbloom-gen build`,
    );
    return { file, config, prompted };
  }
}
