// The generated package's package.json and tsconfig.json, with runtime dependencies pinned to the generator's own.

import { readFileSync } from 'node:fs';
import type { GeneratorConfig } from '../config.js';
import { PUBLISHED_FILES } from '../plan/layout.js';
import { prettierJson } from './text.js';

const generatorManifest = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

export const RUNTIME_DEPENDENCIES = ['@modelcontextprotocol/sdk', 'ajv', 'ajv-formats', 'fastest-levenshtein', 're2js', 'stemmer', 'zod'];
const BUILD_DEPENDENCIES = ['@types/node', 'esbuild', 'typescript'];

function pinned(names: string[], from: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    names.map((name) => {
      const version = from[name];
      if (!version) throw new Error(`the generator's package.json does not pin ${name}`);
      return [name, version];
    }),
  );
}

/** Scripts for the developer tools the runtime ships, keyed by the file that implements them. */
const DEV_SCRIPTS: Array<[string, string, string]> = [
  ['mock-api', 'dev/mock-api-cli.ts', 'node dist/runtime/dev/mock-api-cli.js'],
  ['catalogue-check', 'dev/catalogue-check.ts', 'node dist/runtime/dev/catalogue-check.js'],
  ['agent-demo', 'dev/agent-demo.ts', 'node dist/runtime/dev/agent-demo.js'],
  ['agent-demo:mock', 'dev/agent-demo.ts', 'node dist/runtime/dev/agent-demo.js --mock'],
  ['shell', 'dev/shell.ts', 'node dist/runtime/dev/shell.js'],
  ['shell:mock', 'dev/shell.ts', 'node dist/runtime/dev/shell.js --mock'],
];

export function packageJson(config: GeneratorConfig, runtimePaths: ReadonlySet<string>): string {
  const { names } = config;
  const binName = names.packageName.replace(/^@[^/]+\//, '');
  // tsc emits the typed SDK and the scripts; the bin is then bundled into one file for start-up speed. The build runs
  // before packing (`prepack`), never on install: `prepare` would make npm warn every consumer about install scripts,
  // and fail `npm install --omit=dev` in the package, where tsc is not installed.
  const build = 'tsc -p tsconfig.json && node dist/runtime/dev/bundle-bin.js';
  const scripts: Record<string, string> = { build, prepack: build, start: 'node dist/bin.js' };
  for (const [script, file, command] of DEV_SCRIPTS) if (runtimePaths.has(file)) scripts[script] = command;
  const manifest = {
    name: names.packageName,
    version: names.packageVersion,
    description: config.description,
    mcpName: config.registryName,
    type: 'module',
    license: 'UNLICENSED',
    engines: { node: '>=20' },
    bin: { [binName]: 'dist/bin.js' },
    main: 'dist/index.js',
    types: 'dist/index.d.ts',
    exports: {
      '.': { types: './dist/index.d.ts', default: './dist/index.js' },
      './tools': { types: './dist/tools/index.d.ts', default: './dist/tools/index.js' },
      './types': { types: './dist/types.d.ts', default: './dist/types.js' },
      './package.json': './package.json',
    },
    // For TypeScript's node10 resolution ("moduleResolution": "node"), which does not read `exports`.
    typesVersions: { '*': { tools: ['dist/tools/index.d.ts'], types: ['dist/types.d.ts'] } },
    // CHANGELOG.md is there once a build with --changelog wrote it; npm skips a listed file that is missing.
    files: [...PUBLISHED_FILES],
    scripts,
    dependencies: pinned(RUNTIME_DEPENDENCIES, generatorManifest.dependencies),
    devDependencies: pinned(BUILD_DEPENDENCIES, { ...generatorManifest.dependencies, ...generatorManifest.devDependencies }),
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

export const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    // No DOM: the package runs on Node, whose globals (fetch, URL, AbortSignal…) @types/node declares; leaving the
    // browser's lib files out is a tenth of a compile.
    lib: ['ES2022'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    skipLibCheck: true,
    declaration: true,
    outDir: 'dist',
    rootDir: 'src',
    types: ['node'],
    newLine: 'lf',
  },
  include: ['src/**/*.ts'],
};

export function tsconfigJson(): string {
  return `${prettierJson(TSCONFIG)}\n`;
}

export const SERVER_JSON_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

/** The MCP Registry entry for the package (server.json). */
export function serverJson(config: GeneratorConfig): string {
  const { names } = config;
  const env = (name: string, description: string, isSecret = false) => ({
    name: `${names.envPrefix}${name}`,
    description,
    isRequired: false,
    isSecret,
  });
  const entry = {
    $schema: SERVER_JSON_SCHEMA,
    name: config.registryName,
    description: config.description.length > 100 ? `${config.description.slice(0, 99)}…` : config.description,
    version: names.packageVersion,
    packages: [
      {
        registryType: 'npm',
        identifier: names.packageName,
        version: names.packageVersion,
        transport: { type: 'stdio' },
        environmentVariables: [
          env('API_KEY', 'API key; without it the server runs anonymously under the free-tier rate limit.', true),
          env('API_URL', `API base (default ${names.defaultApiUrl}).`),
          env('MCP_TIMEOUT_MS', 'Per-request timeout in milliseconds (default 15000).'),
          env('MCP_EXECUTION', 'remote (default), local or auto: where tool code runs.'),
        ],
      },
    ],
  };
  return `${JSON.stringify(entry, null, 2)}\n`;
}
