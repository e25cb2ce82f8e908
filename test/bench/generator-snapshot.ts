// A private copy of the built generator for the bench to run. The working tree is shared and `npm run build`
// deletes dist/ before recompiling, so a bench of many minutes against dist/ itself would fail halfway.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** What the generator reads at run time, relative to its root (see the `import.meta.url` lookups in src/pipeline). */
const GENERATOR_PATHS = [
  'bin',
  'dist',
  'templates',
  'src/runtime',
  'src/schemas',
  'examples/catalogue.json',
  'package.json',
  'oclif.manifest.json',
];
const BUILT_MARKERS = [
  'dist/commands/build.js',
  'dist/commands/check.js',
  'dist/pipeline/run-pipeline.js',
  'dist/pipeline/compile/compile-package.js',
  'dist/runtime-build/manifest.json',
];

/**
 * Copies the generator from `repoRoot` to `dest` (node_modules linked, not copied) and checks that the copy runs
 * `check` on `smokeBundle`. Retries for a while when dist/ is missing or mid-rebuild. Returns `dest`.
 */
export async function snapshotGenerator(
  repoRoot: string,
  dest: string,
  smokeBundle: string,
  progress: (line: string) => void,
): Promise<string> {
  let lastError = '';
  for (let attempt = 0; attempt < 12; attempt += 1) {
    if (attempt > 0) {
      progress(`generator snapshot not usable yet (${lastError}); retrying in 10 s`);
      await sleep(10_000);
    }
    const missing = BUILT_MARKERS.filter((path) => !existsSync(join(repoRoot, path)));
    if (missing.length > 0) {
      lastError = `missing ${missing.join(', ')}: run \`npm run build\``;
      continue;
    }
    await rm(dest, { recursive: true, force: true });
    await mkdir(dest, { recursive: true });
    try {
      for (const path of GENERATOR_PATHS) {
        if (existsSync(join(repoRoot, path))) await cp(join(repoRoot, path), join(dest, path), { recursive: true });
      }
    } catch (error) {
      lastError = `copy failed: ${(error as Error).message}`;
      continue;
    }
    await symlink(join(repoRoot, 'node_modules'), join(dest, 'node_modules'), 'dir');
    const smoke = spawnSync(process.execPath, [join(dest, 'bin', 'run.js'), 'check', '--source', smokeBundle], {
      cwd: dest,
      encoding: 'utf8',
    });
    if (smoke.status === 0) return dest;
    lastError = `check exited ${smoke.status}: ${smoke.stderr.trim().split('\n').slice(-2).join(' ')}`;
  }
  throw new Error(`cannot take a working snapshot of the generator: ${lastError}`);
}
