// The warning a build gives when a catalogue other than NexusBloom's would take NexusBloom's names: its package name
// (which host snippets run with `npx -y`, and which is already on npm), its server name and its default API.

import { resolve } from 'node:path';
import { DEFAULT_NAMES, type GeneratorConfig } from '../pipeline/config.js';
import { EXAMPLE_BUNDLE, isApiSource } from '../pipeline/source/read-source.js';
import { CONFIG_FILE_NAME, type ConfigFile } from './config-file.js';

/** The names that say whose server it is; a foreign catalogue must not get NexusBloom's. */
export const IDENTITY_KEYS = ['packageName', 'serverName', 'defaultApiUrl'] as const;

/** Whether `source` is NexusBloom's own catalogue: the bundled example, or an API on NexusBloom's host. */
export function isNexusBloomCatalogue(source: string): boolean {
  if (!isApiSource(source)) return resolve(source) === EXAMPLE_BUNDLE;
  try {
    return new URL(source).hostname === new URL(DEFAULT_NAMES.defaultApiUrl).hostname;
  } catch {
    return false;
  }
}

/** One warning line naming the config file to create or complete and the defaults taken; null when none is due. */
export function defaultNamesWarning(
  source: string,
  shownSource: string,
  file: ConfigFile | null,
  config: GeneratorConfig,
  cwd: string = process.cwd(),
): string | null {
  if (isNexusBloomCatalogue(source)) return null;
  const defaulted = IDENTITY_KEYS.filter((key) => file?.overrides[key] === undefined);
  if (defaulted.length === 0) return null;
  const taken = defaulted.map((key) => `${key} ${JSON.stringify(config.names[key])}`).join(', ');
  const why = defaulted.includes('packageName') ? ` (hosts would run \`npx -y ${config.names.packageName}\`, NexusBloom's own server)` : '';
  if (file === null) {
    return (
      `warning: no ${CONFIG_FILE_NAME} in ${cwd} or a parent, so ${shownSource} was built under NexusBloom's names: ${taken}${why}. ` +
      `Create ${resolve(cwd, CONFIG_FILE_NAME)} with your own (\`nexusbloom-gen init\` writes one), or pass --config FILE.`
    );
  }
  return `warning: ${file.path} does not set ${defaulted.join(', ')}, so ${shownSource} was built with NexusBloom's: ${taken}${why}. Add ${defaulted.length === 1 ? 'it' : 'them'} to ${file.path}.`;
}
