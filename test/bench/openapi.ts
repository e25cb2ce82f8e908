// Converts a synthetic catalogue to an OpenAPI 3.1 document, the input peer generators take: one POST operation per
// tool, request body = input schema, 200 response = output schema. Each tool's `$defs` move to
// `components/schemas` under a per-operation prefix, and its `#/$defs/…` refs are rewritten to point there.

import type { JsonObject, Manifest } from '../../src/runtime/shared/contracts.js';
import type { SyntheticBundle } from './catalogue.js';

/** camelCase operation id from a slug (`validate-json-2` → `validateJson2`); synthetic slugs are ASCII words. */
export function operationIdOf(slug: string): string {
  const words = slug.split(/[^A-Za-z0-9]+/).filter((w) => w !== '');
  return words.map((w, i) => (i === 0 ? w.toLowerCase() : w.charAt(0).toUpperCase() + w.slice(1).toLowerCase())).join('');
}

function rewriteRefs(value: unknown, prefix: string): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, prefix));
  if (value === null || typeof value !== 'object') return value;
  const out: JsonObject = {};
  for (const [key, child] of Object.entries(value as JsonObject)) {
    if (key === '$ref' && typeof child === 'string' && child.startsWith('#/$defs/')) {
      out[key] = `#/components/schemas/${prefix}_${child.slice('#/$defs/'.length)}`;
    } else {
      out[key] = rewriteRefs(child, prefix);
    }
  }
  return out;
}

/** A schema without its `$defs` (moved to `components`) and with refs rewritten. */
function hoisted(schema: JsonObject, prefix: string, components: JsonObject): JsonObject {
  const { $defs, $schema: _dialect, ...rest } = schema;
  if ($defs !== null && typeof $defs === 'object') {
    for (const [name, def] of Object.entries($defs as JsonObject)) components[`${prefix}_${name}`] = rewriteRefs(def, prefix);
  }
  return rewriteRefs(rest, prefix) as JsonObject;
}

function operation(tool: Manifest, components: JsonObject): JsonObject {
  const operationId = operationIdOf(tool.slug);
  const input = tool.input_schema ?? { type: 'object', properties: {} };
  const op: JsonObject = {
    operationId,
    summary: tool.name,
    description: tool.description,
    tags: [tool.category],
    requestBody: { required: true, content: { 'application/json': { schema: hoisted(input, operationId, components) } } },
    responses: {
      '200': {
        description: 'The tool result.',
        content: { 'application/json': { schema: tool.output_schema ? hoisted(tool.output_schema, `${operationId}Out`, components) : {} } },
      },
    },
  };
  if (tool.deprecated !== undefined) op.deprecated = true;
  return op;
}

export function catalogueToOpenApi(bundle: SyntheticBundle, serverUrl = 'http://127.0.0.1:4010/api'): JsonObject {
  const components: JsonObject = {};
  const paths: JsonObject = {};
  for (const tool of bundle.tools) paths[`/tools/${tool.slug}/run`] = { post: operation(tool, components) };
  return {
    openapi: '3.1.0',
    info: { title: 'Synthetic NexusBloom catalogue', version: '1.0.0' },
    servers: [{ url: serverUrl }],
    paths,
    components: { schemas: components },
  };
}
