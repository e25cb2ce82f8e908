// Builds an API description into a package the tests can start: written by the real CLI with --no-compile, then its
// bin bundled by esbuild (no type-check), so starting a server costs seconds; the type-check is asked for separately.

import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bundleBin } from '../../src/runtime/dev/bundle-bin.js';
import { REPO_ROOT, runCli } from './cli.js';

export interface BuiltApi {
  dir: string;
  stdout: string;
  stderr: string;
}

/** Builds `sourceText` (JSON or YAML) under `.tmp/openapi-<name>/` with `config`; throws with the CLI's output on failure. */
export async function builtApiPackage(name: string, sourceText: string, config: Record<string, string> = {}): Promise<BuiltApi> {
  const base = join(REPO_ROOT, '.tmp', `openapi-${name}`);
  await rm(base, { recursive: true, force: true });
  await mkdir(base, { recursive: true });
  const source = join(base, 'api-description');
  const configFile = join(base, 'config.json');
  await writeFile(source, sourceText);
  await writeFile(configFile, JSON.stringify(config));
  const dir = join(base, 'package');
  const built = await runCli(['build', '--source', source, '--out', dir, '--config', configFile, '--no-compile']);
  if (built.code !== 0) throw new Error(`build of ${name} failed (exit ${built.code}):\n${built.stderr}`);
  await bundleBin(dir, [join(REPO_ROOT, 'node_modules')]);
  return { dir, stdout: built.stdout, stderr: built.stderr };
}
