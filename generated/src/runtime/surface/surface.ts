// The agent-facing surface of a generated server: meta-tool, direct tool calls, resources, prompts and completion.
import type {
  CallToolResult,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ReadResourceResult,
  Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { toolFailure, type ServedTool } from '../shared/contracts.js';
import { ERROR_CODES } from './guide.js';
import { runnerToolName, type CallExtra, type SurfaceContext } from './context.js';
import { callMetaTool } from './meta-tool.js';
import { metaToolDefinition } from './meta-tool-definition.js';
import { getPrompt, listPrompts, PROMPT_SLUG_ARGUMENTS } from './prompts.js';
import { completeSlugs, listResources, listResourceTemplates, readResource, toolTemplateUri } from './resources.js';
import { agentResolveOptions, notFoundFailure, resolveSlug, closestSlugs } from '../catalogue/resolve.js';
import { failureResult, outcomeResult } from '../history/results.js';
import { validateAndRun } from '../history/runs.js';
import type { ToolList } from '../catalogue/slug-index.js';

export type { CallExtra, SurfaceContext } from './context.js';

export interface AgentSurface {
  /** The first meta-tool entry (the only one unless the surface is split). */
  readonly metaTool: Tool;
  /** The meta-tool entries tools/list shows, annotated for the tools they reach now. */
  metaTools(): Tool[];
  callTool(name: string, args: unknown, extra: CallExtra): Promise<CallToolResult>;
  listResources(): ListResourcesResult;
  listResourceTemplates(): ListResourceTemplatesResult;
  readResource(uri: string): ReadResourceResult;
  listPrompts(): ListPromptsResult;
  getPrompt(name: string, args: Record<string, string>): GetPromptResult;
  complete(
    ref: { type: string; name?: string; uri?: string },
    argument: { name: string; value: string },
  ): { values: string[]; total?: number; hasMore?: boolean };
}

/** A direct tools/call: the name resolves among advertised tools, exactly or by unambiguous prefix. */
async function callDirect(ctx: SurfaceContext, name: string, args: unknown, extra: CallExtra): Promise<CallToolResult> {
  const tools = ctx.getTools();
  // The common case, an advertised tool by its exact slug, needs no pass over the catalogue.
  const exact = tools.bySlug(name);
  if (exact !== undefined && exact.withheldReason === null) return runDirect(ctx, exact, args, extra);
  // A name that is exactly a tool outside the policy is refused, never resolved as a prefix of another tool.
  const exactRefusal = exact === undefined ? (ctx.refusal?.(name, true) ?? null) : null;
  if (exactRefusal !== null) return failureResult(exactRefusal);
  const advertised = tools.advertised();
  const resolution = resolveSlug(advertised, name, agentResolveOptions(ctx));
  if (resolution.ok) return runDirect(ctx, resolution.tool, args, extra);
  const refusal = exact === undefined && resolution.failure.code === 'TOOL_NOT_FOUND' ? (ctx.refusal?.(name) ?? null) : null;
  if (refusal !== null) return failureResult(refusal);
  if (exact !== undefined && resolution.failure.code === 'TOOL_NOT_FOUND') {
    const failure = notFoundFailure(name, closestSlugs(advertised.tools, name), { metaToolName: ctx.names.metaToolName });
    failure.error = `Tool ${JSON.stringify(name)} is not directly callable (${exact.withheldReason}). Call it with the ${ctx.names.metaToolName} tool: {"command":"run","slug":${JSON.stringify(name)},"params":{...}}.`;
    failure.details = { ...(failure.details ?? {}), withheld: true };
    return failureResult(failure);
  }
  return failureResult(resolution.failure);
}

async function runDirect(ctx: SurfaceContext, tool: ServedTool, args: unknown, extra: CallExtra): Promise<CallToolResult> {
  const { outcome, record } = await validateAndRun(ctx, tool, args, extra.signal);
  const result = outcomeResult(outcome);
  return record ? { ...result, _meta: { run_id: record.id } } : result;
}

export function createAgentSurface(ctx: SurfaceContext): AgentSurface {
  const split = ctx.surfaceMode === 'split';
  const runnerName = runnerToolName(ctx.names.metaToolName);
  // Annotations follow the tools reachable now, so the entries are made again only when the tool list changes.
  let last: { tools: ToolList; entries: Tool[] } | undefined;
  const metaTools = (): Tool[] => {
    const tools = ctx.getTools();
    if (last?.tools !== tools) {
      last = {
        tools,
        entries: split ? [metaToolDefinition(ctx, 'discovery'), metaToolDefinition(ctx, 'runner')] : [metaToolDefinition(ctx)],
      };
    }
    return last.entries;
  };
  return {
    get metaTool() {
      return metaTools()[0] as Tool;
    },
    metaTools,
    async callTool(name, args, extra) {
      try {
        if (name === ctx.names.metaToolName) return await callMetaTool(ctx, args, extra, split ? 'discovery' : 'single');
        if (split && name === runnerName) return await callMetaTool(ctx, args, extra, 'runner');
        return await callDirect(ctx, name, args, extra);
      } catch (error) {
        // A bug or a broken catalogue entry must cost one call, not the session: answer with an error result.
        const message = error instanceof Error ? error.message : String(error);
        ctx.log(`tools/call ${JSON.stringify(name)} failed unexpectedly: ${message}`);
        return failureResult(toolFailure('EXECUTION_ERROR', `Internal error while handling ${JSON.stringify(name)}: ${message}`));
      }
    },
    listResources: () => listResources(ctx),
    listResourceTemplates: () => listResourceTemplates(ctx),
    readResource: (uri) => readResource(ctx, uri),
    listPrompts: () => listPrompts(),
    getPrompt: (name, args) => getPrompt(ctx, name, args),
    complete(ref, argument) {
      const slugArgument =
        (ref.type === 'ref/resource' && ref.uri === toolTemplateUri(ctx) && argument.name === 'slug') ||
        (ref.type === 'ref/prompt' && ref.name !== undefined && PROMPT_SLUG_ARGUMENTS[ref.name] === argument.name);
      if (slugArgument) return completeSlugs(ctx.getTools().tools, argument.value, ctx.search);
      // recover's `error` takes the failure's text or just its code: the codes are what a host can offer.
      if (ref.type === 'ref/prompt' && ref.name === 'recover' && argument.name === 'error') {
        const prefix = argument.value.toUpperCase();
        const values = ERROR_CODES.filter((code) => code.startsWith(prefix)).sort();
        return { values, total: values.length, hasMore: false };
      }
      return { values: [] };
    },
  };
}
