// The emit stage: from the plan, every file of the generated package as text, keyed by its path in the package.
// Pure: no disk writes. Output depends only on the plan and the config, so the same catalogue gives the same bytes.

import { operationOf } from '../../runtime/execution/operation.js';
import { schemeVariables } from '../../runtime/execution/credentials.js';
import type { Manifest, ServedCatalogueFile, ServedTool } from '../../runtime/shared/contracts.js';
import { defineOwn } from '../../runtime/shared/json-values.js';
import { contentKey, fieldsKeyParts } from '../cache/build-cache.js';
import type { GeneratorConfig } from '../config.js';
import { LAYOUT, runtimeFilePath, toolModulePath } from '../plan/layout.js';
import { namesLockOf, type PackagePlan, type PlannedTool } from '../plan/plan-package.js';
import { packageJson, serverJson, tsconfigJson } from './package-json.js';
import { runtimeFiles } from './runtime-files.js';
import { SHARED_TYPE_JOB, sharedTypesFileText } from './shared-types-file.js';
import { SHARED_TYPES_MODULE } from '../plan/type-names.js';
import type { Problem } from '../problems.js';
import { renderTemplate } from './templates.js';
import { acceptsEmptyInput, sampleInput } from './sample-input.js';
import { isAdvertised } from '../../runtime/catalogue/advertise.js';
import { advertisedListFile, advertisedListLineOf, LIST_PARTS_JOB } from './advertised-list.js';
import { createWork, type ToolJob, type Work } from '../parallel/work.js';
import { catalogueIndexFileText } from './catalogue-index-file.js';
import { packagedTablesBy, SEARCH_PARTS_JOB, searchIndexFile, vocabularyOf } from './search-index-file.js';
import { lazyJoinedText, type PackageText } from './package-text.js';
import { policyFileText } from './policy-file.js';
import { byCodeUnit } from '../../runtime/shared/order.js';
import { alignedMarkdownTables, docComment, endingInOneNewline, firstSentence, PRINT_WIDTH, tsString } from './text.js';
import { toolDoc } from './tool-doc.js';
import { TOOL_MODULE_JOB } from './tool-module.js';

/** Every file of a package, by path: its text, or for the large data files the text as it is put out (package-text.ts). */
export type PackageFiles = ReadonlyMap<string, PackageText>;

const MANIFEST_FIELD_ORDER = [
  'slug',
  'name',
  'description',
  'category',
  'tags',
  'version',
  'deprecated',
  'annotations',
  'input_schema',
  'output_schema',
  'examples',
  'source',
];

