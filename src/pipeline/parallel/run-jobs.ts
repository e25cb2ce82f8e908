// The per-tool work a pool spreads: schema checks and tool modules. Worker threads and the main thread run it alike.

import { schemaProblems } from '../check/check-catalogue.js';
import { createSchemaCompiler, type SchemaCompiler } from '../check/schema-compiler.js';
import { renderToolModule } from '../emit/emit-package.js';
import type { ToolJob, ToolJobResult } from './warm-cache.js';

/** Runs jobs one by one with its own ajv instances; `between` runs after each job (the main thread yields there). */
export function createJobRunner(): (jobs: readonly ToolJob[], between?: () => Promise<void>) => Promise<ToolJobResult[]> {
  let compiler: SchemaCompiler | undefined;
  const runJob = async (job: ToolJob): Promise<unknown> => {
    if (job.kind === 'check') return schemaProblems(job.manifest, (compiler ??= createSchemaCompiler()));
    return renderToolModule(job.tool);
  };
  return async (jobs, between) => {
    const results: ToolJobResult[] = [];
    for (const job of jobs) {
      try {
        results.push({ key: job.key, kind: job.kind, value: await runJob(job) });
      } catch (error) {
        results.push({ key: job.key, kind: job.kind, error: error instanceof Error ? error.message : String(error) });
      }
      await between?.();
    }
    return results;
  };
}
