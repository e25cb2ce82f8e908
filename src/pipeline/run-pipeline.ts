// The whole pipeline as one straight line: source → check → plan → emit → write → compile.
// Commands are thin shells over these functions.

import { contextBudget, overBudgetMessage, type ContextBudget } from './budget/context-budget.js';
import { startCountingThread } from './budget/counting-thread.js';
import { loadCache, saveCache } from './cache/build-cache.js';
import type { Manifest } from '../runtime/contracts.js';
import { checkCacheKey, checkCatalogue, type CheckResult } from './check/check-catalogue.js';
import type { GeneratorConfig } from './config.js';
import { cachedListParts } from './emit/advertised-list.js';
import { emitPackage, looseTypeWarnings, moduleCacheKey, type PackageFiles } from './emit/emit-package.js';
import { collectGarbage } from './memory.js';
import { DEFAULT_TOOLS_THRESHOLD, isAdvertised, isListable } from '../runtime/advertise.js';
import { tokenCostsFileText } from '../runtime/listing/index.js';
import { createPolicyView, describePolicy, readPolicySettings } from '../runtime/policy/index.js';
import { createToolPool, workersAllowed, type ToolJob } from './parallel/warm-cache.js';
import { planPackage, type PackagePlan } from './plan/plan-package.js';
import { formatProblem, hasErrors, PipelineError, type Problem } from './problems.js';
import { readSource, type RawCatalogue, type SourceOptions } from './source/read-source.js';
import { findDrift, writePackage, type Drift } from './write/write-package.js';
import { readPackageFolder } from './write/read-package.js';
import { LAYOUT } from './plan/layout.js';
import { planRelease, previousPackageOf, type Release, type ReleaseMode } from './changelog/package-changelog.js';

export interface CheckedCatalogue {
  raw: RawCatalogue;
  check: CheckResult;
}

/** source → check, for the check command: problems are returned, not thrown (see failOnErrors). */
export async function readAndCheck(source: string, options: SourceOptions): Promise<CheckedCatalogue> {
  const raw = await readSource(source, options);
  const check = checkCatalogue(raw.document);
  return { raw, check };
}

export function failOnErrors(problems: readonly Problem[], what: string): void {
  if (!hasErrors(problems)) return;
  const errors = problems.filter((p) => p.severity === 'error');
  throw new PipelineError(`${what}: ${errors.length} error(s)\n${errors.map(formatProblem).join('\n')}`, problems);
}

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

/** What a server lists with no environment set: every tool inside the policy up to the hosts' limit, else the meta-tool. */
export interface DefaultListing {
  /** `all`: every listable tool and the meta-tool; `meta`: the meta-tool alone (the catalogue is larger than hosts take). */
  shows: 'all' | 'meta';
  /** Catalogue tools with their own entry in tools/list by default. */
  listed: number;
  /** Tools the build's policy leaves out of everything. */
  outsidePolicy: number;
  /** The policy in words. */
  policy: string;
  /** Tokens of the default tools/list answer (o200k_base). */
  tokens: number;
}

/**
 * A grammar-valid slug spelled like the meta-tool cannot have its name in tools/list: the meta-tool keeps it, and the
 * server reaches the tool through the meta-tool's `run` command instead. Said at build time, not only by the server.
 */
function metaToolNameClashes(plan: PackagePlan, config: GeneratorConfig): Problem[] {
  return plan.tools.flatMap((tool): Problem[] =>
    isAdvertised(tool) && !isListable(tool, config.names.metaToolName)
      ? [{ severity: 'warning', slug: tool.slug, pointer: '/slug', message: `not advertised in tools/list: the meta-tool has this name; {"command":"run"} still reaches it`, hint: 'rename the slug, or give the meta-tool another name (metaToolName in build --config)' }]
      : [],
  );
}

/** A check warning that a slug is withheld, for a slug the plan mapped to a valid tool name instead. */
function hasMappedName(plan: PackagePlan, problem: Problem): boolean {
  return problem.pointer === '/slug' && plan.tools.some((tool) => tool.slug === problem.slug && tool.toolName !== undefined);
}

/** One line per slug listed under a mapped name (`toolNames: "sanitize"`), in place of its withheld warning. */
function mappedNameNotes(plan: PackagePlan): Problem[] {
  return plan.tools.flatMap((tool): Problem[] => tool.toolName === undefined ? [] : [
    { severity: 'warning', slug: tool.slug, pointer: '/slug', message: `listed in tools/list as ${JSON.stringify(tool.toolName)} (toolNames: "sanitize"; recorded in ${LAYOUT.namesLock})` },
  ]);
}

/** Progress lines for large catalogues: every 500 tools and at the end. */
function progressEvery(log: (line: string) => void, what: string): (done: number, total: number) => void {
  return (done, total) => {
    if (done % 500 < 25 || done === total) log(`${what} ${done}/${total} tools`);
  };
}

