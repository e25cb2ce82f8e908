// Builds dist/ and oclif.manifest.json before a pack, publish or git install (npm's prepack and prepare), with what
// the build prints sent to stderr: `npm pack --json` and `npm publish --json` print their report on stdout.
// Usage: node scripts/pack-build.mjs [--clean]   (--clean first removes dist/, so no stale module is packed)

import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';

if (process.argv.includes('--clean')) rmSync('dist', { recursive: true, force: true });
const built = spawnSync('npm', ['run', 'build'], { stdio: ['ignore', 2, 2], shell: process.platform === 'win32' });
if (built.error) process.stderr.write(`${built.error.message}\n`);
process.exitCode = built.status ?? 1;
