// The corpus run next to a peer: each API description built by nexusbloom-gen (runSpec) and emitted by
// openapi-mcp-generator, the peer's project type-checked for the specs we type-check (its dependencies installed once
// into a shared cache under .tmp/bench-peers/, linked as its node_modules, checked by this repo's tsc). Used by
// `npm run corpus` and by `npm run bench` on the committed sample.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { REPO_ROOT } from '../helpers/cli.js';
import { tail, runNode } from './measure.js';
import { causeOf, corpusTable, failuresByCause, runSpec, type SpecOutcome, type Stage } from './openapi-corpus.js';
import { installPackages, installPeers, measurePeer, PEERS, type Peer } from './peers.js';

export const CORPUS_PEER: Peer = PEERS.find((peer) => peer.name === 'openapi-mcp-generator')!;
export const PEERS_DIR = join(REPO_ROOT, '.tmp', 'bench-peers');
const TSC = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const TS_VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', 'typescript', 'package.json'), 'utf8')) as { version: string })
  .version;

export interface PeerOutcome {
  spec: string;
  build: 'ok' | 'failed';
  compile: 'ok' | 'failed' | 'skipped';
  /** Emit time (the peer's CLI, spawn to exit) and type-check time. */
  emitMs: number;
  compileMs: number;
  failures: Array<{ stage: Stage; cause: string; detail: string }>;
}

/** One install per distinct dependency set of the emitted projects (the peer's template fixes it): folder or failure. */
const dependencyCaches = new Map<string, Promise<{ dir: string; error: string | null }>>();