export async function buildPackage(options: BuildOptions): Promise<BuildResult> {
  const log = options.log ?? (() => {});
  const timings = { source: 0, check: 0, emit: 0, write: 0, compile: 0 };
  let started = performance.now();
  const raw = await readSource(options.source, options.sourceOptions ?? {});
  timings.source = performance.now() - started;
  started = performance.now();
  const cache = await loadCache(options.outDir);
  const folder = await readPackageFolder(options.outDir, { tools: (options.release ?? 'keep') !== 'keep' });
  // An earlier build's cache makes this a rebuild, which counts the tokens of few entries, if any, but would wait
  // 0.3–0.5 s for the tokenizer to load: it loads on the other core meanwhile.
  const counting = cache.entries.size > 0 && workersAllowed() ? startCountingThread() : null;
  try {
    let parallelJobs = 0;
    const pool = createToolPool();
    let check: CheckResult;
    let plan: PackagePlan;
    try {
      const rawTools = (raw.document as { tools?: unknown } | null)?.tools;
      if (Array.isArray(rawTools)) {
        const jobs = rawTools.flatMap((manifest): ToolJob[] =>
          manifest && typeof manifest === 'object' && typeof (manifest as Manifest).slug === 'string' ? [{ kind: 'check', key: checkCacheKey(manifest as Manifest), manifest: manifest as Manifest }] : [],
        );
        parallelJobs += await pool.warm(cache, jobs, progressEvery(log, 'checked'));
      }
      check = checkCatalogue(raw.document, cache);
      timings.check = performance.now() - started;
      failOnErrors(check.problems, `catalogue ${raw.origin} has problems`);
      started = performance.now();
      plan = planPackage(check.tools, folder.lock, { toolNames: options.config.toolNames });
      parallelJobs += await pool.warm(cache, plan.tools.map((tool): ToolJob => ({ kind: 'module', key: moduleCacheKey(tool), tool })), progressEvery(log, 'typed'));
    } finally {
      await pool.close();
    }
    // The version is an input of emit, so package.json, server.json and CHANGELOG.md agree in one write.
    const release = planRelease(previousPackageOf(options.outDir, folder), plan, options.config.names.packageVersion, options.release ?? 'keep');
    const config: GeneratorConfig = { ...options.config, names: { ...options.config.names, packageVersion: release.version } };
    let files: PackageFiles = await emitPackage(plan, config, cache, { changelog: release.changelogText });
    timings.emit = performance.now() - started;
    log(`emitted ${files.size} files for ${plan.tools.length} tools`);
    // budget: the tokens of tools/list as the built server answers it; over --max-tokens fails before anything is written.
    collectGarbage();
    const allTools = plan.tools.map((t) => ({ slug: t.slug, manifest: t.manifest, identifier: t.identifier, withheldReason: t.withheldReason, ...(t.toolName === undefined ? {} : { toolName: t.toolName }) }));
    // The build's policy as a server with no environment applies it (src/runtime/policy/): what it leaves out is counted nowhere.
    const policy = readPolicySettings(options.config.names, {}, () => {}, options.config.policy);
    const servedTools = createPolicyView(policy.policy).allowed(allTools);
    const budget = await contextBudget(servedTools, options.config.names, { cache, entryJsonOf: (tool) => cachedListParts(tool, cache).tool, ...(counting && { counter: counting.counter }) });
    // The figures a server cut to the meta-tool reports at start-up.
    const costs = tokenCostsFileText({
      encoding: budget.encoding, total: budget.total, metaOnly: budget.metaOnly, perTool: Object.fromEntries(budget.perTool.map((tool) => [tool.slug, tool.tokens])),
    });
    files = new Map([...files, [LAYOUT.tokenCosts, costs] as const].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    const listable = servedTools.filter((t) => isListable(t, options.config.names.metaToolName)).length;
    const shows = listable + 1 > DEFAULT_TOOLS_THRESHOLD ? 'meta' : 'all';
    const listing: DefaultListing = {
      shows, listed: shows === 'all' ? listable : 0, outsidePolicy: allTools.length - servedTools.length,
      policy: describePolicy(policy.policy), tokens: shows === 'all' ? budget.total : budget.metaOnly,
    };
    // Its tables are not needed past this point.
    await counting?.close();
    const overBudget = options.maxTokens === undefined ? null : overBudgetMessage(budget, options.maxTokens, options.config.names.envPrefix);
    if (overBudget !== null) throw new PipelineError(overBudget);
    const base = {
      source: raw.origin,
      outDir: options.outDir,
      tools: plan.tools.length,
      advertised: servedTools.filter((t) => isListable(t, options.config.names.metaToolName)).length,
      withheld: plan.tools.flatMap((t) => (t.withheldReason === null ? [] : [{ slug: t.slug, reason: t.withheldReason }])),
      warnings: [...check.problems.filter((p) => p.severity === 'warning' && !hasMappedName(plan, p)), ...mappedNameNotes(plan), ...metaToolNameClashes(plan, options.config), ...looseTypeWarnings(plan, files)],
      files: files.size,
      cache: { ...cache.stats },
      parallelJobs,
      budget,
      release: { version: release.version, bump: release.bump, entry: release.entry },
      listing,
    };
    started = performance.now();
    if (options.check) {
      const drift = await findDrift(options.outDir, files);
      timings.write = performance.now() - started;
      return { ...base, written: [], removed: [], drift, compiled: false, timingsMs: timings };
    }
    const summary = await writePackage(options.outDir, files, { force: options.force });
    // The cache only saves time: a folder that cannot hold it (node_modules read-only, or a file) still gets its package.
    await saveCache(options.outDir, cache).catch((error: unknown) => {
      log(`warning: the build cache was not saved (${error instanceof Error ? error.message : String(error)}); the package is written, and the next build redoes every tool`);
    });
    timings.write = performance.now() - started;
    log(`wrote ${summary.written.length} changed files (${summary.unchanged} unchanged, ${summary.removed.length} removed) to ${options.outDir}`);
    let compiled = false;
    if (options.compile !== false) {
      started = performance.now();
      log('compiling the package (type-check and emit dist/)…');
      // Loaded only when needed: ts-morph brings the whole TypeScript compiler.
      const { compilePackage } = await import('./compile/compile-package.js');
      await compilePackage(options.outDir);
      timings.compile = performance.now() - started;
      compiled = true;
    }
    return { ...base, written: summary.written, removed: summary.removed, drift: null, compiled, timingsMs: timings };
  } finally {
    await counting?.close();
  }
}
