// One tool's module (src/tools/<name>.ts): its types and its typed wrapper, the build's most expensive per-tool work.
// Apart from the rest of emit so that a worker thread running it loads only what it needs (see parallel/tool-worker.ts).

import { contentKey } from '../cache/build-cache.js';
import type { ToolJob } from '../parallel/work.js';
import type { PlannedTool } from '../plan/plan-package.js';
import { SHARED_TYPES_MODULE } from '../plan/type-names.js';
import type { Problem } from '../problems.js';
import { acceptsEmptyInput } from './sample-input.js';
import { schemaTypes } from './schema-types.js';
import { renderTemplate } from './templates.js';
import { displayWidth, docComment, PRINT_WIDTH, tsString } from './text.js';
import { toolDoc } from './tool-doc.js';

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

/**
 * The schemas, most of a tool's bytes, count by the digests the check stage's key made of them already; the rest is
 * one JSON text (a digest of each small object would cost a hash apiece, more than hashing its text).
 */
function computeModuleKey(tool: PlannedTool): string {
  const { manifest } = tool;
  return contentKey(
    JSON.stringify([
      tool.slug,
      tool.identifier,
      tool.typeNames,
      tool.sharedTypeNames ?? null,
      tool.withheldReason,
      manifest.name,
      manifest.description,
      manifest.deprecated ?? null,
      manifest.annotations ?? null,
      manifest.examples?.[0] ?? null,
    ]),
    manifest.input_schema,
    manifest.output_schema ?? null,
  );
}

/** A tool's module text, and the warnings its types gave (a schema typed loosely). */
export interface ToolModule {
  text: string;
  warnings: Problem[];
}

export async function renderToolModule(tool: PlannedTool): Promise<ToolModule> {
  const shared = tool.sharedTypeNames ?? {};
  const inputTypes = await schemaTypes(tool.manifest.input_schema, tool.typeNames, '{ [key: string]: unknown }', 'input_schema', shared);
  const outputTypes = await schemaTypes(tool.manifest.output_schema, tool.typeNames, 'unknown', 'output_schema', shared);
  const inputOptional = acceptsEmptyInput(tool.manifest.input_schema);
  const text = renderTemplate('tool.ts', {
    ...wrapperLayout(tool, inputOptional),
    types: `${sharedTypesImport(Object.values(shared))}${inputTypes.code}\n${outputTypes.code}`,
    inputOptional,
    docBlock: docComment(toolDoc(tool, tool.identifier)),
    identifier: tool.identifier,
    inputTypeName: tool.inputTypeName,
    outputTypeName: tool.outputTypeName,
    slug: tool.slug,
  });
  const warnings = [
    looseTypeWarning(tool.slug, 'input_schema', inputTypes.loose),
    looseTypeWarning(tool.slug, 'output_schema', outputTypes.loose),
  ];
  return { text, warnings: warnings.filter((warning): warning is Problem => warning !== null) };
}

/** Which lines of the typed wrapper are longer than the package's print width, so break as Prettier breaks them. */
function wrapperLayout(tool: PlannedTool, inputOptional: boolean): { breakSignature: boolean; breakCall: boolean } {
  const optional = inputOptional ? '?' : '';
  const signature = `export async function ${tool.identifier}(input${optional}: ${tool.inputTypeName}, options?: CallOptions): Promise<${tool.outputTypeName}> {`;
  const call = `  return sdk.invoke<${tool.outputTypeName}>(${tsString(tool.slug)}, input${inputOptional ? ' ?? {}' : ''}, options);`;
  return { breakSignature: displayWidth(signature) > PRINT_WIDTH, breakCall: displayWidth(call) > PRINT_WIDTH };
}

/** One tool's module as the build's work runs it: remembered by everything its text depends on, spread over threads. */
export const TOOL_MODULE_JOB: ToolJob<PlannedTool, ToolModule> = {
  kind: 'module',
  key: moduleCacheKey,
  run: renderToolModule,
  threads: true,
};

/** The import of the shared types a tool module aliases, or nothing. */
function sharedTypesImport(names: readonly string[]): string {
  if (names.length === 0) return '';
  const sorted = [...new Set(names)].sort();
  const from = ` from '../${SHARED_TYPES_MODULE}.js';`;
  const line = `import type { ${sorted.join(', ')} }${from}`;
  // Broken one name a line past the print width, as Prettier breaks it.
  if (displayWidth(line) <= PRINT_WIDTH) return `${line}\n\n`;
  return `import type {\n${sorted.map((name) => `  ${name},\n`).join('')}}${from}\n\n`;
}

/** The warning for a schema whose static type fell back to a permissive one (see schemaTypes), or null. */
function looseTypeWarning(slug: string, field: 'input_schema' | 'output_schema', reason: string | null): Problem | null {
  if (reason === null) return null;
  return {
    severity: 'warning',
    slug,
    pointer: `/${field}`,
    message: `json-schema-to-typescript cannot type this schema (${reason}); its TypeScript type is ${field === 'input_schema' ? 'an open object' : 'unknown'}`,
    hint: 'the server still validates against the full schema; simplify the schema for a precise type',
  };
}
