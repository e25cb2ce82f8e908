// Where every file of a generated package stands: the one place its paths are spelled, for emit, write, the
// changelog and the commands alike.

import { SHARED_TYPES_MODULE } from './type-names.js';

/** The package's files that do not depend on the catalogue's tools, by role. */
export const LAYOUT = {
  packageJson: 'package.json',
  tsconfig: 'tsconfig.json',
  serverJson: 'server.json',
  gitignore: '.gitignore',
  gitattributes: '.gitattributes',
  prettierrc: '.prettierrc.json',
  prettierignore: '.prettierignore',
  readme: 'README.md',
  changelog: 'CHANGELOG.md',
  /** The names every build decided so far; its presence marks a folder as a build's. */
  namesLock: 'names.lock.json',
  /** Every tool as the server serves it (a package's own record of its catalogue). */
  servedCatalogue: 'data/catalogue.json',
  catalogueIndex: 'data/catalogue-index.json',
  searchIndex: 'data/search-index.json',
  toolsList: 'data/tools-list.json',
  policy: 'data/policy.json',
  tokenCosts: 'data/token-costs.json',
  names: 'src/names.ts',
  client: 'src/client.ts',
  bin: 'src/bin.ts',
  index: 'src/index.ts',
  toolsIndex: 'src/tools/index.ts',
  types: 'src/types.ts',
  sharedTypes: `src/${SHARED_TYPES_MODULE}.ts`,
} as const;

/** Folders whose whole content the generator owns: a file there that the build does not emit is removed. */
export const OWNED_DIRS = ['src', 'data'] as const;

/** What `npm pack` ships of the package, besides package.json. */
export const PUBLISHED_FILES = ['dist', 'data', LAYOUT.readme, LAYOUT.changelog] as const;

/** One tool's typed module, from the file name the plan gave it. */
export const toolModulePath = (fileName: string): string => `src/tools/${fileName}.ts`;

/** A runtime file copied into the package, from its path under the generator's `src/runtime/`. */
export const runtimeFilePath = (path: string): string => `src/runtime/${path}`;

/** The compiled package's catalogue-check script (what `verify` runs). */
export const CATALOGUE_CHECK_SCRIPT = 'dist/runtime/dev/catalogue-check.js';
