// The check stage: the bundle against the manifest schema, every tool schema compiled, every example validated,
// every slug held against the tool-name grammar. It reports every problem at once and never throws on bad input.

import type { ValidateFunction } from 'ajv/dist/2020.js';
import { bundleShapeValidator } from './bundle-shape.js';
import { byCodeUnit } from '../../runtime/shared/order.js';
import type { Manifest } from '../../runtime/shared/contracts.js';
import { contentKey } from '../cache/build-cache.js';
import type { ToolJob, Work } from '../parallel/work.js';
import { joinPointer, pointerSegment, type Problem } from '../problems.js';
import { ANNOTATION_TYPES, specAnnotations } from '../../runtime/protocol/tool-annotations.js';
import { refCycleWithoutBase } from './ref-cycles.js';
import { schemaLimitProblems } from './schema-limits.js';
import type { SchemaCompiler } from './schema-compiler.js';
import { collectRefs, describeAjvError, mostTelling } from './schema-errors.js';
import { hasLoneSurrogate, withheldReason } from './slug-grammar.js';

let validateBundleShape: ValidateFunction | undefined;

export interface CheckedTool {
  manifest: Manifest;
  withheldReason: string | null;
}

export interface CheckResult {
  /** Every tool that passed, sorted by slug (code unit order). Empty when the bundle itself is unusable. */
  tools: CheckedTool[];
  problems: Problem[];
}

function slugAt(tools: unknown, index: number): string | null {
  const slug = Array.isArray(tools) ? (tools[index] as { slug?: unknown } | undefined)?.slug : undefined;
  return typeof slug === 'string' ? slug : null;
}

export function checkShape(document: unknown): Problem[] {
  validateBundleShape ??= bundleShapeValidator();
  if (validateBundleShape(document)) return [];
  const tools = (document as { tools?: unknown } | null)?.tools;
  return mostTelling(validateBundleShape.errors ?? []).map((error): Problem => {
    const match = /^\/tools\/(\d+)(.*)$/.exec(error.instancePath);
    const missing = error.keyword === 'required' ? `/${pointerSegment((error.params as { missingProperty: string }).missingProperty)}` : '';
    const bundlePointer = `${error.instancePath}${missing}`;
    const message = describeAjvError(error, { document });
    if (match) {
      const index = Number(match[1]);
      const slug = slugAt(tools, index);
      return {
        severity: 'error',
        slug: slug ?? `#${index}`,
        pointer: `${match[2] ?? ''}${missing}`,
        bundlePointer,
        message,
        hint: slug === null ? `the tool at /tools/${index} of the bundle` : 'fix the manifest in the catalogue',
      };
    }
    return {
      severity: 'error',
      slug: null,
      pointer: bundlePointer,
      bundlePointer,
      message,
      hint: 'a bundle is {"format":"nexusbloom-catalogue/1","tools":[...]}',
    };
  });
}

