// The compile stage: type-checks the written package and emits `dist/` (type-check.ts), unless the stamp of the last
// successful compile says there is nothing to do, or only modules whose docs changed to write again (compiled-stamp.ts,
// reemit-modules.ts).
// The runtime, the same in every package, is checked and emitted once when the generator is built (runtime-prebuilt.ts):
// the package's own modules are checked against its declarations, served as if they stood beside its sources, and its
// JavaScript is copied. Imports and Node's types that do not resolve from the package (its own `npm install` may not
// have run yet) resolve from wherever the generator's dependencies are installed (generator-modules.ts). The compiler
// is loaded only when it has work: a third of a second that a package compiled as it stands does not wait for.

import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { cacheDir } from '../cache/build-cache.js';
import {
  compileNeed,
  compileSources,
  readStamp,
  removeStamp,
  writeStamp,
  type CompileNeed,
  type CompileSources,
} from './compiled-stamp.js';
import { prebuiltRuntimeFor, type PrebuiltRuntime } from './runtime-prebuilt.js';

export interface CompileSummary {
  /** Source files type-checked and emitted. */
  files: number;
  /** `prebuilt`: the runtime's declarations checked against and its JavaScript copied; `compiled`: checked and emitted here. */
  runtime: 'prebuilt' | 'compiled';
  /** Whether nothing was compiled: the sources and `dist/` were as the last compile left them (compiled-stamp.ts). */
  kept: boolean;
  /**
   * Modules whose JavaScript and declarations were written again without a type-check, since only their docs changed
   * since the last compile (compiled-stamp.ts); 0 when the package was type-checked or kept.
   */
  reemitted: number;
}

/** Whether the build cache's folder can be made: where it cannot (node_modules read-only, or a file), compile in full. */
async function cacheFolderUsable(root: string): Promise<boolean> {
  try {
    await mkdir(cacheDir(root), { recursive: true });
    return true;
  } catch {
    return false;
  }
}

/** What the compile of the package at `root` has to do, from its sources read once against the last stamp. */
function compilePlan(root: string, prebuilt: PrebuiltRuntime | null): { sources: CompileSources; need: CompileNeed } {
  const stamp = readStamp(root);
  const { sources, changed } = compileSources(root, prebuilt, stamp);
  return { sources, need: compileNeed(root, sources, stamp, changed) };
}

export async function compilePackage(outDir: string): Promise<CompileSummary> {
  const root = resolve(outDir);
  const prebuilt = prebuiltRuntimeFor(root);
  const runtime = prebuilt ? 'prebuilt' : 'compiled';
  const plan = (await cacheFolderUsable(root)) ? compilePlan(root, prebuilt) : null;
  const need = plan?.need ?? { kind: 'compile' as const };
  if (need.kind === 'kept') return { files: 0, runtime, kept: true, reemitted: 0 };
  // A stamp that cannot be removed before anything is written could outlive a failed compile: then none is written.
  const stamping = plan !== null && removeStamp(root);
  if (need.kind === 'reemit' && stamping && (await (await import('./reemit-modules.js')).reemitModules(root, need.modules))) {
    writeStamp(root, plan.sources, need.bundled);
    return { files: need.modules.length, runtime, kept: false, reemitted: need.modules.length };
  }
  const { typeCheckAndEmit } = await import('./type-check.js');
  const { files, bundled } = await typeCheckAndEmit(root, { prebuilt, incremental: plan !== null, bundle: true });
  if (stamping) writeStamp(root, plan.sources, bundled);
  return { files, runtime, kept: false, reemitted: 0 };
}
