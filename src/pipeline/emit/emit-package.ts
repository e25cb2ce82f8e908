// The emit stage: from the plan, every file of the generated package as text, keyed by its path in the package.
// Pure: no disk writes. Output depends only on the plan and the config, so the same catalogue gives the same bytes.

import { operationOf } from '../../runtime/execution/operation.js';
import { schemeVariables } from '../../runtime/execution/credentials.js';
import type { Manifest, ServedCatalogueFile, ServedTool } from '../../runtime/contracts.js';
import { contentKey, type BuildCache } from '../cache/build-cache.js';
import type { GeneratorConfig } from '../config.js';
import { NAMES_LOCK_FILE, namesLockOf, type PackagePlan, type PlannedTool } from '../plan/plan-package.js';
import { packageJson, serverJson, tsconfigJson } from './package-json.js';
import { runtimeFiles } from './runtime-files.js';
import { LOOSE_TYPE_MARK, schemaTypes } from './schema-types.js';
import { sharedTypesFileText } from './shared-types-file.js';
import { SHARED_TYPES_MODULE } from '../plan/type-names.js';
import type { Problem } from '../problems.js';
import { renderTemplate } from './templates.js';
import { acceptsEmptyInput, sampleInput } from './sample-input.js';
import { advertisedListFileText, advertisedListLineOf } from '../../runtime/advertise.js';
import { cachedListParts } from './advertised-list.js';
import { catalogueIndexFileText } from '../../runtime/catalogue-index.js';
import { searchIndexFileText } from './search-index-file.js';
import { policyFileText } from '../../runtime/policy/index.js';
import { docComment, endingInOneNewline, firstSentence } from './text.js';
import { toolDoc } from './tool-doc.js';

export type PackageFiles = ReadonlyMap<string, string>;

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const MANIFEST_FIELD_ORDER = ['slug', 'name', 'description', 'category', 'tags', 'version', 'deprecated', 'annotations', 'input_schema', 'output_schema', 'examples', 'source'];

/** The manifest with its own fields in one fixed order (extras after, by code unit); schemas keep their order. */
export function canonicalManifest(manifest: Manifest): Manifest {
  const known = MANIFEST_FIELD_ORDER.filter((key) => manifest[key] !== undefined);
  const extras = Object.keys(manifest).filter((key) => !MANIFEST_FIELD_ORDER.includes(key)).sort(byCodeUnit);
  const out: Record<string, unknown> = {};
  for (const key of [...known, ...extras]) {
    Object.defineProperty(out, key, { value: manifest[key], enumerable: true, writable: true, configurable: true });
  }
  return out as Manifest;
}

function servedTools(plan: PackagePlan): ServedTool[] {
  const tools: ServedTool[] = plan.tools.map((tool) => ({
    slug: tool.slug,
    manifest: canonicalManifest(tool.manifest),
    identifier: tool.identifier,
    withheldReason: tool.withheldReason,
    ...(tool.toolName === undefined ? {} : { toolName: tool.toolName }),
  }));
  return tools;
}

function servedCatalogueText(tools: ServedTool[]): string {
  const file: ServedCatalogueFile = { format: 'nexusbloom-served-catalogue/1', tools };
  return `${JSON.stringify(file, null, 2)}\n`;
}

export const MODULE_CACHE_KIND = 'module';

const moduleKeys = new WeakMap<PlannedTool, string>();

/**
 * The cache key of one tool module: everything its text depends on. Memoised per planned tool: the worker pool and
 * the emit stage both ask, and hashing a large schema is not free.
 */
export function moduleCacheKey(tool: PlannedTool): string {
  let key = moduleKeys.get(tool);
  if (key === undefined) moduleKeys.set(tool, (key = computeModuleKey(tool)));
  return key;
}

function computeModuleKey(tool: PlannedTool): string {
  const { manifest } = tool;
  return contentKey(tool.slug, tool.identifier, tool.typeNames, tool.sharedTypeNames ?? null, tool.withheldReason, manifest.name, manifest.description, manifest.deprecated ?? null, manifest.annotations ?? null, manifest.examples?.[0] ?? null, manifest.input_schema, manifest.output_schema ?? null);
}

export async function toolModule(tool: PlannedTool, cache?: BuildCache): Promise<string> {
  const key = cache ? moduleCacheKey(tool) : '';
  const cached = cache?.get<string>(MODULE_CACHE_KIND, key);
  if (cached !== undefined) return cached;
  const text = await renderToolModule(tool);
  cache?.set(MODULE_CACHE_KIND, key, text);
  return text;
}