function checkSchema(
  slug: string,
  field: 'input_schema' | 'output_schema',
  schema: Record<string, unknown>,
  compiler: SchemaCompiler,
  problems: Problem[],
): ((value: unknown) => boolean) | undefined {
  // Too deep a schema would overflow the compilers, an unusable pattern fails the compile without saying where.
  const limits = schemaLimitProblems(slug, field, schema);
  if (limits.length > 0) {
    problems.push(...limits);
    return undefined;
  }
  if (!compiler.knowsDialect(schema)) {
    problems.push({
      severity: 'error',
      slug,
      pointer: `/${field}/$schema`,
      message: `$schema ${JSON.stringify(schema.$schema)} is not a JSON Schema dialect the server validates with: the catalogue contract allows draft-07 and 2020-12`,
      hint: 'declare "http://json-schema.org/draft-07/schema#" or "https://json-schema.org/draft/2020-12/schema", or leave $schema out (2020-12)',
    });
    return undefined;
  }
  if (schema.$async === true) {
    // ajv makes a `$async: true` schema's validation a promise, which every check (the server's too) would read as
    // valid. (`false` is the default; any other value fails ajv's compile, reported below.)
    problems.push({
      severity: 'error',
      slug,
      pointer: `/${field}/$async`,
      message: '$async schemas are not supported: a tool schema is validated synchronously, by the server and by this check',
      hint: 'remove $async',
    });
    return undefined;
  }
  const properties = schema.properties;
  if (field === 'input_schema' && properties !== null && typeof properties === 'object' && Object.hasOwn(properties, '__proto__')) {
    problems.push({
      severity: 'warning',
      slug,
      pointer: `/${field}/properties/__proto__`,
      message: 'a top-level argument named "__proto__" is refused by the server (JSON-RPC layers drop it), so callers cannot pass it',
      hint: 'rename the parameter',
    });
  }
  const cycle = refCycleWithoutBase(schema);
  if (cycle !== null) {
    const chain = cycle.map((edge) => `/${field}${edge.at} → /${field}${edge.target}`).join(', ');
    problems.push({
      severity: 'error',
      slug,
      pointer: `/${field}${(cycle[0] as { at: string }).at}`,
      message: `$ref cycle with no base case: ${chain}; such a schema is only itself, and no value or type can be written for it`,
      hint: 'break the cycle: put the recursive $ref under properties or items, or drop it',
    });
    // Compiling it would only recurse until the stack runs out: the cycle is the problem to report.
    return undefined;
  }
  for (const { ref, pointer } of collectRefs(schema)) {
    if (!ref.startsWith('#')) {
      problems.push({
        severity: 'error',
        slug,
        pointer: `/${field}${pointer}`,
        message: `external $ref ${JSON.stringify(ref)} is not allowed`,
        hint: 'inline it under $defs and point to #/$defs/...',
      });
    }
  }
  if (field === 'input_schema' && schema.type !== undefined && schema.type !== 'object') {
    problems.push({
      severity: 'error',
      slug,
      pointer: `/${field}/type`,
      message: `top level must be type "object", not ${JSON.stringify(schema.type)}`,
      hint: 'wrap the parameters in an object',
    });
  }
  // A schema proven to compile is compiled only for an example the interpreted validator refuses, so that ajv decides.
  const interpreted = compiler.interpreted(schema);
  if (interpreted !== null) return (value: unknown): boolean => interpreted(value) || compiler.compile(schema)(value);
  try {
    return compiler.compile(schema);
  } catch (error) {
    problems.push(...compileProblems(slug, field, schema, error, compiler));
    return undefined;
  }
}

/**
 * Why a schema does not compile, at the node to blame: an unresolvable `$ref` where it stands, a node that is not
 * JSON Schema at its own pointer (what the meta-schema allows there, not ajv's `data/...` prose).
 */
function compileProblems(
  slug: string,
  field: 'input_schema' | 'output_schema',
  schema: Record<string, unknown>,
  error: unknown,
  compiler: SchemaCompiler,
): Problem[] {
  const problem = (pointer: string, message: string, hint: string): Problem => ({
    severity: 'error',
    slug,
    pointer: `/${field}${pointer}`,
    message: `schema does not compile: ${message}`,
    hint,
  });
  const missingRef = (error as { missingRef?: unknown }).missingRef;
  if (typeof missingRef === 'string') {
    // An external reference was already reported where it stands, with what to do instead.
    if (!missingRef.startsWith('#')) return [];
    const refs = collectRefs(schema).filter(({ ref }) => ref === missingRef || missingRef.endsWith(ref));
    const at = refs.length > 0 ? refs.map(({ pointer }) => pointer) : [''];
    return at.map((pointer) =>
      problem(
        pointer,
        `$ref ${JSON.stringify(missingRef)} points to nothing in the schema`,
        'define the target under $defs (or definitions), or fix the reference',
      ),
    );
  }
  const invalid = compiler.schemaErrors(schema);
  if (invalid.length > 0) {
    return invalid.map((schemaError) =>
      problem(
        schemaError.instancePath,
        `not a JSON Schema here: ${describeAjvError(schemaError, { document: schema })}`,
        'fix the JSON Schema (draft-07 or 2020-12)',
      ),
    );
  }
  const message = (error as Error).message.replace(/\bdata(\/[^\s,]*)?/g, (_, path: string | undefined) => path ?? 'the schema');
  return [problem('', message, 'fix the JSON Schema (draft-07 or 2020-12)')];
}

/** Memoised per manifest object: the build's work asks for it on each use. */
const checkKeys = new WeakMap<Manifest, string>();

/** The cache key of one tool's schema checks: everything they read. */
export function checkCacheKey(manifest: Manifest): string {
  let key = checkKeys.get(manifest);
  if (key === undefined)
    checkKeys.set(
      manifest,
      (key = contentKey(manifest.slug, manifest.input_schema, manifest.output_schema ?? null, manifest.examples ?? null)),
    );
  return key;
}

