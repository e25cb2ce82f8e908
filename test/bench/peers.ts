// Peer generators, installed at bench time into a cache folder (never project dependencies) and timed on the
// synthetic catalogue converted to OpenAPI 3.1. A peer that cannot be installed or fails is reported, not fatal.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { median, repeat, retire, runNode, tail } from './measure.js';

export interface Peer {
  label: string;
  /** npm package name and the version spec installed. */
  name: string;
  version: string;
  args: (spec: string, outDir: string) => string[];
}

export const PEERS: readonly Peer[] = [
  {
    label: 'openapi-mcp-generator 4.0.1',
    name: 'openapi-mcp-generator',
    version: '4.0.1',
    args: (spec, outDir) => ['-i', spec, '-o', outDir, '--force'],
  },
  {
    label: 'orval 8 (--client mcp)',
    name: 'orval',
    version: '8.38.0',
    args: (spec, outDir) => ['--input', spec, '--output', join(outDir, 'endpoints.ts'), '--client', 'mcp'],
  },
];

export type PeerStat =
  { ok: true; runs: number; medianMs: number; peakRssKb: number | null; files: number } | { ok: false; reason: string };

/** Package folder of an installed peer, or null. */
function installedDir(prefix: string, peer: Peer): string | null {
  const dir = join(prefix, 'node_modules', peer.name);
  try {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: string };
    return pkg.version === peer.version ? dir : null;
  } catch {
    return null;
  }
}

/** Installs the peers into `prefix` in one npm call (under the shared npm lock) unless all are there. Returns npm's failure, if any. */
export async function installPeers(prefix: string, peers: readonly Peer[]): Promise<string | null> {
  // All of them when one is missing: a peer installed unsaved by an older bench would be pruned by this install.
  const missing = peers.some((peer) => installedDir(prefix, peer) === null);
  return missing
    ? installPackages(
        prefix,
        peers.map((p) => `${p.name}@${p.version}`),
      )
    : null;
}

/** `npm install` of `specs` (name@range) into the prefix `prefix`, under the shared npm lock. Returns npm's failure, if any. */
export async function installPackages(prefix: string, specs: readonly string[]): Promise<string | null> {
  await mkdir(prefix, { recursive: true });
  if (!existsSync(join(prefix, 'package.json')))
    await writeFile(join(prefix, 'package.json'), '{ "name": "bench-peers", "private": true }\n');
  // Saved into the prefix's own package.json: an unsaved package would be pruned by the next install into it.
  const npmArgs = ['install', '--no-audit', '--no-fund', '--save-exact', '--prefix', prefix, ...specs];
  const hasFlock = spawnSync('flock', ['--version']).status === 0;
  const [command, args] = hasFlock ? ['flock', ['/tmp/npm.lock', 'npm', ...npmArgs]] : ['npm', npmArgs];
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error) => resolve(`npm install failed: ${error.message}`));
    child.on('close', (code) => resolve(code === 0 ? null : `npm install exited ${code}: ${npmFailure(stderr)}`));
  });
}

/** npm's own account of a failure: its `npm error` lines without stack frames and boilerplate, the first three. */
function npmFailure(stderr: string): string {
  const lines = stderr
    .split('\n')
    .filter(
      (line) => line.startsWith('npm error') && !/^npm error\s+at |complete log|behind a proxy|^npm error (syscall|errno)\b/.test(line),
    );
  return lines.length > 0
    ? lines
        .slice(0, 3)
        .map((line) => line.replace(/^npm error\s*/, ''))
        .join(' | ')
        .slice(0, 400)
    : tail(stderr);
}

/** The CLI script a package's `bin` names (its only one, or the one named like the package). */
function binOf(dir: string, name: string): string {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { bin?: string | Record<string, string> };
  const bin = typeof pkg.bin === 'string' ? pkg.bin : (pkg.bin?.[name] ?? Object.values(pkg.bin ?? {})[0]);
  if (bin === undefined) throw new Error(`${name} has no bin`);
  return join(dir, bin);
}

/** Node's `engines` range of a peer when this node is plainly older than its minimum (">=X.Y"), else null. */
function engineMismatch(dir: string): string | null {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { engines?: { node?: string } };
  const range = pkg.engines?.node;
  const minimum = range && /^>=\s*(\d+)(?:\.(\d+))?/.exec(range);
  if (!minimum) return null;
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const [needMajor, needMinor] = [Number(minimum[1]), Number(minimum[2] ?? 0)];
  return major < needMajor || (major === needMajor && minor < needMinor) ? `declares node ${range}, this is ${process.version}` : null;
}

async function countFiles(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).length;
}

export async function measurePeer(
  peer: Peer,
  prefix: string,
  spec: string,
  outDir: string,
  runs: number,
  budgetMs: number,
  cwd: string,
): Promise<PeerStat> {
  const dir = installedDir(prefix, peer);
  if (dir === null) return { ok: false, reason: `${peer.name}@${peer.version} is not installed in ${prefix}` };
  const mismatch = engineMismatch(dir);
  try {
    const results = await repeat(runs, budgetMs, async () => {
      await retire(outDir);
      const run = await runNode([binOf(dir, peer.name), ...peer.args(spec, outDir)], { cwd });
      const files = await countFiles(outDir);
      if (run.code !== 0 || files === 0) {
        const why = run.code !== 0 ? `exited ${run.code}` : 'exited 0 but wrote no files';
        throw new Error(`${why}: ${tail(`${run.stderr}\n${run.stdout}`, 2)}`);
      }
      return { ...run, files };
    });
    const rss = results.flatMap((r) => (r.peakRssKb === null ? [] : [r.peakRssKb]));
    return {
      ok: true,
      runs: results.length,
      medianMs: median(results.map((r) => r.wallMs)),
      peakRssKb: rss.length ? median(rss) : null,
      files: results[0]!.files,
    };
  } catch (error) {
    return { ok: false, reason: `${(error as Error).message}${mismatch ? ` (${mismatch})` : ''}` };
  }
}
