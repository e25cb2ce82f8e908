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
    advertised.outputSchema = output as Tool['outputSchema'] & JsonObject;
  }
  if (manifest.annotations !== undefined && manifest.annotations !== null) advertised.annotations = { ...manifest.annotations };
  return advertised;
}

/** MCP requires `type: "object"` at the top of inputSchema; everything else is passed on exactly as published. */
function inputSchemaOf(schema: JsonObject | null): Tool['inputSchema'] {
  if (schema === null || schema === undefined) return { type: 'object', properties: {} };
  if (schema.type === 'object') return schema as Tool['inputSchema'];
  return { ...schema, type: 'object' } as Tool['inputSchema'];
}