export async function renderToolModule(tool: PlannedTool): Promise<string> {
  const shared = tool.sharedTypeNames ?? {};
  const inputTypes = await schemaTypes(tool.manifest.input_schema, tool.typeNames, '{ [key: string]: unknown }', 'input_schema', shared);
  const outputTypes = await schemaTypes(tool.manifest.output_schema, tool.typeNames, 'unknown', 'output_schema', shared);
  return renderTemplate('tool.ts', {
    types: `${sharedTypesImport(Object.values(shared))}${inputTypes}\n${outputTypes}`,
    inputOptional: acceptsEmptyInput(tool.manifest.input_schema),
    docBlock: docComment(toolDoc(tool, tool.identifier)),
    identifier: tool.identifier,
    inputTypeName: tool.inputTypeName,
    outputTypeName: tool.outputTypeName,
    slug: tool.slug,
  });
}

/** The import of the shared types a tool module aliases, or nothing. */
function sharedTypesImport(names: readonly string[]): string {
  if (names.length === 0) return '';
  return `import type { ${[...new Set(names)].sort().join(', ')} } from '../${SHARED_TYPES_MODULE}.js';\n\n`;
}

/** What the tools index needs of a tool: its exports, and its method on a client with that method's doc. */
function clientMethodView(tool: PlannedTool): object {
  return {
    identifier: tool.identifier,
    fileName: tool.fileName,
    slug: tool.slug,
    inputTypeName: tool.inputTypeName,
    outputTypeName: tool.outputTypeName,
    inputOptional: acceptsEmptyInput(tool.manifest.input_schema),
    methodDoc: docComment(toolDoc(tool, `client.${tool.identifier}`), '  '),
  };
}

/** A warning for each schema whose static type fell back to a permissive one (see schemaTypes). */
export function looseTypeWarnings(plan: PackagePlan, files: PackageFiles): Problem[] {
  return plan.tools.flatMap((tool) => {
    const text = files.get(`src/tools/${tool.fileName}.ts`) ?? '';
    if (!text.includes(LOOSE_TYPE_MARK)) return [];
    return text.split('\n').filter((line) => line.startsWith(LOOSE_TYPE_MARK)).map((line): Problem => {
      const [field = 'schema', ...reason] = line.slice(LOOSE_TYPE_MARK.length).split(': ');
      return {
        severity: 'warning',
        slug: tool.slug,
        pointer: `/${field}`,
        message: `json-schema-to-typescript cannot type this schema (${reason.join(': ')}); its TypeScript type is ${field === 'input_schema' ? 'an open object' : 'unknown'}`,
        hint: 'the server still validates against the full schema; simplify the schema for a precise type',
      };
    });
  });
}

/** The variables the security schemes of converted OpenAPI operations read, one row each, sorted by variable. */
function apiCredentialRows(plan: PackagePlan, prefix: string): Array<{ variable: string; scheme: string; sentAs: string }> {
  const rows = new Map<string, { variable: string; scheme: string; sentAs: string }>();
  for (const tool of plan.tools) {
    const call = operationOf(tool.manifest);
    if (call === null) continue;
    for (const [name, scheme] of Object.entries(call.securitySchemes)) {
      const variables = schemeVariables(prefix, name, scheme);
      variables.forEach((variable, index) => {
        const sentAs = scheme.type === 'apiKey' ? `API key in the ${scheme.in} \`${scheme.name}\``
          : scheme.type === 'http' ? (scheme.scheme === 'basic' ? `HTTP Basic ${index === 0 ? 'user name' : 'password'}` : `\`Authorization: ${scheme.scheme === 'bearer' ? 'Bearer' : scheme.scheme} <token>\``)
            : scheme.type === 'oauth2' ? (index === 0 ? 'OAuth2 access token (`Authorization: Bearer`)' : `OAuth2 client ${index === 1 ? 'id' : 'secret'} for the client-credentials token at ${scheme.tokenUrl ?? 'its token URL'}`) : 'unsupported';
        rows.set(variable, { variable, scheme: name, sentAs });
      });
    }
  }
  return [...rows.values()].sort((a, b) => (a.variable < b.variable ? -1 : a.variable > b.variable ? 1 : 0));
}

