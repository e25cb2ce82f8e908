// Bundles the server's entry (`src/bin.ts`, the runtime and its dependencies) into one file, `dist/bin.js`, so that
// start-up reads and links one module instead of a few hundred. The package's build runs this after `tsc`; the
// generator's compile stage calls bundleBin() with the same options. Everything else in `dist/` stays tsc's output
// (the typed SDK, the dev scripts, and `runtime/execution/sandbox-child.js`, which local runs start as its own process).
//
// Usage: node dist/runtime/dev/bundle-bin.js (from any folder; the package's `npm run build` runs it)

import { realpathSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions } from 'esbuild';
import { byCodeUnit } from '../shared/order.js';
import { errorText, isEntryPoint } from './entry-point.js';

/** The bin bundle's esbuild options for the package at `root`. */
export function binBundleOptions(root: string): BuildOptions {
  return {
    absWorkingDir: root,
    entryPoints: [join(root, 'src', 'bin.ts')],
    outfile: join(root, 'dist', 'bin.js'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // CommonJS dependencies require Node's built-ins, and an ES module has no `require` of its own.
    banner: {
      js: "import { createRequire as __nexusbloomRequire } from 'node:module';\nconst require = __nexusbloomRequire(import.meta.url);",
    },
    // Whitespace and syntax, not names (stack traces stay readable). Minified, the bundle has no comments naming
    // the folders modules came from; module names left in it are made relative to the package (see bundleBin).
    minifyWhitespace: true,
    minifySyntax: true,
    // Text as written: escaped to ASCII, a module name under a folder such as /home/José/ would no longer match the
    // folder name that bundleBin makes relative to the package.
    charset: 'utf8',
    logLevel: 'silent',
  };
}

/**
 * Writes `dist/bin.js` for the package at `root`. `nodePaths` are extra folders to resolve dependencies from (the
 * generator passes its own node_modules, since the package's `npm install` may not have run yet); the bundle names
 * modules found there as if they were in the package's own node_modules, so it is the same either way.
 */
export async function bundleBin(root: string, nodePaths: readonly string[] = []): Promise<void> {
  await writeBinBundle(await binBundle(root, nodePaths));
}

export interface BinBundle {
  outfile: string;
  text: string;
  /** The package's own files it holds, relative to the package (`src/bin.ts`, `src/runtime/…`), sorted. */
  sources: string[];
}

/** The text of `dist/bin.js` for the package at `root`, not yet written (see bundleBin). */
export async function binBundle(root: string, nodePaths: readonly string[] = []): Promise<BinBundle> {
  // Real paths, as esbuild names modules by them: through a symlinked folder the names would be relative to the
  // real folder and the replacement below, relative to the link, would miss them.
  const options = binBundleOptions(realPath(root));
  const folders = nodePaths.map(realPath);
  let text: string;
  let inputs: string[];
  try {
    const result = await build({ ...options, nodePaths: folders, write: false, metafile: true });
    text = result.outputFiles[0]!.text;
    inputs = Object.keys(result.metafile.inputs);
  } catch (error) {
    throw new Error(`bundling src/bin.ts into dist/bin.js failed: ${errorText(error)}`, { cause: error });
  }
  for (const prefix of foreignModulePrefixes(
    inputs,
    folders.map((folder) => relative(options.absWorkingDir!, folder).split(sep).join('/')),
  )) {
    text = text.split(`"${prefix}`).join('"node_modules/');
  }
  const sources = inputs.filter((input) => input.startsWith('src/')).sort(byCodeUnit);
  return { outfile: options.outfile!, text, sources };
}

export async function writeBinBundle({ outfile, text }: BinBundle): Promise<void> {
  await mkdir(dirname(outfile), { recursive: true });
  await writeFile(outfile, text);
  await chmod(outfile, 0o755);
}

/**
 * The folders, relative to the package, that modules came from other than its own `node_modules/`: the `nodePaths`
 * and, in a layout such as pnpm's (`.pnpm/<name>@<version>/node_modules/`), every folder a dependency's own
 * dependencies were found in. Named as `node_modules/`, the bundle is the same whatever the layout. Longest first,
 * so that no prefix is cut by a shorter one.
 */
function foreignModulePrefixes(inputs: readonly string[], nodePaths: readonly string[]): string[] {
  const prefixes = new Set(nodePaths.map((path) => `${path}/`));
  for (const input of inputs) {
    const end = input.lastIndexOf('node_modules/');
    const prefix = input.slice(0, end + 'node_modules/'.length);
    // A dependency npm nested in the package's own node_modules keeps its place; pnpm's store folders do not.
    if (end > 0 && (!prefix.startsWith('node_modules/') || prefix.includes('/.pnpm/'))) prefixes.add(prefix);
  }
  prefixes.delete('node_modules/');
  return [...prefixes].sort((a, b) => b.length - a.length || byCodeUnit(a, b));
}

function realPath(path: string): string {
  try {
    return realpathSync(resolve(path));
  } catch {
    return resolve(path);
  }
}

if (isEntryPoint(import.meta.url)) {
  // The package this file is compiled into (dist/runtime/dev/), wherever it is started from.
  bundleBin(fileURLToPath(new URL('../../../', import.meta.url))).catch((error: unknown) => {
    process.stderr.write(`${errorText(error)}\n`);
    process.exitCode = 1;
  });
}
