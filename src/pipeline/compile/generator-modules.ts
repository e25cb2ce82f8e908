// Where the packages a generated package compiles against are installed, found by Node's own module resolution from
// the generator, so the compile works however the generator was installed (hoisted npm, pnpm's strict layout, a
// global install, npx's cache), before the generated package's own `npm install` has run.

import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { RUNTIME_DEPENDENCIES } from '../emit/package-json.js';
import { PipelineError } from '../problems.js';

/** What the generated sources import or reference: the runtime dependencies, esbuild (dev/bundle-bin.ts), Node's types. */
export const COMPILE_PACKAGES: readonly string[] = [...RUNTIME_DEPENDENCIES, 'esbuild', '@types/node'];

const fromGenerator = createRequire(import.meta.url);

/**
 * The real path of the `node_modules` folder that holds `name` as the generator sees it. Looked up by the package's
 * folder rather than `require.resolve(name)`: @types/node has no entry point and some packages export no
 * `./package.json`.
 */
export function moduleFolderOf(name: string, require: NodeJS.Require = fromGenerator): string {
  for (const folder of require.resolve.paths(name) ?? []) {
    if (existsSync(join(folder, name, 'package.json'))) {
      const real = realpathSync(join(folder, name));
      // `@types/node` lives two levels below its node_modules folder, `ajv` one.
      return name.startsWith('@') ? dirname(dirname(real)) : dirname(real);
    }
  }
  throw new PipelineError(
    `cannot compile the package: ${name} is not installed where the generator can load it from; reinstall nexusbloom-gen (\`npm install\`), or build with --no-compile`,
  );
}

export interface GeneratorModules {
  /** Package name → the node_modules folder it is in (real path). */
  folders: ReadonlyMap<string, string>;
  /** Every distinct folder of `folders`, sorted: where esbuild looks for the bin's dependencies. */
  nodePaths: string[];
  /** The `@types` folder that holds @types/node, as a TypeScript type root. */
  nodeTypesRoot: string;
}

let cached: GeneratorModules | undefined;

export function generatorModules(): GeneratorModules {
  if (cached) return cached;
  const folders = new Map(COMPILE_PACKAGES.map((name) => [name, moduleFolderOf(name)] as const));
  const nodePaths = [...new Set(folders.values())].sort();
  cached = { folders, nodePaths, nodeTypesRoot: join(folders.get('@types/node')!, '@types') };
  return cached;
}

/** `@scope/name/sub/path.js` → `@scope/name`, `ajv/dist/2020.js` → `ajv`; null for a relative or absolute path. */
export function packageNameOf(specifier: string): string | null {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}
