// Generation benchmarks: the real `nexusbloom-gen build` process, without and with compile, and a regeneration
// with one tool changed into an existing output folder (without compile, and with it into a copy of a compiled
// package, followed by the same catalogue built again).

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bundleText, withOneToolChanged, withOneToolsSchemaChanged, type SyntheticBundle } from './catalogue.js';
import { median, repeat, retire, runNode, tail, type ProcessRun } from './measure.js';

export interface StageTimings {
  source: number;
  check: number;
  emit: number;
  write: number;
  compile: number;
}

export interface GenerationStat {
  runs: number;
  medianMs: number;
  /** Median of the runs' peak RSS, KiB; null when not measurable. */
  peakRssKb: number | null;
  /** Median per stage of the generator's own `timingsMs`. */
  stagesMs: StageTimings;
  /** Files written by the last run. */
  written: number;
  files: number;
}

export interface GenerationPlan {
  /** Root of the generator to run (a snapshot of the repo's build, see generator-snapshot.ts). */
  generatorRoot: string;
  bundle: SyntheticBundle;
  bundlePath: string;
  workDir: string;
  noCompileRuns: number;
  compileRuns: number;
  regenRuns: number;
  /** Per measure, the time after which no further run is started. */
  budgetMs: number;
}

export interface GenerationResult {
  noCompile: GenerationStat;
  regenerate: GenerationStat;
  compile: GenerationStat;
  /** One tool changed, built with compile into a compiled package (its build cache kept). */
  regenerateCompiled: GenerationStat;
  /** One tool's input schema changed, rebuilt with compile: its types change, so the package is type-checked. */
  reshapeCompiled: GenerationStat;
  /** Then the same catalogue built with compile once more. */
  rebuildUnchanged: GenerationStat;
  /** The compiled package of the last compile run, for the server benchmarks. */
  packageDir: string;
}

interface BuildJson {
  files: number;
  written: string[];
  timingsMs: StageTimings;
}

async function build(
  generatorRoot: string,
  source: string,
  outDir: string,
  compile: boolean,
): Promise<{ run: ProcessRun; json: BuildJson }> {
  const args = [join(generatorRoot, 'bin', 'run.js'), 'build', '--source', source, '--out', outDir, '--json'];
  if (!compile) args.push('--no-compile');
  const run = await runNode(args, { cwd: generatorRoot, env: { NEXUSBLOOM_API_URL: '', NEXUSBLOOM_API_KEY: '' } });
  if (run.code !== 0)
    throw new Error(`build ${compile ? '' : '--no-compile '}of ${source} exited ${run.code}: ${tail(run.stderr || run.stdout)}`);
  return { run, json: JSON.parse(run.stdout) as BuildJson };
}

function summarize(results: ReadonlyArray<{ run: ProcessRun; json: BuildJson }>): GenerationStat {
  const rss = results.flatMap((r) => (r.run.peakRssKb === null ? [] : [r.run.peakRssKb]));
  const stage = (key: keyof StageTimings): number => median(results.map((r) => r.json.timingsMs[key]));
  const last = results[results.length - 1]!;
  return {
    runs: results.length,
    medianMs: median(results.map((r) => r.run.wallMs)),
    peakRssKb: rss.length > 0 ? median(rss) : null,
    stagesMs: { source: stage('source'), check: stage('check'), emit: stage('emit'), write: stage('write'), compile: stage('compile') },
    written: last.json.written.length,
    files: last.json.files,
  };
}

export async function measureGeneration(plan: GenerationPlan, progress: (line: string) => void): Promise<GenerationResult> {
  const size = plan.bundle.tools.length;
  const outDir = join(plan.workDir, `out-${size}`);

  progress(`build --no-compile, ${size} tools`);
  const fresh = await repeat(plan.noCompileRuns, plan.budgetMs, async () => {
    await retire(outDir);
    return build(plan.generatorRoot, plan.bundlePath, outDir, false);
  });

  progress(`one-tool-changed regeneration, ${size} tools`);
  const regenerated = await repeat(plan.regenRuns, plan.budgetMs, async (run) => {
    const changedPath = join(plan.workDir, `catalogue-${size}-changed.json`);
    await writeFile(changedPath, bundleText(withOneToolChanged(plan.bundle, run + 1)));
    return build(plan.generatorRoot, changedPath, outDir, false);
  });

  progress(`build with compile, ${size} tools`);
  const packageDir = join(plan.workDir, `pkg-${size}`);
  const compiled = await repeat(plan.compileRuns, plan.budgetMs, async () => {
    await retire(packageDir);
    return build(plan.generatorRoot, plan.bundlePath, packageDir, true);
  });

  progress(`one-tool-changed regeneration with compile, ${size} tools`);
  const rebuiltDir = join(plan.workDir, `pkg-${size}-rebuilt`);
  await retire(rebuiltDir);
  // Built there, not copied: a copy's dist/ has new modification times, which a compile rightly does not trust.
  await build(plan.generatorRoot, plan.bundlePath, rebuiltDir, true);
  let lastChanged = plan.bundlePath;
  const regeneratedCompiled = await repeat(plan.regenRuns, plan.budgetMs, async (run) => {
    lastChanged = join(plan.workDir, `catalogue-${size}-changed-compiled-${run}.json`);
    await writeFile(lastChanged, bundleText(withOneToolChanged(plan.bundle, run + 1)));
    return build(plan.generatorRoot, lastChanged, rebuiltDir, true);
  });
  progress(`one-tool schema change with compile, ${size} tools`);
  const reshapedCompiled = await repeat(plan.regenRuns, plan.budgetMs, async (run) => {
    lastChanged = join(plan.workDir, `catalogue-${size}-reshaped-compiled-${run}.json`);
    await writeFile(lastChanged, bundleText(withOneToolsSchemaChanged(plan.bundle, run + 1)));
    return build(plan.generatorRoot, lastChanged, rebuiltDir, true);
  });
  progress(`same catalogue again with compile, ${size} tools`);
  const unchanged = await repeat(plan.regenRuns, plan.budgetMs, () => build(plan.generatorRoot, lastChanged, rebuiltDir, true));
  await retire(rebuiltDir);

  return {
    noCompile: summarize(fresh),
    regenerate: summarize(regenerated),
    compile: summarize(compiled),
    regenerateCompiled: summarize(regeneratedCompiled),
    reshapeCompiled: summarize(reshapedCompiled),
    rebuildUnchanged: summarize(unchanged),
    packageDir,
  };
}
