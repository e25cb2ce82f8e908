// MCP resources: the guide, the catalogue index, one manifest per tool (a URI template) and the run history.
import {
  ErrorCode,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import { ProtocolError, type ServedTool } from '../shared/contracts.js';
import { callFor, parameterCounts, validExampleArguments } from '../schema/call-shape.js';
import { buildGuide } from './guide.js';
import { historyIndex } from '../history/history.js';
import { safeStringify } from '../secrets/redact.js';
import { agentResolveOptions, resolveSlug } from '../catalogue/resolve.js';
import type { ToolSearch } from '../search/index.js';
import { toolUri, type SurfaceContext } from './context.js';
import { firstLine } from '../shared/text.js';
import { byCodeUnit } from '../shared/order.js';

/** Completion answers at most this many values (the MCP limit). */
export const MAX_COMPLETION_VALUES = 100;

const JSON_TYPE = 'application/json';

export function toolTemplateUri(ctx: SurfaceContext): string {
  return `${ctx.names.uriScheme}://tools/{slug}`;
}

function fixedUris(ctx: SurfaceContext): { guide: string; catalogue: string; history: string; toolsPrefix: string } {
  const scheme = ctx.names.uriScheme;
  return {
    guide: `${scheme}://guide`,
    catalogue: `${scheme}://catalogue`,
    history: `${scheme}://history`,
    toolsPrefix: `${scheme}://tools/`,
  };
}

/** A tool's description in a listing: its first line, at most 200 characters. */
const shortDescription = (text: string): string => firstLine(text, 200);

export function listResources(ctx: SurfaceContext): ListResourcesResult {
  const uris = fixedUris(ctx);
  const product = ctx.names.productName;
  return {
    resources: [
      {
        uri: uris.guide,
        name: 'guide',
        title: `${product} usage guide`,
        description: 'Meta commands, recovery paths, limits and error codes.',
        mimeType: 'text/markdown',
      },
      {
        uri: uris.catalogue,
        name: 'catalogue',
        title: `${product} catalogue`,
        description: 'Every tool (no full schemas) with the URI of its manifest.',
        mimeType: JSON_TYPE,
      },
      {
        uri: uris.history,
        name: 'history',
        title: 'Run history',
        description: 'Runs this server process performed, newest first.',
        mimeType: JSON_TYPE,
      },
      ...ctx.getTools().tools.map((tool) => ({
        uri: toolUri(ctx, tool.slug),
        name: tool.slug,
        title: String(tool.manifest.name ?? tool.slug),
        description: shortDescription(String(tool.manifest.description ?? '')),
        mimeType: JSON_TYPE,
      })),
    ],
  };
}

export function listResourceTemplates(ctx: SurfaceContext): ListResourceTemplatesResult {
  return {
    resourceTemplates: [
      {
        uriTemplate: toolTemplateUri(ctx),
        name: 'tool',
        title: `${ctx.names.productName} tool manifest`,
        description:
          "One tool's full manifest: input and output schema plus a ready-to-send call. The slug is percent-encoded; an unambiguous prefix works too.",
        mimeType: JSON_TYPE,
      },
    ],
  };
}

function catalogueDocument(ctx: SurfaceContext): Record<string, unknown> {
  const { tools } = ctx.getTools();
  return {
    count: tools.length,
    manifest_uri_template: toolTemplateUri(ctx),
    tools: tools.map((tool) => ({
      slug: tool.slug,
      name: tool.manifest.name,
      description: tool.manifest.description,
      category: tool.manifest.category,
      tags: tool.manifest.tags,
      parameters: parameterCounts(tool),
      has_schema: tool.manifest.input_schema !== null && tool.manifest.input_schema !== undefined,
      withheld: tool.withheldReason !== null,
      ...(tool.withheldReason !== null ? { withheld_reason: tool.withheldReason } : {}),
      ...(typeof tool.manifest.deprecated === 'string' ? { deprecated: tool.manifest.deprecated } : {}),
      uri: toolUri(ctx, tool.slug),
    })),
  };
}

/** The manifest minus its source, plus the ready-to-send call (through the meta-tool for withheld tools). */
export function toolDocument(ctx: SurfaceContext, tool: ServedTool): Record<string, unknown> {
  const { source: _source, ...manifest } = tool.manifest;
  const example = validExampleArguments(tool, ctx.validator);
  const call = callFor(tool, example.arguments, ctx.names.metaToolName);
  return {
    ...manifest,
    uri: toolUri(ctx, tool.slug),
    withheld: tool.withheldReason !== null,
    ...(tool.withheldReason !== null ? { withheld_reason: tool.withheldReason } : {}),
    parameters: parameterCounts(tool),
    call: { tool: call.name, arguments: call.arguments },
    call_valid: example.valid,
  };
}

function jsonContents(uri: string, data: unknown): ReadResourceResult {
  return { contents: [{ uri, mimeType: JSON_TYPE, text: safeStringify(data, 2) }] };
}

export function readResource(ctx: SurfaceContext, uri: string): ReadResourceResult {
  const uris = fixedUris(ctx);
  if (uri === uris.guide)
    return {
      contents: [
        {
          uri,
          mimeType: 'text/markdown',
          text: buildGuide(ctx.names, {
            policy: ctx.policySummary ?? 'every tool',
            confirm: ctx.confirmation?.mode ?? 'off',
            surface: ctx.surfaceMode ?? 'single',
          }),
        },
      ],
    };
  if (uri === uris.catalogue) return jsonContents(uri, catalogueDocument(ctx));
  if (uri === uris.history) return jsonContents(uri, historyIndex(ctx.history, ctx.startedAt));
  if (uri.startsWith(uris.toolsPrefix)) {
    const encoded = uri.slice(uris.toolsPrefix.length);
    let slug: string;
    try {
      slug = decodeURIComponent(encoded);
    } catch {
      throw new ProtocolError(
        ErrorCode.InvalidParams,
        `Resource URI ${JSON.stringify(uri)} has a malformed percent-encoding; encode the slug with encodeURIComponent.`,
      );
    }
    const resolution = resolveSlug(ctx.getTools(), slug, agentResolveOptions(ctx));
    if (!resolution.ok) {
      throw new ProtocolError(
        ErrorCode.InvalidParams,
        `Unknown resource ${JSON.stringify(uri)}: ${resolution.failure.error}`,
        resolution.failure.details,
      );
    }
    return jsonContents(toolUri(ctx, resolution.tool.slug), toolDocument(ctx, resolution.tool));
  }
  throw new ProtocolError(
    ErrorCode.InvalidParams,
    `Unknown resource ${JSON.stringify(uri)}. Resources: ${uris.guide}, ${uris.catalogue}, ${uris.history}, ${toolTemplateUri(ctx)}.`,
  );
}

/**
 * Slugs starting with `prefix`, code-unit sorted, at most 100, with the full count. When no slug starts with it, what
 * was typed is read as words ("delete issue") and the slugs come ranked as `search` ranks them.
 */
export function completeSlugs(
  tools: readonly ServedTool[],
  prefix: string,
  search?: ToolSearch,
): { values: string[]; total: number; hasMore: boolean } {
  const matches = tools
    .map((tool) => tool.slug)
    .filter((slug) => slug.startsWith(prefix))
    .sort(byCodeUnit);
  if (!matches.length && search !== undefined && prefix.trim() !== '') {
    const ranked = search.search(prefix, MAX_COMPLETION_VALUES).map((hit) => hit.slug);
    return { values: ranked, total: ranked.length, hasMore: false };
  }
  return { values: matches.slice(0, MAX_COMPLETION_VALUES), total: matches.length, hasMore: matches.length > MAX_COMPLETION_VALUES };
}