/** The emitted project's dependencies (not the compiler: this repo's tsc checks it, not shx: it only sets a file mode). */
async function sharedDependencies(projectDir: string): Promise<{ dir: string; error: string | null }> {
  const pkg = JSON.parse(await readFile(join(projectDir, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const specs = Object.entries({ ...pkg.dependencies, ...pkg.devDependencies })
    .filter(([name]) => name !== 'typescript' && name !== 'shx')
    .map(([name, range]) => `${name}@${range}`)
    .sort();
  const key = createHash('sha256').update(specs.join('\n')).digest('hex').slice(0, 12);
  let cache = dependencyCaches.get(key);
  if (cache === undefined) {
    const dir = join(PEERS_DIR, `emitted-deps-${key}`);
    cache = installPackages(dir, specs).then((error) => ({ dir, error }));
    dependencyCaches.set(key, cache);
  }
  return cache;
}

/** `name version` of the packages the emitted projects were type-checked against, as npm resolved their ranges. */
async function resolvedDependencies(): Promise<string> {
  const names = new Set<string>();
  for (const cache of dependencyCaches.values()) {
    const { dir, error } = await cache;
    if (error !== null) continue;
    for (const name of ['@modelcontextprotocol/sdk', 'zod', 'axios', 'json-schema-to-zod']) {
      const pkg = JSON.parse(await readFile(join(dir, 'node_modules', name, 'package.json'), 'utf8').catch(() => '{}')) as {
        version?: string;
      };
      if (pkg.version !== undefined) names.add(`${name} ${pkg.version}`);
    }
  }
  return [...names].join(', ');
}

export interface PeerTypeCheck {
  ms: number;
  /** Null when it type-checked; else the count and first error, or why it could not run. */
  error: string | null;
  /** The first error's code (`TS2590`), when tsc reported one. */
  code: string | null;
}

/**
 * Runs this repo's tsc on a project the peer emitted into `outDir`, with its dependencies linked from the shared cache:
 * `--noEmit`, or as its own build does (emit: true). Never throws.
 */
export async function typeCheckPeerProject(outDir: string, { emit }: { emit: boolean }): Promise<PeerTypeCheck> {
  try {
    const deps = await sharedDependencies(outDir);
    if (deps.error !== null) return { ms: 0, error: `the emitted project's dependencies did not install: ${deps.error}`, code: null };
    await rm(join(outDir, 'node_modules'), { recursive: true, force: true });
    await symlink(join(deps.dir, 'node_modules'), join(outDir, 'node_modules'), 'dir');
    const checked = await runNode([TSC, '-p', outDir, ...(emit ? [] : ['--noEmit'])], { cwd: outDir });
    if (checked.code === 0) return { ms: checked.wallMs, error: null, code: null };
    const errors = `${checked.stdout}\n${checked.stderr}`.split('\n').filter((line) => /error TS\d+/.test(line));
    return {
      ms: checked.wallMs,
      error:
        errors.length > 0
          ? `${errors.length} errors, first: ${errors[0]!.trim()}`
          : `tsc exited ${checked.code}: ${tail(`${checked.stdout}\n${checked.stderr}`)}`,
      code: errors.length > 0 ? (/error (TS\d+)/.exec(errors[0]!)?.[1] ?? null) : null,
    };
  } catch (error) {
    return { ms: 0, error: (error as Error).message, code: null };
  }
}

/** Emits one API description with the peer and, when asked, type-checks the result; never throws. */
export async function runPeerSpec(specPath: string, spec: string, options: { compile: boolean; workDir: string }): Promise<PeerOutcome> {
  const outcome: PeerOutcome = { spec, build: 'failed', compile: 'skipped', emitMs: 0, compileMs: 0, failures: [] };
  const fail = (stage: Stage, detail: string): void => {
    outcome.failures.push({ stage, cause: causeOf(stage, detail), detail: detail.slice(0, 2000) });
  };
  const outDir = join(options.workDir, `peer-${spec.replace(/[^A-Za-z0-9._-]+/g, '_')}`);
  const emitted = await measurePeer(CORPUS_PEER, PEERS_DIR, specPath, outDir, 1, 0, REPO_ROOT);
  if (!emitted.ok) {
    fail('build', emitted.reason);
    await rm(outDir, { recursive: true, force: true });
    return outcome;
  }
  outcome.build = 'ok';
  outcome.emitMs = emitted.medianMs;
  if (options.compile) {
    const checked = await typeCheckPeerProject(outDir, { emit: false });
    outcome.compileMs = checked.ms;
    outcome.compile = checked.error === null ? 'ok' : 'failed';
    if (checked.error !== null) fail('compile', checked.error);
  }
  await rm(outDir, { recursive: true, force: true });
  return outcome;
}

export interface Comparison {
  ours: SpecOutcome[];
  peer: PeerOutcome[];
  /** Why the peer columns are missing (npm could not install it), or null. */
  peerSkipped: string | null;
  /** Specs both were asked to type-check. */
  typeChecked: number;
}

/**
 * Runs every entry through nexusbloom-gen and, unless `peer` is false or it cannot be installed, the peer; the
 * entries at `compiled` positions are type-checked by both.
 */
export async function compareOnCorpus(
  entries: ReadonlyArray<{ path: string; file: string }>,
  options: { compiled: (position: number) => boolean; calls: number; workDir: string; peer: boolean },
  progress: (line: string) => void,
): Promise<Comparison> {
  const peerSkipped = options.peer ? await installPeers(PEERS_DIR, [CORPUS_PEER]) : 'not asked for';
  const result: Comparison = {
    ours: [],
    peer: [],
    peerSkipped,
    typeChecked: entries.filter((_, position) => options.compiled(position)).length,
  };
  for (const [position, entry] of entries.entries()) {
    const compile = options.compiled(position);
    const ours = await runSpec(entry.path, entry.file, { compile, calls: options.calls, workDir: options.workDir });
    result.ours.push(ours);
    await rm(join(options.workDir, entry.file.replace(/[^A-Za-z0-9._-]+/g, '_')), { recursive: true, force: true });
    const peer = peerSkipped === null ? await runPeerSpec(entry.path, entry.file, { compile, workDir: options.workDir }) : null;
    if (peer) result.peer.push(peer);
    const causes = (failures: ReadonlyArray<{ cause: string }>): string =>
      failures.length === 0 ? 'ok' : failures.map((f) => f.cause).join('; ');
    progress(
      `${position + 1}/${entries.length} ${entry.file}: ${causes(ours.failures)}${peer ? ` | ${CORPUS_PEER.name}: ${causes(peer.failures)}` : ''}`,
    );
  }
  return result;
}

/** `compiled` for a sample of `total`: `count` positions spread evenly over it (the first always among them). */
export function spreadPositions(total: number, count: number): (position: number) => boolean {
  const k = Math.min(count, total);
  return (position) => k > 0 && Math.floor((position * k) / total) !== Math.floor(((position - 1) * k) / total);
}

function groupsText(groups: ReturnType<typeof failuresByCause>): string {
  return groups.length === 0
    ? '  none'
    : groups
        .map(
          (g) =>
            `  ${g.specs.length}× ${g.cause}\n     ${g.specs.join(', ')}\n     e.g. ${
              g.example
                .split('\n')
                .find((line) => line.trim() !== '' && !/has problems: \d+ error/.test(line))
                ?.trim()
                .slice(0, 300) ?? ''
            }`,
        )
        .join('\n');
}

/** The table (ours, then the peer's columns), the failures of each grouped by cause, and a summary line. */
export async function comparisonReport(result: Comparison): Promise<string> {
  const { ours, peer, typeChecked: checked } = result;
  const oursLine =
    `nexusbloom-gen: build ${ours.filter((o) => o.build === 'ok').length}/${ours.length}, compile ${ours.filter((o) => o.compile === 'ok').length}/${checked}, ` +
    `every stage ${ours.filter((o) => o.failures.length === 0).length}/${ours.length}`;
  const lines = [
    corpusTable(ours, peer),
    '',
    `Times: our build = convert + build --no-compile + bundle the bin, compile = type-check + emit, total = every stage with start, list and calls; ` +
      `the peer's build = its CLI, spawn to exit, compile = tsc --noEmit (typescript ${TS_VERSION}) on the emitted project${await resolvedDependencies().then((d) => (d ? `, its dependencies as npm resolved the emitted ranges: ${d}` : ''))}.`,
    '',
    'nexusbloom-gen failures by cause:',
    groupsText(failuresByCause(ours)),
  ];
  if (result.peerSkipped !== null) {
    lines.push(
      '',
      `peer not installed: ${result.peerSkipped}`,
      '',
      `Specs where each succeeded (${ours.length} specs, ${checked} type-checked): ${oursLine}`,
    );
  } else {
    lines.push(
      '',
      `${CORPUS_PEER.label} failures by cause:`,
      groupsText(failuresByCause(peer)),
      '',
      `Specs where each succeeded (${ours.length} specs, ${checked} type-checked by both): ${oursLine}; ` +
        `${CORPUS_PEER.label}: emit ${peer.filter((p) => p.build === 'ok').length}/${peer.length}, compile ${peer.filter((p) => p.compile === 'ok').length}/${checked}`,
    );
  }
  return lines.join('\n');
}
