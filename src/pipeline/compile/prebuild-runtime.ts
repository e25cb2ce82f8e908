// Builds `dist/runtime-build/` (runtime-prebuilt.ts) when the generator is built: the runtime, as copied into every
// package, and the constant entry modules, type-checked under the package's compiler options and emitted, so a type
// error in them fails the generator's own build instead of every user's. Skipped when the manifest matches the sources.
//
// Usage: node dist/pipeline/compile/prebuild-runtime.js   (`npm run build` runs it after tsc)

import { mkdtemp, mkdir, rename, rm, writeFile, cp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { errorText, isEntryPoint } from '../../runtime/dev/entry-point.js';
import { resolveConfig } from '../config.js';
import { runtimeFiles } from '../emit/runtime-files.js';
import { renderTemplate } from '../emit/templates.js';
import { endingInOneNewline } from '../emit/text.js';
import { typeCheckAndEmit } from './type-check.js';
import { CONSTANT_ENTRIES, MANIFEST_FILE, PREBUILT_DIR, readPrebuiltManifest, runtimeFingerprint, textHash } from './runtime-prebuilt.js';

/** The package's modules besides the runtime that the prebuild compiles with it, as emit writes them. */
function entryModules(): Map<string, string> {
  const files = new Map<string, string>(CONSTANT_ENTRIES.map((entry) => [entry, endingInOneNewline(renderTemplate(entry, {}))]));
  // Under the default names: the entries read names.ts only through its declared types, the same under any names.
  files.set('names.ts', endingInOneNewline(renderTemplate('names.ts', { names: resolveConfig().names })));
  return files;
}

/** Writes the prebuilt runtime into `dest` unless it is current. Returns whether it was (re)built. */
export async function prebuildRuntime(dest: string = PREBUILT_DIR): Promise<boolean> {
  const files = runtimeFiles();
  const fingerprint = runtimeFingerprint(files);
  const modules = entryModules();
  const entries = Object.fromEntries(CONSTANT_ENTRIES.map((entry) => [entry, textHash(modules.get(entry)!)]));
  const current = readPrebuiltManifest(dest);
  if (current?.fingerprint === fingerprint && JSON.stringify(current.entries) === JSON.stringify(entries)) return false;
  // A package holding the runtime alone, compiled as the compile stage compiles a package's runtime.
  const work = await mkdtemp(join(tmpdir(), 'nexusbloom-runtime-'));
  try {
    await writeFile(join(work, 'package.json'), '{ "type": "module" }\n');
    for (const [path, text] of files) {
      const file = join(work, 'src', 'runtime', path);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, text);
    }
    for (const [path, text] of modules) await writeFile(join(work, 'src', path), text);
    await typeCheckAndEmit(work, { prebuilt: null, incremental: false, bundle: false });
    const staging = `${dest.replace(/\/+$/, '')}.building-${process.pid}`;
    await rm(staging, { recursive: true, force: true });
    await cp(join(work, 'dist', 'runtime'), join(staging, 'runtime'), { recursive: true });
    await mkdir(join(staging, 'entries'), { recursive: true });
    for (const entry of CONSTANT_ENTRIES) {
      const declarations = `${entry.slice(0, -'.ts'.length)}.d.ts`;
      await cp(join(work, 'dist', declarations), join(staging, 'entries', declarations));
    }
    await writeFile(join(staging, MANIFEST_FILE), `${JSON.stringify({ fingerprint, entries }, null, 2)}\n`);
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
    (built) =>
      process.stderr.write(
        `runtime ${built ? `type-checked and prebuilt in ${((performance.now() - started) / 1000).toFixed(1)} s` : 'prebuilt is current'}: ${PREBUILT_DIR}\n`,
      ),
    (error: unknown) => {
      process.stderr.write(`prebuilding the runtime failed: ${errorText(error)}\n`);
      const problems = (error as { problems?: Array<{ pointer: string; message: string }> }).problems ?? [];
      for (const problem of problems.slice(0, 20)) process.stderr.write(`  ${problem.pointer} ${problem.message}\n`);
      process.exitCode = 1;
    },
  );
}
