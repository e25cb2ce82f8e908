// The whole pipeline as one straight line: source → check → plan → emit → write → compile, each a function of typed
// data. Per-tool caching and worker threads are behind `work` (parallel/work.ts), timing behind `stage`; commands are
// thin shells over these functions (and over read-and-check.ts, the check command's source → check).

import { startBudget, type BudgetStep, type DefaultListing, type ListedPackage } from './budget/build-budget.js';
import type { ContextBudget } from './budget/context-budget.js';
import { loadCache, saveCache, segmentRecordsIn } from './cache/build-cache.js';
import { planRelease, previousPackageOf, type Release, type ReleaseMode } from './changelog/package-changelog.js';
import { checkCatalogueWith } from './check/check-catalogue.js';
import type { GeneratorConfig } from './config.js';
import { emitPackage, withFiles, type PackageFiles } from './emit/emit-package.js';
import { createWork } from './parallel/work.js';
import { boundHeapGrowth, collectGarbage, defaultHeapGrowth } from './memory.js';
import { LAYOUT } from './plan/layout.js';
import { planPackage } from './plan/plan-package.js';
import { planWarnings } from './plan/plan-warnings.js';
import { SCHEMA_OUTLINE_JOB } from './plan/type-names.js';
import { failOnErrors, type Problem } from './problems.js';
import { readSource, type SourceOptions } from './source/read-source.js';
import { readPackageFolder } from './write/read-package.js';
import { findDrift, writePackage, type Drift } from './write/write-package.js';

export type { DefaultListing } from './budget/build-budget.js';

export interface BuildOptions {
  source: string;
  outDir: string;
  config: GeneratorConfig;
  sourceOptions?: SourceOptions;
  /** Compare instead of writing. */
  check?: boolean;
  compile?: boolean;
  /** Write into a folder that holds files no build wrote, replacing them (see write/write-package.ts). */
  force?: boolean;
  /** Fail (before writing) when tools/list would cost more tokens than this; see budget/context-budget.ts. */
  maxTokens?: number;
  /** How the version is decided against the package already in outDir (see changelog/package-changelog.ts). */
  release?: ReleaseMode;
  log?: (line: string) => void;
}

export interface BuildResult {
  source: string;
  outDir: string;
  tools: number;
  advertised: number;
  withheld: Array<{ slug: string; reason: string }>;
  warnings: Problem[];
  files: number;
  written: string[];
  removed: string[];
  drift: Drift | null;
  compiled: boolean;
  timingsMs: { source: number; check: number; emit: number; write: number; compile: number };
  /** Per-tool work reused from the cache of an earlier build into the same folder. */
  cache: { hits: number; misses: number };
  /** Per-tool jobs done on worker threads (large catalogues only). */
  parallelJobs: number;
  /** What the tools/list of the tools inside the build's policy costs an agent in tokens. */
  budget: ContextBudget;
  /** The version written, the bump the changes suggest and the CHANGELOG.md entry added (if any). */
  release: Pick<Release, 'version' | 'bump' | 'entry'>;
  /** What the built server lists by default (no environment set), and why. */
  listing: DefaultListing;
}

type Timings = BuildResult['timingsMs'];

/** `stage(name, fn)` runs one stage and adds its time to `timings[name]` (a stage may run in parts). */
function stageClock(): { timings: Timings; stage: <T>(name: keyof Timings, fn: () => T | Promise<T>) => Promise<T> } {
  const timings: Timings = { source: 0, check: 0, emit: 0, write: 0, compile: 0 };
  const stage = async <T>(name: keyof Timings, fn: () => T | Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await fn();
    } finally {
      timings[name] += performance.now() - started;
    }
  };
  return { timings, stage };
}

/** Progress lines for large catalogues (only maps spread over threads report): past every 500 tools and at the end. */
export function progressOf(log: (line: string) => void): (kind: string, done: number, total: number) => void {
  const reported = new Map<string, number>();
  return (kind, done, total) => {
    const before = reported.get(kind) ?? 0;
    reported.set(kind, done);
    if (Math.floor(done / 500) > Math.floor(before / 500) || done === total)
      log(`${kind === 'check' ? 'checked' : 'typed'} ${done}/${total} tools`);
  };
}

/** The write stage: the package, then the build cache beside it (which only saves time, so it may fail alone). */
async function writeStage(
  options: BuildOptions,
  files: PackageFiles,
  cache: Awaited<ReturnType<typeof loadCache>>,
  log: (line: string) => void,
) {
  // The budget's garbage (the tokenizer's tables, what counting made) is dead now; writing adds buffers on top.
  collectGarbage();
  const summary = await writePackage(options.outDir, files, { force: options.force, segments: segmentRecordsIn(cache) });
  await saveCache(options.outDir, cache).catch((error: unknown) => {
    log(
      `warning: the build cache was not saved (${error instanceof Error ? error.message : String(error)}); the package is written, and the next build redoes every tool`,
    );
  });
  log(
    `wrote ${summary.written.length} changed files (${summary.unchanged} unchanged, ${summary.removed.length} removed) to ${options.outDir}`,
  );
  return summary;
}