function readmeView(plan: PackagePlan, config: GeneratorConfig): object {
  const { names } = config;
  // The README's example call compiles as written: a tool whose example input is certain, an advertised one first.
  const byPreference = [...plan.tools.filter((t) => t.withheldReason === null), ...plan.tools.filter((t) => t.withheldReason !== null)];
  const sampled = byPreference.map((tool) => ({ tool, input: sampleInput(tool.manifest) }));
  const first = sampled.find((entry) => entry.input !== null) ?? sampled[0];
  const serverEntry = { command: 'npx', args: ['-y', names.packageName] };
  return {
    names,
    description: config.description,
    apiCredentials: apiCredentialRows(plan, names.envPrefix),
    sharedTypes: (plan.sharedTypes ?? []).length > 0,
    toolCount: plan.tools.length,
    withheldCount: plan.tools.filter((t) => t.withheldReason !== null).length,
    policy: {
      allow: (config.policy.allow ?? []).join(','), deny: (config.policy.deny ?? []).join(','), maxRisk: config.policy.maxRisk ?? '',
      confirm: config.policy.confirm ?? 'declared', surface: config.policy.surface ?? 'single',
    },
    mcpServersSnippet: { mcpServers: { [names.serverName]: serverEntry } },
    vscodeSnippet: { servers: { [names.serverName]: { type: 'stdio', ...serverEntry } } },
    firstTool: {
      identifier: first?.tool.identifier ?? 'tool',
      // No argument at all where the input may be left out: `{}` need not fit a type whose properties share a name with
      // Object.prototype's (a `constructor` field).
      exampleArgs: first && first.input !== null && !(Object.keys(first.input).length === 0 && acceptsEmptyInput(first.tool.manifest.input_schema)) ? JSON.stringify(first.input) : '',
    },
    tools: plan.tools.map((tool) => ({
      slugLabel: tool.withheldReason === null ? `\`${tool.slug}\`` : `\`${tool.slug}\` (withheld: ${tool.withheldReason})`,
      identifier: tool.identifier,
      summary: `${tool.manifest.deprecated !== undefined ? 'Deprecated. ' : ''}${firstSentence(tool.manifest.description)}`,
    })),
  };
}

/** Files decided outside the plan's tools: CHANGELOG.md (from changelog/package-changelog.ts), when there is one. */
export interface EmitExtras {
  changelog?: string | null;
}

/** Every file of the package, sorted by path. */
export async function emitPackage(plan: PackagePlan, config: GeneratorConfig, cache?: BuildCache, extras: EmitExtras = {}): Promise<PackageFiles> {
  const runtime = runtimeFiles();
  const files = new Map<string, string>();
  files.set('package.json', packageJson(config, new Set(runtime.keys())));
  files.set('tsconfig.json', tsconfigJson());
  files.set('server.json', serverJson(config));
  files.set('.gitignore', renderTemplate('gitignore', {}));
  files.set('.gitattributes', renderTemplate('gitattributes', {}));
  files.set('README.md', renderTemplate('README.md', readmeView(plan, config)));
  if (extras.changelog != null) files.set('CHANGELOG.md', extras.changelog);
  const served = servedTools(plan);
  files.set('data/catalogue.json', servedCatalogueText(served));
  // What start-up reads instead of the catalogue, whose manifests wait for their first use.
  files.set('data/catalogue-index.json', catalogueIndexFileText(served));
  // Built here so the server's first search loads an index instead of building one.
  files.set('data/search-index.json', searchIndexFileText(served));
  files.set('data/tools-list.json', advertisedListFileText(served, (tool) => advertisedListLineOf(cachedListParts(tool, cache))));
  // The tool policy the server applies unless its environment overrides it (src/runtime/policy/).
  files.set('data/policy.json', policyFileText(config.policy));
  files.set(NAMES_LOCK_FILE, `${JSON.stringify(namesLockOf(plan), null, 2)}\n`);
  files.set('src/names.ts', renderTemplate('names.ts', { names: config.names }));
  files.set('src/client.ts', renderTemplate('client.ts', {}));
  files.set('src/bin.ts', renderTemplate('bin.ts', {}));
  files.set('src/index.ts', renderTemplate('index.ts', {}));
  files.set('src/tools/index.ts', renderTemplate('tools-index.ts', { tools: plan.tools.map((tool) => clientMethodView(tool)) }));
  const sharedTypes = plan.sharedTypes ?? [];
  if (sharedTypes.length > 0) files.set(`src/${SHARED_TYPES_MODULE}.ts`, await sharedTypesFileText(sharedTypes, cache));
  files.set('src/types.ts', renderTemplate('types.ts', { tools: plan.tools, sharedTypesModule: sharedTypes.length > 0 ? SHARED_TYPES_MODULE : null }));
  const modules = await Promise.all(plan.tools.map(async (tool) => [`src/tools/${tool.fileName}.ts`, await toolModule(tool, cache)] as const));
  for (const [path, text] of modules) files.set(path, text);
  for (const [path, text] of runtime) files.set(`src/runtime/${path}`, text);
  // Every file ends in exactly one LF, whatever a template or the runtime source ended with.
  return new Map([...files].sort(([a], [b]) => byCodeUnit(a, b)).map(([path, text]) => [path, endingInOneNewline(text)]));
}
