// Reads an OpenAPI 3.0/3.1 or Swagger 2.0 document (JSON or YAML) into the catalogue bundle: the parser resolves its
// local refs and validates it; operations.ts makes one tool per operation.

import SwaggerParser from '@apidevtools/swagger-parser';
import { parse as parseYaml } from 'yaml';
import type { JsonObject, Manifest } from '../../../runtime/shared/contracts.js';
import { withoutByteOrderMark } from '../../../runtime/shared/json-text.js';
import { PipelineError, type Problem } from '../../problems.js';
import { BUNDLE_FORMAT } from '../bundle-source.js';
import { documentManifests, type DocumentContext } from './operations.js';
import { isJsonObject, pointerToken } from '../../../runtime/shared/json-values.js';
import { openApiVersionOf } from './openapi-version.js';
import { checkOpenApi3Schema } from './openapi-schema-check.js';

export { openApiVersionOf } from './openapi-version.js';

type ParserDocument = Parameters<typeof SwaggerParser.validate>[0] & object;
type ParserOptions = SwaggerParser.Options;

/** A document's text as JSON, else as YAML; null when it is neither (YAML errors are kept for the message). */
export function parseDocumentText(text: string): { value: unknown; syntax: 'json' | 'yaml' } | { error: string } {
  const clean = withoutByteOrderMark(text);
  try {
    return { value: JSON.parse(clean) as unknown, syntax: 'json' };
  } catch (jsonError) {
    try {
      // Catalogue text is data: no custom tags, aliases bounded by the parser's own limit.
      return { value: parseYaml(clean, { prettyErrors: false, uniqueKeys: false }) as unknown, syntax: 'yaml' };
    } catch (yamlError) {
      return { error: `${(jsonError as Error).message}; as YAML: ${(yamlError as Error).message.split('\n')[0]}` };
    }
  }
}

function problem(origin: string, pointer: string, message: string, hint?: string): Problem {
  return { severity: 'error', slug: null, pointer, message: `${origin}: ${message}`, ...(hint === undefined ? {} : { hint }) };
}

/** Every `$ref` of the document, with the JSON pointer of each. */
function documentRefs(
  value: unknown,
  pointer = '',
  found: Array<{ ref: string; pointer: string }> = [],
): Array<{ ref: string; pointer: string }> {
  if (Array.isArray(value)) value.forEach((item, index) => documentRefs(item, `${pointer}/${index}`, found));
  else if (isJsonObject(value))
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string') found.push({ ref: child, pointer: `${pointer}/$ref` });
      else documentRefs(child, `${pointer}/${pointerToken(key)}`, found);
    }
  return found;
}

/** The first of a document's local `$ref`s (see documentRefs) that points nowhere in it, or null. */
function unresolvedRef(
  documentRefList: ReadonlyArray<{ ref: string; pointer: string }>,
  refs: { get(ref: string): unknown },
): { ref: string; pointer: string } | null {
  const known = new Set<string>();
  for (const found of documentRefList) {
    if (known.has(found.ref)) continue;
    try {
      refs.get(found.ref);
    } catch {
      return found;
    }
    known.add(found.ref);
  }
  return null;
}

/**
 * Checks the document: a Swagger 2.0 one by the parser's validate() (its checks beyond the schema need the document
 * dereferenced, and dereferencing finds refs that point nowhere), an OpenAPI 3 one against its schema as written, by
 * the parser's own schema check (the parser checks nothing more of it; see unresolvedRef for its refs). Reference
 * objects are valid in place there and every shared component is checked once where it stands, so a fault is named at
 * its own pointer; and it skips dereferencing, which on GitHub's API (845 operations) took three quarters of converting
 * it. Throws the parser's error.
 */
async function validateDocument(document: JsonObject, major: number): Promise<void> {
  if (major === 2) {
    // validate() dereferences what it is given in place: it gets a copy, and the tools keep their refs as $defs.
    await SwaggerParser.validate(
      structuredClone(document) as ParserDocument,
      { resolve: { external: false }, validate: { spec: true, schema: true } } as ParserOptions,
    );
    return;
  }
  checkOpenApi3Schema(document);
}

/** The tools of an API description, as a bundle's `tools`; throws a PipelineError naming every problem found. */
export async function openApiManifests(document: JsonObject, origin: string, baseUrl: string | null): Promise<Manifest[]> {
  const version = openApiVersionOf(document);
  if (version === null) throw new PipelineError(`${origin} is not an OpenAPI 3.x or Swagger 2.0 document`);
  const found = documentRefs(document);
  // A `$ref` that leaves the document (another file or a URL) is refused, as for catalogue schemas.
  const external = found.filter(({ ref }) => !ref.startsWith('#'));
  if (external.length > 0) {
    const problems = external
      .slice(0, 20)
      .map(({ ref, pointer }) =>
        problem(
          origin,
          pointer,
          `external $ref ${JSON.stringify(ref)} is not allowed`,
          'bundle the API description into one file first (e.g. redocly bundle, swagger-cli bundle)',
        ),
      );
    throw new PipelineError(
      `${origin} has ${external.length} external $ref(s):\n${problems.map((p) => `  ${p.pointer}: ${p.message}`).join('\n')}`,
      problems,
    );
  }
  let refs: Awaited<ReturnType<typeof SwaggerParser.resolve>>;
  try {
    refs = await SwaggerParser.resolve(structuredClone(document) as ParserDocument, { resolve: { external: false } } as ParserOptions);
    await validateDocument(document, version.major);
  } catch (error) {
    const message = (error as Error).message.trim();
    throw new PipelineError(
      `${origin} is not a valid ${version.major === 2 ? 'Swagger' : 'OpenAPI'} ${version.version} document: ${message}`,
      [
        problem(
          origin,
          '',
          `not a valid ${version.major === 2 ? 'Swagger' : 'OpenAPI'} ${version.version} document: ${message}`,
          'fix the API description (the parser names the place)',
        ),
      ],
    );
  }
  const unresolved = version.major === 2 ? null : unresolvedRef(found, refs);
  if (unresolved !== null) {
    const message = `$ref ${JSON.stringify(unresolved.ref)} points nowhere in the document`;
    throw new PipelineError(`${origin}: ${unresolved.pointer}: ${message}`, [
      problem(origin, unresolved.pointer, message, 'point it at a part of the document that exists (a JSON pointer from #)'),
    ]);
  }
  const context: DocumentContext = {
    document,
    major: version.major,
    dialect: version.major === 3 && version.minor >= 1 ? 'oas31' : 'oas30',
    read: (ref) => {
      try {
        return refs.get(ref);
      } catch (error) {
        throw new PipelineError(`${origin}: $ref ${JSON.stringify(ref)} points nowhere in the document (${(error as Error).message})`);
      }
    },
    baseUrl,
  };
  try {
    return documentManifests(context);
  } catch (error) {
    if (error instanceof PipelineError) throw error;
    throw new PipelineError(`${origin}: cannot convert the API description: ${(error as Error).message}`);
  }
}

/** The catalogue bundle of an API description. */
export async function openApiBundle(
  document: JsonObject,
  origin: string,
  baseUrl: string | null,
): Promise<{ format: string; tools: Manifest[] }> {
  return { format: BUNDLE_FORMAT, tools: await openApiManifests(document, origin, baseUrl) };
}
