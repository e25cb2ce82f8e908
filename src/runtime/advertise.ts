// How a served tool appears in tools/list: its slug as the name and its real JSON Schema, unchanged.

import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { JsonObject, ServedTool } from './contracts.js';

/** The tool-name grammar strict hosts enforce; a slug outside it is withheld from tools/list. */
export const TOOL_NAME_GRAMMAR = /^[A-Za-z0-9_-]{1,64}$/;

/** Why a slug cannot be advertised, or null when it can (for tools the generator did not see, e.g. live additions). */
export function withheldReasonFor(slug: string): string | null {
  if (TOOL_NAME_GRAMMAR.test(slug)) return null;
  if (slug.length > 64) return `longer than 64 characters (${slug.length})`;
  if (slug.length === 0) return 'empty';
  const bad = [...new Set([...slug].filter((ch) => !/[A-Za-z0-9_-]/.test(ch)))].map((ch) => JSON.stringify(ch)).join(', ');
  return `contains characters outside [A-Za-z0-9_-]: ${bad}`;
}

export function isAdvertised(tool: ServedTool): boolean {
  return tool.withheldReason === null;
}

export function advertisedTool(tool: ServedTool): Tool {
  const manifest = tool.manifest;
  const deprecated = typeof manifest.deprecated === 'string' && manifest.deprecated.trim() !== ''
    ? `Deprecated: ${manifest.deprecated.trim().replace(/\.$/, '')}.\n`
    : '';
  const advertised: Tool = {
    name: tool.slug,
    title: manifest.name,
    description: `${deprecated}${manifest.description}`,
    inputSchema: inputSchemaOf(manifest.input_schema),
  };
  const output = manifest.output_schema;
  if (output !== null && output !== undefined && output.type === 'object') {
    advertised.outputSchema = outputSchemaOf(output);
  }
  if (manifest.annotations !== undefined && manifest.annotations !== null) advertised.annotations = { ...manifest.annotations };
  return advertised;
}

/** The error envelope every failed call carries as structuredContent. */
export const FAILURE_ENVELOPE_SCHEMA: JsonObject = {
  type: 'object',
  description: 'Returned instead of the result when the call fails (isError: true).',
  properties: {
    success: { const: false },
    error: { type: 'string' },
    code: { type: 'string' },
    retryable: { type: 'boolean' },
    details: { type: 'object' },
  },
  required: ['success', 'error', 'code', 'retryable'],
};

const DEFINITION_KEYWORDS = ['$defs', 'definitions'] as const;

/**
 * The tool's output schema, or the error envelope. Clients (the SDK's among them) check structuredContent against
 * outputSchema even on isError results, so an envelope the schema did not allow would turn every failed call into
 * a protocol error. The tool's own schema stays intact as the first branch; its definitions move to the top so its
 * `#/$defs/...` references still resolve.
 */
export function outputSchemaOf(output: JsonObject): NonNullable<Tool['outputSchema']> {
  const result: JsonObject = { ...output };
  const wrapper: JsonObject = { type: 'object' };
  for (const keyword of ['$schema', ...DEFINITION_KEYWORDS]) {
    if (keyword in result) {
      wrapper[keyword] = result[keyword];
      delete result[keyword];
    }
  }
  wrapper.anyOf = [result, FAILURE_ENVELOPE_SCHEMA];
  return wrapper as NonNullable<Tool['outputSchema']>;
}

/** MCP requires `type: "object"` at the top of inputSchema; everything else is passed on exactly as published. */
function inputSchemaOf(schema: JsonObject | null): Tool['inputSchema'] {
  if (schema === null || schema === undefined) return { type: 'object', properties: {} };
  if (schema.type === 'object') return schema as Tool['inputSchema'];
  return { ...schema, type: 'object' } as Tool['inputSchema'];
}