/** Compiles a tool's schemas and validates its examples (the work the cache and the worker pool spare). */
export function schemaProblems(manifest: Manifest, compiler: SchemaCompiler): Problem[] {
  const problems: Problem[] = [];
  compileAndValidate(manifest, compiler, problems);
  return problems;
}

/**
 * One tool's schema checks as the build's work runs them: remembered by content, in this thread. A tool whose schemas
 * are proven and interpreted (see interpreted-validator.ts) is checked in less time than it takes to clone it to a
 * worker and its answer back, and a worker that need not load ajv starts sooner for emit.
 */
export const SCHEMA_CHECK_JOB: ToolJob<Manifest, Problem[]> = {
  kind: 'check',
  key: checkCacheKey,
  run: async (manifest, local) => schemaProblems(manifest, (local.schemaCompiler ??= await loadSchemaCompiler()) as SchemaCompiler),
  threads: false,
};

/**
 * A schema compiler, its module loaded on first use: it brings ajv (some 40 ms to load), which a build whose every
 * tool the build cache answers never needs. It holds schemas to the meta-schema validators compiled with the generator
 * (meta-schemas.ts) when they are there.
 */
async function loadSchemaCompiler(): Promise<SchemaCompiler> {
  const [{ createSchemaCompiler }, { loadCompiledMetaSchemas }] = await Promise.all([
    import('./schema-compiler.js'),
    import('./meta-schemas.js'),
  ]);
  return createSchemaCompiler(await loadCompiledMetaSchemas());
}

function checkTool(manifest: Manifest, ownProblems: readonly Problem[], problems: Problem[]): boolean {
  const slug = manifest.slug;
  // The tool's own problems alone are counted: the catalogue's so far grow with it (a warning per withheld slug).
  const own: Problem[] = [];
  if (hasLoneSurrogate(slug)) {
    own.push({
      severity: 'error',
      slug,
      pointer: '/slug',
      message: 'contains an unpaired UTF-16 surrogate, which no URI or file can carry',
      hint: 'fix the slug text',
    });
  }
  own.push(...ownProblems);
  problems.push(...own);
  return !own.some((p) => p.severity === 'error');
}

/** Every error of `value` against `schema`, from a validator compiled for reporting only when `quick` failed. */
function allErrorsOf(compiler: SchemaCompiler, schema: Record<string, unknown>, value: unknown) {
  const validate = compiler.compileAllErrors(schema);
  validate(value);
  return validate.errors ?? [];
}

function compileAndValidate(manifest: Manifest, compiler: SchemaCompiler, problems: Problem[]): void {
  const slug = manifest.slug;
  const input = manifest.input_schema;
  const output = manifest.output_schema;
  const validateInput = input ? checkSchema(slug, 'input_schema', input, compiler, problems) : undefined;
  const validateOutput = output ? checkSchema(slug, 'output_schema', output, compiler, problems) : undefined;
  (manifest.examples ?? []).forEach((example, index) => {
    if (input && validateInput && !validateInput(example.params)) {
      for (const error of mostTelling(allErrorsOf(compiler, input, example.params))) {
        problems.push({
          severity: 'error',
          slug,
          pointer: joinPointer('examples', index, 'params') + error.instancePath,
          message: `example does not match input_schema: ${describeAjvError(error, { document: example.params })}`,
          hint: 'fix the example or the schema',
        });
      }
    }
    if (output && validateOutput && 'result' in example && !validateOutput(example.result)) {
      for (const error of mostTelling(allErrorsOf(compiler, output, example.result))) {
        problems.push({
          severity: 'warning',
          slug,
          pointer: joinPointer('examples', index, 'result') + error.instancePath,
          message: `example result does not match output_schema: ${describeAjvError(error, { document: example.result })}`,
        });
      }
    }
  });
  if (input) compiler.release(input);
  if (output) compiler.release(output);
}

/**
 * The manifest with only the annotations MCP defines (a wrong type for one of those is a shape error already): any
 * other key is dropped with a warning, so the package advertises nothing a client could refuse.
 */