/** The manifest with its own fields in one fixed order (extras after, by code unit); schemas keep their order. */
export function canonicalManifest(manifest: Manifest): Manifest {
  const known = MANIFEST_FIELD_ORDER.filter((key) => manifest[key] !== undefined);
  const extras = Object.keys(manifest)
    .filter((key) => !MANIFEST_FIELD_ORDER.includes(key))
    .sort(byCodeUnit);
  const out: Record<string, unknown> = {};
  for (const key of [...known, ...extras]) {
    defineOwn(out, key, manifest[key]);
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

/**
 * `JSON.stringify(file, null, 2)` and a final LF, made a tool at a time as the file is written (package-text.ts): the
 * stringify of the whole file is a tree of parts that reading or writing it copies whole (some 28 MB for 3,000 tools).
 */
function servedCatalogueFile(tools: ServedTool[]): PackageText {
  const format: ServedCatalogueFile['format'] = 'nexusbloom-served-catalogue/1';
  const head = `{\n  "format": ${JSON.stringify(format)},\n  "tools": [`;
  if (tools.length === 0) return `${head}]\n}\n`;
  // A value nested two levels down is the same text with each line after its first indented by four more spaces
  // (JSON strings hold no raw line feed).
  return lazyJoinedText(
    `${head}\n`,
    tools,
    (tool) => `    ${JSON.stringify(tool, null, 2).replaceAll('\n', '\n    ')}`,
    ',\n',
    '\n  ]\n}\n',
    servedToolKey,
  );
}

/**
 * Everything a tool's entry in data/catalogue.json is made of: its fields in order, the manifest's names in order, and
 * the manifest's fields as every whole-tool key counts them (fieldsKeyParts: schemas and examples by their memoised
 * digests, the rest as one JSON text).
 */
function servedToolKey(tool: ServedTool): string {
  return contentKey('served-tool/2', JSON.stringify({ ...tool, manifest: Object.keys(tool.manifest) }), ...fieldsKeyParts(tool.manifest));
}

/** What the tools index needs of a tool: its exports, and its method on a client with that method's doc. */
function clientMethodView(tool: PlannedTool): object {
  const { identifier, fileName, inputTypeName, outputTypeName } = tool;
  const inputOptional = acceptsEmptyInput(tool.manifest.input_schema);
  // Lines Prettier would break, the template writes broken: one name (or parameter) a line.
  const tooLong = (line: string): boolean => line.length > PRINT_WIDTH;
  return {
    identifier,
    fileName,
    slug: tool.slug,
    inputTypeName,
    outputTypeName,
    inputOptional,
    methodDoc: docComment(toolDoc(tool, `client.${identifier}`), '  '),
    importBreaks: tooLong(`import type { ${inputTypeName}, ${outputTypeName} } from './${fileName}.js';`),
    exportBreaks: tooLong(`export { ${identifier}, type ${inputTypeName}, type ${outputTypeName} } from './${fileName}.js';`),
    methodBreaks: tooLong(
      `  ${identifier}(input${inputOptional ? '?' : ''}: ${inputTypeName}, options?: CallOptions): Promise<${outputTypeName}>;`,
    ),
    invokeBreaks: tooLong(`    ${identifier}: (input, callOptions) => client.invoke(${tsString(tool.slug)}, input ?? {}, callOptions),`),
  };
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
        const sentAs =
          scheme.type === 'apiKey'
            ? `API key in the ${scheme.in} \`${scheme.name}\``
            : scheme.type === 'http'
              ? scheme.scheme === 'basic'
                ? `HTTP Basic ${index === 0 ? 'user name' : 'password'}`
                : `\`Authorization: ${scheme.scheme === 'bearer' ? 'Bearer' : scheme.scheme} <token>\``
              : scheme.type === 'oauth2'
                ? index === 0
                  ? 'OAuth2 access token (`Authorization: Bearer`)'
                  : `OAuth2 client ${index === 1 ? 'id' : 'secret'} for the client-credentials token at ${scheme.tokenUrl ?? 'its token URL'}`
                : 'unsupported';
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
  let first: { tool: PlannedTool; input: ReturnType<typeof sampleInput> } | undefined;
  for (const tool of byPreference) {
    const input = sampleInput(tool.manifest);
    first ??= { tool, input };
    if (input !== null) {
      first = { tool, input };
      break;
    }
  }
  const serverEntry = { command: 'npx', args: ['-y', names.packageName] };
  return {
    names,
    description: config.description,
    apiCredentials: apiCredentialRows(plan, names.envPrefix),
    sharedTypes: (plan.sharedTypes ?? []).length > 0,
    toolCount: plan.tools.length,
    withheldCount: plan.tools.filter((t) => t.withheldReason !== null).length,
    policy: {
      allow: (config.policy.allow ?? []).join(','),
      deny: (config.policy.deny ?? []).join(','),
      maxRisk: config.policy.maxRisk ?? '',
      confirm: config.policy.confirm ?? 'declared',
      surface: config.policy.surface ?? 'single',
    },
    mcpServersSnippet: { mcpServers: { [names.serverName]: serverEntry } },
    vscodeSnippet: { servers: { [names.serverName]: { type: 'stdio', ...serverEntry } } },
    firstTool: {
      identifier: first?.tool.identifier ?? 'tool',
      // No argument at all where the input may be left out: `{}` need not fit a type whose properties share a name with
      // Object.prototype's (a `constructor` field).
      exampleArgs:
        first && first.input !== null && !(Object.keys(first.input).length === 0 && acceptsEmptyInput(first.tool.manifest.input_schema))
          ? JSON.stringify(first.input)
          : '',
    },
    tools: plan.tools.map((tool) => ({
      slugLabel: tool.withheldReason === null ? `\`${tool.slug}\`` : `\`${tool.slug}\` (withheld: ${tool.withheldReason})`,
      identifier: tool.identifier,
      summary: `${tool.manifest.deprecated !== undefined ? 'Deprecated. ' : ''}${firstSentence(tool.manifest.description)}`,
    })),
  };
}

/**
 * README.md from its view, remembered by the view's content: a rebuild whose tool names and first sentences stay
 * as they were neither compiles the template (the largest, some 100 ms) nor lays out its tables again.
 */
const README_JOB: ToolJob<object, string> = {
  kind: 'readme',
  key: (view) => contentKey(view),
  run: (view) => alignedMarkdownTables(renderTemplate('README.md', view)),
  threads: false,
};

/** Files decided outside the plan's tools: CHANGELOG.md (from changelog/package-changelog.ts), when there is one. */
export interface EmitExtras {
  changelog?: string | null;
  /**
   * Called as soon as the served tools and their tools/list entries are made, before the search index: a budget
   * counted on another thread counts them while this one emits the rest.
   */
  onListed?: (listed: Pick<EmittedPackage, 'served' | 'listEntries'>) => void;
}

/** What emit makes: the package's files, and the data the build's later steps read of them. */
export interface EmittedPackage {
  /** Every file of the package, sorted by path. */
  files: PackageFiles;
  /** The tools as the package serves them (its data/catalogue.json). */
  served: ServedTool[];
  /** Each advertised tool's tools/list entry as JSON, by slug: what data/tools-list.json holds, and the budget counts. */
  listEntries: ReadonlyMap<string, string>;
  /** What emitting found to warn of (schemas typed loosely), by tool. */
  warnings: Problem[];
}

/** `files` with `added` among them, in path order. */
export function withFiles(files: PackageFiles, added: ReadonlyArray<readonly [string, PackageText]>): PackageFiles {
  return new Map([...files, ...added].sort(([a], [b]) => byCodeUnit(a, b)));
}

/** The package, with the per-tool work (modules, tools/list entries) done by `work`: remembered, spread over threads. */
export async function emitPackage(
  plan: PackagePlan,
  config: GeneratorConfig,
  work: Work = createWork(),
  extras: EmitExtras = {},
): Promise<EmittedPackage> {
  // The work spread over threads first, then the threads stop: the rest of emit is this thread's alone, and its largest
  // files (the catalogue, the indexes) are made while no worker's heap stands beside them.
  const sharedTypes = plan.sharedTypes ?? [];
  const sharedDeclarations = sharedTypes.length > 0 ? await work.map(SHARED_TYPE_JOB, sharedTypes) : null;
  const modules = await work.map(TOOL_MODULE_JOB, plan.tools);
  await work.close();
  const runtime = runtimeFiles();
  const files = new Map<string, PackageText>();
  files.set(LAYOUT.packageJson, packageJson(config, new Set(runtime.keys())));
  files.set(LAYOUT.tsconfig, tsconfigJson());
  files.set(LAYOUT.serverJson, serverJson(config));
  files.set(LAYOUT.gitignore, renderTemplate('gitignore', {}));
  files.set(LAYOUT.gitattributes, renderTemplate('gitattributes', {}));
  // The package's Prettier settings: what its generated text is laid out for (the generator's own).
  files.set(LAYOUT.prettierrc, renderTemplate('prettierrc.json', {}));
  files.set(LAYOUT.prettierignore, renderTemplate('prettierignore', {}));
  const [readme] = await work.map(README_JOB, [readmeView(plan, config)]);
  files.set(LAYOUT.readme, readme!);
  if (extras.changelog != null) files.set(LAYOUT.changelog, extras.changelog);
  const served = servedTools(plan);
  files.set(LAYOUT.servedCatalogue, servedCatalogueFile(served));
  // What start-up reads instead of the catalogue, whose manifests wait for their first use.
  files.set(LAYOUT.catalogueIndex, catalogueIndexFileText(served));
  const advertised = served.filter(isAdvertised);
  const listParts = new Map((await work.map(LIST_PARTS_JOB, advertised)).map((parts, index) => [advertised[index]!.slug, parts]));
  const listEntries = new Map([...listParts].map(([slug, parts]) => [slug, parts.tool]));
  extras.onListed?.({ served, listEntries });
  files.set(
    LAYOUT.toolsList,
    advertisedListFile(served, (tool) => advertisedListLineOf(listParts.get(tool.slug)!)),
  );
  // Built here so the server's first search loads an index instead of building one.
  const searchParts = await work.map(SEARCH_PARTS_JOB, served);
  files.set(LAYOUT.searchIndex, searchIndexFile(served, searchParts, await packagedTablesBy(work, vocabularyOf(searchParts))));
  // The tool policy the server applies unless its environment overrides it (src/runtime/policy/).
  files.set(LAYOUT.policy, policyFileText(config.policy));
  files.set(LAYOUT.namesLock, `${JSON.stringify(namesLockOf(plan), null, 2)}\n`);
  files.set(LAYOUT.names, renderTemplate('names.ts', { names: config.names }));
  files.set(LAYOUT.client, renderTemplate('client.ts', {}));
  files.set(LAYOUT.bin, renderTemplate('bin.ts', {}));
  files.set(LAYOUT.index, renderTemplate('index.ts', {}));
  files.set(LAYOUT.toolsIndex, renderTemplate('tools-index.ts', { tools: plan.tools.map((tool) => clientMethodView(tool)) }));
  if (sharedDeclarations !== null) files.set(LAYOUT.sharedTypes, sharedTypesFileText(sharedDeclarations));
  files.set(
    LAYOUT.types,
    renderTemplate('types.ts', { tools: plan.tools, sharedTypesModule: sharedTypes.length > 0 ? SHARED_TYPES_MODULE : null }),
  );
  plan.tools.forEach((tool, index) => files.set(toolModulePath(tool.fileName), modules[index]!.text));
  for (const [path, text] of runtime) files.set(runtimeFilePath(path), text);
  // Every file ends in exactly one LF, whatever a template or the runtime source ended with.
  return {
    files: withFiles(
      new Map(),
      // A text put out in parts ends in one LF by construction (lazyJoinedText).
      [...files].map(([path, text]) => [path, typeof text === 'string' ? endingInOneNewline(text) : text] as const),
    ),
    served,
    listEntries,
    warnings: modules.flatMap((module) => module.warnings),
  };
}
