// Reads the generator config file: `--config FILE`, else `nexusbloom-gen.config.json` in the working folder or the
// nearest parent. It holds names and package options (NexusBloom defaults for the rest) and, optionally, where the
// catalogue is read from and where the package is written, relative to the file's own folder.

import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Flags } from '@oclif/core';
import type { ConfigOverrides } from '../pipeline/config.js';
import { unreadableReason } from '../pipeline/source/bundle-source.js';
import { isApiSource } from '../pipeline/source/read-source.js';
import { withoutByteOrderMark } from '../runtime/shared/json-text.js';
import { policyDefaultsProblems, type PolicyDefaults } from '../runtime/policy/index.js';

/** The file a project's config is found by, from the working folder up. */
export const CONFIG_FILE_NAME = 'nexusbloom-gen.config.json';

/** Names and package options, in the order `init` writes them. */
export const NAME_KEYS = [
  'packageName',
  'packageVersion',
  'serverName',
  'productName',
  'metaToolName',
  'uriScheme',
  'envPrefix',
  'defaultApiUrl',
  'description',
  'registryName',
] as const;
/** Where the catalogue comes from and where the package goes. */
export const PATH_KEYS = ['source', 'out'] as const;
/** Options of the build beyond names: how grammar-breaking slugs are listed, and the tool policy (an object). */
const OPTION_KEYS = ['toolNames', 'policy'] as const;
const TOOL_NAMES_MODES = ['withheld', 'sanitize'];

const KNOWN_KEYS = new Set<string>([...PATH_KEYS, ...NAME_KEYS, ...OPTION_KEYS, '$schema']);

export interface ConfigFile {
  /** The file read (absolute). */
  path: string;
  overrides: ConfigOverrides;
  /** `source` as written, resolved against the file's folder unless it is an API URL. */
  source?: string;
  /** `out` resolved against the file's folder. */
  out?: string;
}

/** `nexusbloom-gen.config.json` in `from` or its nearest parent that has one; null when none has. */
export function findConfigFile(from: string): string | null {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    const candidate = join(dir, CONFIG_FILE_NAME);
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
    if (dir === dirname(dir)) return null;
  }
}

export async function loadConfigFile(file: string): Promise<ConfigFile> {
  const path = resolve(file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new Error(`cannot read config ${file}: ${unreadableReason(error)}`, { cause: error });
  }
  let parsed: unknown;
  try {
    // As for a bundle: editors on Windows save JSON with a byte order mark.
    parsed = JSON.parse(withoutByteOrderMark(text)) as unknown;
  } catch (error) {
    throw new Error(`config ${file} is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`config ${file} must be a JSON object`);
  const values: Record<string, string> = {};
  let policy: PolicyDefaults | undefined;
  for (const [key, value] of Object.entries(parsed)) {
    if (!KNOWN_KEYS.has(key))
      throw new Error(
        `config ${file}: unknown option ${JSON.stringify(key)} (known: ${[...PATH_KEYS, ...NAME_KEYS, ...OPTION_KEYS].join(', ')})`,
      );
    if (key === 'policy') {
      // The tool policy the server applies unless its environment overrides it (see src/runtime/policy/).
      const problems = policyDefaultsProblems(value);
      if (problems.length > 0) throw new Error(`config ${file}: ${problems.join('; ')}`);
      policy = value as PolicyDefaults;
      continue;
    }
    if (typeof value !== 'string' || value.trim() === '') throw new Error(`config ${file}: ${key} must be a non-empty string`);
    if (key === 'toolNames' && !TOOL_NAMES_MODES.includes(value)) {
      throw new Error(
        `config ${file}: toolNames must be "withheld" (slugs outside the tool-name grammar stay out of tools/list) or "sanitize" (listed under a valid name), not ${JSON.stringify(value)}`,
      );
    }
    values[key] = value;
  }
  const { source, out, $schema: _schema, ...names } = values;
  const overrides: ConfigOverrides = { ...(names as ConfigOverrides), ...(policy === undefined ? {} : { policy }) };
  const folder = dirname(path);
  return {
    path,
    overrides,
    ...(source === undefined ? {} : { source: isApiSource(source.trim()) ? source.trim() : resolve(folder, source) }),
    ...(out === undefined ? {} : { out: resolve(folder, out) }),
  };
}

/** The config a command uses: the file `--config` names, else the one found from `cwd` up, else none. */
export async function projectConfig(flag: string | undefined, cwd: string = process.cwd()): Promise<ConfigFile | null> {
  if (flag !== undefined && flag.trim() !== '') return loadConfigFile(flag);
  const found = findConfigFile(cwd);
  return found === null ? null : loadConfigFile(found);
}

export const configFlag = Flags.string({
  description: `JSON file of names and options (packageName, serverName, defaultApiUrl, …, source, out). Default: ${CONFIG_FILE_NAME} in the working folder or the nearest parent that has one.`,
  helpValue: 'FILE',
});