function withSpecAnnotations(manifest: Manifest, problems: Problem[]): Manifest {
  const annotations = manifest.annotations as Record<string, unknown> | undefined;
  if (annotations === undefined || annotations === null) return manifest;
  const unknown = Object.keys(annotations).filter((key) => !Object.hasOwn(ANNOTATION_TYPES, key));
  if (unknown.length === 0) return manifest;
  for (const key of unknown) {
    problems.push({
      severity: 'warning',
      slug: manifest.slug,
      pointer: joinPointer('annotations', key),
      message: `annotation ${JSON.stringify(key)} is not an MCP tool annotation: dropped`,
      hint: `MCP defines ${Object.keys(ANNOTATION_TYPES).join(', ')}`,
    });
  }
  const kept = specAnnotations(annotations);
  const { annotations: _dropped, ...rest } = manifest;
  return kept === undefined ? (rest as Manifest) : { ...rest, annotations: kept };
}

/** The check stage with each tool's schema checks run by the build's work (remembered, spread over threads). */
export async function checkCatalogueWith(document: unknown, work: Work): Promise<CheckResult> {
  const shape = checkShape(document);
  const entries = bundleEntries(document, shape);
  return checkedCatalogue(shape, entries, await work.map(SCHEMA_CHECK_JOB, toolsToCheck(entries)));
}

/** A bundle entry that passed the shape check, with the index of an earlier entry of the same slug. */
export interface BundleEntry {
  manifest: Manifest;
  index: number;
  duplicateOf: number | undefined;
}

/** The entries that passed the shape check, in bundle order; null when the bundle itself is unusable. */
export function bundleEntries(document: unknown, shape: readonly Problem[]): BundleEntry[] | null {
  const rawTools = (document as { tools?: unknown } | null)?.tools;
  if (!Array.isArray(rawTools) || shape.some((p) => p.slug === null)) return null;
  const shapeFailed = new Set(shape.map((p) => p.slug));
  const seen = new Map<string, number>();
  return rawTools.flatMap((raw, index): BundleEntry[] => {
    // A tool that is not even an object (null, a number) was reported by the shape check under its index.
    if (shapeFailed.has(`#${index}`) || raw === null || typeof raw !== 'object') return [];
    const manifest = raw as Manifest;
    if (shapeFailed.has(manifest.slug)) return [];
    const duplicateOf = seen.get(manifest.slug);
    if (duplicateOf === undefined) seen.set(manifest.slug, index);
    return [{ manifest, index, duplicateOf }];
  });
}

/** The tools whose schemas are checked: each slug's first entry. */
export const toolsToCheck = (entries: readonly BundleEntry[] | null): Manifest[] =>
  (entries ?? []).flatMap((entry) => (entry.duplicateOf === undefined ? [entry.manifest] : []));

/** The check's result from the shape problems and each checked tool's schema problems (in toolsToCheck order). */
export function checkedCatalogue(
  shape: Problem[],
  entries: readonly BundleEntry[] | null,
  schemaProblemsOfTools: readonly Problem[][],
): CheckResult {
  const problems = shape;
  if (entries === null) return { tools: [], problems };
  const tools: CheckedTool[] = [];
  let checked = 0;
  const checkEntry = ({ manifest, index, duplicateOf }: BundleEntry): void => {
    if (duplicateOf !== undefined) {
      problems.push({
        severity: 'error',
        slug: manifest.slug,
        pointer: '/slug',
        message: `duplicate slug: bundle entries ${joinPointer('tools', duplicateOf)} and ${joinPointer('tools', index)} both have it`,
        hint: 'slugs are unique by exact string',
      });
      return;
    }
    if (!checkTool(manifest, schemaProblemsOfTools[checked++] ?? [], problems)) return;
    const reason = withheldReason(manifest.slug);
    if (reason !== null) {
      problems.push({
        severity: 'warning',
        slug: manifest.slug,
        pointer: '/slug',
        message: `withheld from tools/list: ${reason}`,
        hint: 'still reachable through the meta-tool run command and resources; rename the slug to advertise it',
      });
    }
    tools.push({ manifest: withSpecAnnotations(manifest, problems), withheldReason: reason });
  };
  for (const entry of entries) {
    const firstOfTool = problems.length;
    checkEntry(entry);
    // The tool's problems name its place in the bundle too (cached problems are shared: copies, not edits).
    for (let at = firstOfTool; at < problems.length; at += 1)
      problems[at] = { ...problems[at]!, bundlePointer: `${joinPointer('tools', entry.index)}${problems[at]!.pointer}` };
  }
  tools.sort((a, b) => byCodeUnit(a.manifest.slug, b.manifest.slug));
  problems.sort((a, b) => byCodeUnit(a.slug ?? '', b.slug ?? '') || byCodeUnit(a.pointer, b.pointer) || byCodeUnit(a.message, b.message));
  return { tools, problems };
}