/** The compile stage: type-check and emit dist/. Loaded only when needed: ts-morph brings the whole TypeScript compiler. */
async function compileStage(outDir: string, log: (line: string) => void): Promise<true> {
  defaultHeapGrowth();
  log('compiling the package (type-check and emit dist/)…');
  const { compilePackage } = await import('./compile/compile-package.js');
  const { kept, reemitted } = await compilePackage(outDir);
  if (kept) log('dist/ kept: the sources and dist/ are as the last compile left them');
  if (reemitted > 0)
    log(
      `dist/ updated without a type-check: ${reemitted} ${reemitted === 1 ? 'module' : 'modules'} changed in comments and spacing only, the code the last compile checked`,
    );
  return true;
}

/** How many tools a raw bundle document lists (0 when it is not a bundle: check then says why). */
function toolCountOf(document: unknown): number {
  const tools = document !== null && typeof document === 'object' ? (document as { tools?: unknown }).tools : undefined;
  return Array.isArray(tools) ? tools.length : 0;
}

export async function buildPackage(options: BuildOptions): Promise<BuildResult> {
  const log = options.log ?? (() => {});
  const clock = stageClock();
  const built = await emitAndWrite(options, clock.stage, log);
  // What emit held (the catalogue, the plan, the file texts, the cache) is garbage from here: the compiler's heap,
  // several times the size, need not mark it at every collection, nor keep within the bound set for emit's peak.
  const compiled =
    options.check !== true && options.compile !== false && (await clock.stage('compile', () => compileStage(options.outDir, log)));
  return { ...built, compiled, timingsMs: clock.timings };
}

/** source → check → plan → emit → budget → write (or, with `check`, the comparison that stands for the write). */
async function emitAndWrite(
  options: BuildOptions,
  stage: ReturnType<typeof stageClock>['stage'],
  log: (line: string) => void,
): Promise<Omit<BuildResult, 'compiled' | 'timingsMs'>> {
  const mode = options.release ?? 'keep';
  const raw = await stage('source', () => readSource(options.source, options.sourceOptions ?? {}));
  const tools = toolCountOf(raw.document);
  const cache = await stage('check', () => loadCache(options.outDir));
  boundHeapGrowth(tools, cache.entries.size);
  const work = createWork(cache, { progress: progressOf(log) });
  const budgetStep = startBudget(cache, tools);
  try {
    const check = await stage('check', () => checkCatalogueWith(raw.document, work));
    failOnErrors(check.problems, `catalogue ${raw.origin} has problems`);
    // A first build types every tool: its workers start now and load while this thread plans.
    if (cache.entries.size === 0) work.prestart(check.tools.length);
    const previous = await stage('emit', () => readPackageFolder(options.outDir, { tools: mode !== 'keep' }));
    const outlines = await stage('emit', () =>
      work.map(
        SCHEMA_OUTLINE_JOB,
        check.tools.map((tool) => tool.manifest),
      ),
    );
    const plan = await stage('emit', () => planPackage(check.tools, previous.lock, { toolNames: options.config.toolNames, outlines }));
    // The version is an input of emit, so package.json, server.json and CHANGELOG.md agree in one write.
    const release = planRelease(previousPackageOf(options.outDir, previous), plan, options.config.names.packageVersion, mode);
    const config: GeneratorConfig = { ...options.config, names: { ...options.config.names, packageVersion: release.version } };
    // With the tokenizer on another thread, the budget counts while emit makes the search index.
    let measuring: ReturnType<BudgetStep['measure']> | null = null;
    const onListed = (listed: ListedPackage): void => {
      measuring = budgetStep.measure(listed, config, options.maxTokens);
      // Awaited below; a failure of emit meanwhile must not leave its rejection unhandled.
      measuring.catch(() => {});
    };
    const emitted = await stage('emit', () =>
      emitPackage(plan, config, work, { changelog: release.changelogText, onListed: budgetStep.countsAside ? onListed : undefined }),
    );
    await work.close();
    log(`emitted ${emitted.files.size} files for ${plan.tools.length} tools`);
    const { budget, listing, advertised, costsText } = await (measuring ?? budgetStep.measure(emitted, config, options.maxTokens));
    const files = withFiles(emitted.files, [[LAYOUT.tokenCosts, costsText]]);
    const withheld = plan.tools.flatMap((t) => (t.withheldReason === null ? [] : [{ slug: t.slug, reason: t.withheldReason }]));
    const warnings = [...planWarnings(check.problems, plan, options.config), ...emitted.warnings];
    const built = {
      source: raw.origin,
      outDir: options.outDir,
      tools: plan.tools.length,
      advertised,
      withheld,
      warnings,
      files: files.size,
      cache: { ...work.stats },
      parallelJobs: work.parallelJobs,
      budget,
      listing,
      release: { version: release.version, bump: release.bump, entry: release.entry },
    };
    if (options.check) return { ...built, written: [], removed: [], drift: await stage('write', () => findDrift(options.outDir, files)) };
    const { written, removed } = await stage('write', () => writeStage(options, files, cache, log));
    return { ...built, written, removed, drift: null };
  } finally {
    await work.close();
    await budgetStep.close();
  }
}
