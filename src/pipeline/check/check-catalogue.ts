// The check stage: the bundle against the manifest schema, every tool schema compiled, every example validated,
// every slug held against the tool-name grammar. It reports every problem at once and never throws on bad input.

import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { Manifest } from '../../runtime/contracts.js';
import { contentKey, type BuildCache } from '../cache/build-cache.js';
import { joinPointer, pointerSegment, type Problem } from '../problems.js';
import { ANNOTATION_TYPES, specAnnotations } from '../../runtime/protocol/tool-annotations.js';
import { refCycleWithoutBase } from './ref-cycles.js';
import { schemaLimitProblems } from './schema-limits.js';
import { collectRefs, createSchemaCompiler, describeAjvError, mostTelling, type SchemaCompiler } from './schema-compiler.js';
import { hasLoneSurrogate, withheldReason } from './slug-grammar.js';

const bundleSchema = JSON.parse(readFileSync(new URL('../../../src/schemas/manifest.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;
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

function checkShape(document: unknown): Problem[] {
  // Our own schema, held valid by a test: skipping the meta-schemas saves most of this compile.
  validateBundleShape ??= new Ajv2020({ strict: false, allErrors: true, validateSchema: false, meta: false }).compile(bundleSchema);
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
    return { severity: 'error', slug: null, pointer: bundlePointer, bundlePointer, message, hint: 'a bundle is {"format":"nexusbloom-catalogue/1","tools":[...]}' };
  });
}

function checkSchema(slug: string, field: 'input_schema' | 'output_schema', schema: Record<string, unknown>, compiler: SchemaCompiler, problems: Problem[]) {
  // Too deep a schema would overflow the compilers, an unusable pattern fails the compile without saying where.
  const limits = schemaLimitProblems(slug, field, schema);
  if (limits.length > 0) {
    problems.push(...limits);
    return undefined;
  }
  const properties = schema.properties;
  if (field === 'input_schema' && properties !== null && typeof properties === 'object' && Object.hasOwn(properties, '__proto__')) {
    problems.push({ severity: 'warning', slug, pointer: `/${field}/properties/__proto__`, message: 'a top-level argument named "__proto__" is refused by the server (JSON-RPC layers drop it), so callers cannot pass it', hint: 'rename the parameter' });
  }
  const cycle = refCycleWithoutBase(schema);
  if (cycle !== null) {
    const chain = cycle.map((edge) => `/${field}${edge.at} → /${field}${edge.target}`).join(', ');
    problems.push({
      severity: 'error', slug, pointer: `/${field}${(cycle[0] as { at: string }).at}`,
      message: `$ref cycle with no base case: ${chain}; such a schema is only itself, and no value or type can be written for it`,
      hint: 'break the cycle: put the recursive $ref under properties or items, or drop it',
    });
    // Compiling it would only recurse until the stack runs out: the cycle is the problem to report.
    return undefined;
  }
  for (const { ref, pointer } of collectRefs(schema)) {
    if (!ref.startsWith('#')) {
      problems.push({ severity: 'error', slug, pointer: `/${field}${pointer}`, message: `external $ref ${JSON.stringify(ref)} is not allowed`, hint: 'inline it under $defs and point to #/$defs/...' });
    }
  }
  if (field === 'input_schema' && schema.type !== undefined && schema.type !== 'object') {
    problems.push({ severity: 'error', slug, pointer: `/${field}/type`, message: `top level must be type "object", not ${JSON.stringify(schema.type)}`, hint: 'wrap the parameters in an object' });
  }
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
function compileProblems(slug: string, field: 'input_schema' | 'output_schema', schema: Record<string, unknown>, error: unknown, compiler: SchemaCompiler): Problem[] {
  const problem = (pointer: string, message: string, hint: string): Problem => ({ severity: 'error', slug, pointer: `/${field}${pointer}`, message: `schema does not compile: ${message}`, hint });
  const missingRef = (error as { missingRef?: unknown }).missingRef;
  if (typeof missingRef === 'string') {
    // An external reference was already reported where it stands, with what to do instead.
    if (!missingRef.startsWith('#')) return [];
    const refs = collectRefs(schema).filter(({ ref }) => ref === missingRef || missingRef.endsWith(ref));
    const at = refs.length > 0 ? refs.map(({ pointer }) => pointer) : [''];
    return at.map((pointer) => problem(pointer, `$ref ${JSON.stringify(missingRef)} points to nothing in the schema`, 'define the target under $defs (or definitions), or fix the reference'));
  }
  const invalid = compiler.schemaErrors(schema);
  if (invalid.length > 0) {
    return invalid.map((schemaError) => problem(schemaError.instancePath, `not a JSON Schema here: ${describeAjvError(schemaError, { document: schema })}`, 'fix the JSON Schema (draft-07 or 2020-12)'));
  }
  const message = (error as Error).message.replace(/\bdata(\/[^\s,]*)?/g, (_, path: string | undefined) => path ?? 'the schema');
  return [problem('', message, 'fix the JSON Schema (draft-07 or 2020-12)')];
}

/** Every problem of one tool's schemas and examples; the expensive part, cached by content. */
export const CHECK_CACHE_KIND = 'check';

/** Memoised per manifest object: the worker pool and the check stage both ask. */
const checkKeys = new WeakMap<Manifest, string>();

/** The cache key of one tool's schema checks: everything they read. */
export function checkCacheKey(manifest: Manifest): string {
  let key = checkKeys.get(manifest);
  if (key === undefined) checkKeys.set(manifest, (key = contentKey(manifest.slug, manifest.input_schema, manifest.output_schema ?? null, manifest.examples ?? null)));
  return key;
}


function checkToolSchemas(manifest: Manifest, compiler: SchemaCompiler, cache: BuildCache | undefined): Problem[] {
  const key = cache ? checkCacheKey(manifest) : '';
  const cached = cache?.get<Problem[]>(CHECK_CACHE_KIND, key);
  if (cached) return cached;
  const problems = schemaProblems(manifest, compiler);
  cache?.set(CHECK_CACHE_KIND, key, problems);
  return problems;
}

/** Compiles a tool's schemas and validates its examples (the work the cache and the worker pool spare). */
export function schemaProblems(manifest: Manifest, compiler: SchemaCompiler): Problem[] {
  const problems: Problem[] = [];
  compileAndValidate(manifest, compiler, problems);
  return problems;
}

function checkTool(manifest: Manifest, compiler: SchemaCompiler, problems: Problem[], cache: BuildCache | undefined): boolean {
  const slug = manifest.slug;
  // The tool's own problems alone are counted: the catalogue's so far grow with it (a warning per withheld slug).
  const own: Problem[] = [];
  if (hasLoneSurrogate(slug)) {
    own.push({ severity: 'error', slug, pointer: '/slug', message: 'contains an unpaired UTF-16 surrogate, which no URI or file can carry', hint: 'fix the slug text' });
  }
  own.push(...checkToolSchemas(manifest, compiler, cache));
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
        problems.push({ severity: 'error', slug, pointer: joinPointer('examples', index, 'params') + error.instancePath, message: `example does not match input_schema: ${describeAjvError(error, { document: example.params })}`, hint: 'fix the example or the schema' });
      }
    }
    if (output && validateOutput && 'result' in example && !validateOutput(example.result)) {
      for (const error of mostTelling(allErrorsOf(compiler, output, example.result))) {
        problems.push({ severity: 'warning', slug, pointer: joinPointer('examples', index, 'result') + error.instancePath, message: `example result does not match output_schema: ${describeAjvError(error, { document: example.result })}` });
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
    problems.push({ severity: 'warning', slug: manifest.slug, pointer: joinPointer('annotations', key), message: `annotation ${JSON.stringify(key)} is not an MCP tool annotation: dropped`, hint: `MCP defines ${Object.keys(ANNOTATION_TYPES).join(', ')}` });
  }
  const kept = specAnnotations(annotations);
  const { annotations: _dropped, ...rest } = manifest;
  return kept === undefined ? (rest as Manifest) : { ...rest, annotations: kept };
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function checkCatalogue(document: unknown, cache?: BuildCache): CheckResult {
  let compiler: SchemaCompiler | undefined;
  // ajv instances are built only when some tool is not in the cache.
  const lazyCompiler: SchemaCompiler = {
    compile: (schema) => (compiler ??= createSchemaCompiler()).compile(schema),
    compileAllErrors: (schema) => (compiler ??= createSchemaCompiler()).compileAllErrors(schema),
    schemaErrors: (schema) => (compiler ??= createSchemaCompiler()).schemaErrors(schema),
    release: (schema) => compiler?.release(schema),
  };
  const problems = checkShape(document);
  const rawTools = (document as { tools?: unknown } | null)?.tools;
  if (!Array.isArray(rawTools) || problems.some((p) => p.slug === null)) return { tools: [], problems };
  const shapeFailed = new Set(problems.map((p) => p.slug));
  const seen = new Map<string, number>();
  const tools: CheckedTool[] = [];
  const checkEntry = (manifest: Manifest, index: number): void => {
    const first = seen.get(manifest.slug);
    if (first !== undefined) {
      problems.push({ severity: 'error', slug: manifest.slug, pointer: '/slug', message: `duplicate slug: bundle entries ${joinPointer('tools', first)} and ${joinPointer('tools', index)} both have it`, hint: 'slugs are unique by exact string' });
      return;
    }
    seen.set(manifest.slug, index);
    if (!checkTool(manifest, lazyCompiler, problems, cache)) return;
    const reason = withheldReason(manifest.slug);
    if (reason !== null) {
      problems.push({ severity: 'warning', slug: manifest.slug, pointer: '/slug', message: `withheld from tools/list: ${reason}`, hint: 'still reachable through the meta-tool run command and resources; rename the slug to advertise it' });
    }
    tools.push({ manifest: withSpecAnnotations(manifest, problems), withheldReason: reason });
  };
  rawTools.forEach((raw, index) => {
    // A tool that is not even an object (null, a number) was reported by the shape check under its index.
    if (shapeFailed.has(`#${index}`) || raw === null || typeof raw !== 'object') return;
    const manifest = raw as Manifest;
    if (shapeFailed.has(manifest.slug)) return;
    const firstOfTool = problems.length;
    checkEntry(manifest, index);
    // The tool's problems name its place in the bundle too (cached problems are shared: copies, not edits).
    for (let at = firstOfTool; at < problems.length; at += 1) problems[at] = { ...problems[at]!, bundlePointer: `${joinPointer('tools', index)}${problems[at]!.pointer}` };
  });
  tools.sort((a, b) => byCodeUnit(a.manifest.slug, b.manifest.slug));
  problems.sort((a, b) => byCodeUnit(a.slug ?? '', b.slug ?? '') || byCodeUnit(a.pointer, b.pointer) || byCodeUnit(a.message, b.message));
  return { tools, problems };
}
