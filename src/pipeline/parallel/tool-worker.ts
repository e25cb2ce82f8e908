// A worker thread that does the expensive per-tool work of a large build: schema checks and tool modules.

import { parentPort } from 'node:worker_threads';
import { schemaProblems } from '../check/check-catalogue.js';
import { createSchemaCompiler, type SchemaCompiler } from '../check/schema-compiler.js';
import { renderToolModule } from '../emit/emit-package.js';
import type { ToolJob, ToolJobResult } from './warm-cache.js';

let compiler: SchemaCompiler | undefined;

async function runJob(job: ToolJob): Promise<unknown> {
  if (job.kind === 'check') return schemaProblems(job.manifest, (compiler ??= createSchemaCompiler()));
  return renderToolModule(job.tool);
}

parentPort?.on('message', (jobs: ToolJob[]) => {
  void (async () => {
    const results: ToolJobResult[] = [];
    for (const job of jobs) {
      try {
        results.push({ key: job.key, kind: job.kind, value: await runJob(job) });
      } catch (error) {
        results.push({ key: job.key, kind: job.kind, error: error instanceof Error ? error.message : String(error) });
      }
    }
    parentPort?.postMessage(results);
  })();
});
