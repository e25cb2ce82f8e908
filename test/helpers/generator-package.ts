// The generator as users get it: packed from this checkout the way `npm publish` packs it, published to the loopback
// registry (test/helpers/registry.ts), so a test installs `nexusbloom-gen` from a registry, never from the repo.

import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, runProcess } from './cli.js';
import { GENERATED_PACKAGE_DEPENDENCIES, type Registry } from './registry.js';

const generatorManifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  dependencies: Record<string, string>;
};

/** What a registry must hold to install the generator and then the packages it writes. */
export const GENERATOR_REGISTRY_ROOTS: readonly string[] = [
  ...new Set([...Object.keys(generatorManifest.dependencies), ...GENERATED_PACKAGE_DEPENDENCIES]),
].sort();

/**
 * Packs the checkout (its compiled dist/, from `npm run build`) and publishes the tarball to `registry`; returns the
 * name and version to install.
 */
export async function publishGenerator(registry: Registry, env: Record<string, string>): Promise<{ name: string; version: string }> {
  if (!existsSync(join(REPO_ROOT, 'dist', 'commands', 'build.js'))) throw new Error('dist/ is not built: run `npm run build` first');
  const work = await mkdtemp(join(tmpdir(), 'nb-generator-pack-'));
  try {
    // dist/ is already built; the pack must not rebuild it under a test (prepack would).
    const packed = await runProcess('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: REPO_ROOT, env });
    if (packed.code !== 0) throw new Error(`npm pack of the generator failed (exit ${packed.code}):\n${packed.stderr}`);
    const [entry] = JSON.parse(packed.stdout) as Array<{ filename: string }>;
    const published = await runProcess(
      'npm',
      ['publish', join(work, entry!.filename), '--registry', `${registry.url}/`, '--ignore-scripts'],
      { cwd: work, env },
    );
    if (published.code !== 0)
      throw new Error(
        `npm publish of the generator failed (exit ${published.code}):\n${published.stdout}\n${published.stderr}\n${registry.log()}`,
      );
    return { name: generatorManifest.name, version: generatorManifest.version };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
