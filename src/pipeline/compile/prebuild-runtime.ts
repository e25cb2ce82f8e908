// Builds `dist/runtime-build/` (runtime-prebuilt.ts) when the generator is built: the runtime, as copied into every
// package, type-checked under the package's compiler options and emitted, so a type error in it fails the generator's
// own build instead of every user's. Skipped when the manifest's fingerprint already matches the sources.
//
// Usage: node dist/pipeline/compile/prebuild-runtime.js   (`npm run build` runs it after tsc)

import { mkdtemp, mkdir, rename, rm, writeFile, cp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { errorText, isEntryPoint } from '../../runtime/dev/entry-point.js';
import { runtimeFiles } from '../emit/runtime-files.js';
import { typeCheckAndEmit } from './compile-package.js';
import { MANIFEST_FILE, PREBUILT_DIR, readPrebuiltManifest, runtimeFingerprint } from './runtime-prebuilt.js';

/** Writes the prebuilt runtime into `dest` unless it is current. Returns whether it was (re)built. */
export async function prebuildRuntime(dest: string = PREBUILT_DIR): Promise<boolean> {
  const files = runtimeFiles();
  const fingerprint = runtimeFingerprint(files);
  if (readPrebuiltManifest(dest)?.fingerprint === fingerprint) return false;
  // A package holding the runtime alone, compiled as the compile stage compiles a package's runtime.
  const work = await mkdtemp(join(tmpdir(), 'nexusbloom-runtime-'));
  try {
    await writeFile(join(work, 'package.json'), '{ "type": "module" }\n');
    for (const [path, text] of files) {
      const file = join(work, 'src', 'runtime', path);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, text);
    }
    await typeCheckAndEmit(work, { prebuilt: null, incremental: false, bundle: false });
    const staging = `${dest.replace(/\/+$/, '')}.building-${process.pid}`;
    await rm(staging, { recursive: true, force: true });
    await cp(join(work, 'dist', 'runtime'), join(staging, 'runtime'), { recursive: true });
    await writeFile(join(staging, MANIFEST_FILE), `${JSON.stringify({ fingerprint }, null, 2)}\n`);
    await rm(dest, { recursive: true, force: true });
    await rename(staging, dest);
    return true;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

if (isEntryPoint(import.meta.url)) {
  const started = performance.now();
  prebuildRuntime().then(
    (built) => process.stderr.write(`runtime ${built ? `type-checked and prebuilt in ${((performance.now() - started) / 1000).toFixed(1)} s` : 'prebuilt is current'}: ${PREBUILT_DIR}\n`),
    (error: unknown) => {
      process.stderr.write(`prebuilding the runtime failed: ${errorText(error)}\n`);
      const problems = (error as { problems?: Array<{ pointer: string; message: string }> }).problems ?? [];
      for (const problem of problems.slice(0, 20)) process.stderr.write(`  ${problem.pointer} ${problem.message}\n`);
      process.exitCode = 1;
    },
  );
}
