// Starts a worker thread on one of the generator's own modules, from `dist/` or from source alike.

import { Worker } from 'node:worker_threads';

/**
 * A worker running the module `name` (no extension) beside `importMetaUrl`, handed `workerData`. From `dist/` that is the compiled `.js`;
 * from source (tests, development) Node 20 does not carry the TypeScript loader into workers, so a one-line bootstrap
 * loads the `.ts` module through tsx's API.
 */
export function startWorker(importMetaUrl: string, name: string, workerData?: unknown): Worker {
  const options = workerData === undefined ? {} : { workerData };
  if (!importMetaUrl.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, importMetaUrl), options);
  const bootstrap = `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(new URL(`./${name}.ts`, importMetaUrl).href)}, ${JSON.stringify(importMetaUrl)}))`;
  return new Worker(bootstrap, { ...options, eval: true });
}
