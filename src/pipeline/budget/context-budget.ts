// The context budget: what the advertised tools/list costs an agent in tokens, per tool, in total, and meta-tool only.

import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { createToolAdvertiser } from '../../runtime/advertise.js';
import type { ServedTool, ServerNames } from '../../runtime/contracts.js';
import { DEFAULT_HOST_PROFILE } from '../../runtime/host-profiles.js';
import { metaToolDefinition } from '../../runtime/meta-tool.js';
import type { SurfaceContext } from '../../runtime/surface.js';

/**
 * Counts are OpenAI's o200k_base encoding (GPT-4o and later) over the JSON of tools/list; other vendors' tokenizers
 * (Anthropic's, Google's) count the same text differently, and hosts wrap tools in their own prompt format, so read
 * these as a close relative measure, not an exact bill.
 */
export const BUDGET_ENCODING = 'o200k_base';

export interface ContextBudget {
  encoding: typeof BUDGET_ENCODING;
  /** Tokens of the whole tools/list answer (`{"tools":[…]}`) with every advertisable tool and the meta-tool. */
  total: number;
  /** Tokens of the tools/list answer that lists only the meta-tool (`<P>MCP_TOOLS=meta`, or `auto` past the threshold). */
  metaOnly: number;
  /** Each listed catalogue tool's own JSON, most expensive first, then by slug (code unit order). */
  perTool: Array<{ slug: string; tokens: number }>;
}

export type TokenCounter = (text: string) => number;

/** The tokenizer, loaded on first use: its rank table is large and most commands never need it. */
export async function loadTokenCounter(): Promise<TokenCounter> {
  const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
  return (text) => countTokens(text);
}

/**
 * The budget of the tools/list a server built from `tools` answers with by default (`spec` profile, every tool
 * listed), computed with the runtime's own advertiser so it is exactly what the server sends.
 */
export function contextBudget(tools: readonly ServedTool[], names: ServerNames, count: TokenCounter): ContextBudget {
  const { listed, metaOnly } = advertisedSurface(tools, names);
  const perTool = listed
    .filter((tool) => tool !== metaOnly[0])
    .map((tool) => ({ slug: tool.name, tokens: count(JSON.stringify(tool)) }))
    .sort((a, b) => b.tokens - a.tokens || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  return {
    encoding: BUDGET_ENCODING,
    total: count(JSON.stringify({ tools: listed })),
    metaOnly: count(JSON.stringify({ tools: metaOnly })),
    perTool,
  };
}

/** The tools/list answers of a server over `tools` in the default profile: everything listed, and the meta-tool alone. */
export function advertisedSurface(tools: readonly ServedTool[], names: ServerNames): { listed: Tool[]; metaOnly: Tool[] } {
  // metaToolDefinition reads only the names from its context; the rest of a surface (runner, history) is not needed here.
  const metaTool: Tool = metaToolDefinition({ names } as SurfaceContext);
  const advertiser = createToolAdvertiser({
    profile: DEFAULT_HOST_PROFILE, mode: 'all', threshold: Number.POSITIVE_INFINITY, pinned: [], metaToolName: names.metaToolName,
  });
  return { listed: advertiser.list(tools, metaTool), metaOnly: advertiser.list([], metaTool) };
}

/** The failure message when the listed surface is over `maxTokens`, or null when it fits. */
export function overBudgetMessage(budget: ContextBudget, maxTokens: number, envPrefix: string): string | null {
  if (budget.total <= maxTokens) return null;
  const largest = budget.perTool.slice(0, 5).map((tool) => `${tool.slug} (${tool.tokens})`).join(', ');
  return `tools/list costs ${budget.total} tokens (${budget.encoding}), over --max-tokens ${maxTokens}. `
    + `Largest tools: ${largest || 'none'}. The meta-tool alone costs ${budget.metaOnly}; `
    + `the server lists only it past ${envPrefix}MCP_TOOLS_THRESHOLD tools when ${envPrefix}MCP_TOOLS=auto (the default).`;
}

/** Human lines for the build output: the total, the meta-only cost and the five most expensive tools. */
export function budgetLines(budget: ContextBudget): string[] {
  const lines = [`Context budget (${budget.encoding}): tools/list ${budget.total} tokens; meta-tool only ${budget.metaOnly}.`];
  for (const tool of budget.perTool.slice(0, 5)) lines.push(`  ${String(tool.tokens).padStart(6)}  ${tool.slug}`);
  return lines;
}
