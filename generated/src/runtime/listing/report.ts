// What tools/list shows and why, in words for the start-up line, with the build's token figures when the list is cut
// to the meta-tool because the catalogue is larger than hosts take.

import { readFileSync } from 'node:fs';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ServedTool } from '../shared/contracts.js';
import type { EnvVarNames } from '../settings/config.js';
import { isListable, type ListingOptions } from '../catalogue/advertise.js';
import { describePolicy, type PolicySettings } from '../policy/index.js';

/** What the build counted (`data/token-costs.json`): tokens of tools/list entries, o200k_base. */
export interface TokenCosts {
  encoding: string;
  /** The whole tools/list answer with every listable tool inside the build's policy. */
  total: number;
  /** The answer with only the meta-tool. */
  metaOnly: number;
  /** Each listable tool's own entry. */
  perTool: Record<string, number>;
}

export const TOKEN_COSTS_FORMAT = 'nexusbloom-token-costs/1';

export function readTokenCostsSync(url: URL): TokenCosts | null {
  try {
    const data = JSON.parse(readFileSync(url, 'utf8')) as Partial<TokenCosts> & { format?: unknown };
    if (
      data.format !== TOKEN_COSTS_FORMAT ||
      typeof data.total !== 'number' ||
      typeof data.metaOnly !== 'number' ||
      typeof data.perTool !== 'object' ||
      data.perTool === null
    )
      return null;
    return data as TokenCosts;
  } catch {
    return null;
  }
}

export interface ListingReport {
  /** Catalogue tools with their own entry in tools/list. */
  listed: number;
  /** Meta-tool entries (1, or 2 when the surface is split). */
  metaEntries: number;
  /** Every tool in the catalogue, listed or not. */
  total: number;
  /** Tools outside the operator's policy (absent everywhere). */
  outsidePolicy: number;
  /** Whether `auto` cut the list to the meta-tool (+ pinned) because the catalogue is larger than hosts take. */
  cut: boolean;
  /** One line: what is listed, of what. */
  line: string;
  /** Said once at start-up when the list was cut, with token figures; null otherwise. */
  warning: string | null;
}

export interface ListingInputs {
  all: readonly ServedTool[];
  served: readonly ServedTool[];
  listed: readonly Tool[];
  metaEntries: number;
  options: ListingOptions;
  policy: PolicySettings;
  vars: Pick<EnvVarNames, 'tools' | 'pinnedTools' | 'toolsThreshold'>;
  /** Where the build's token figures are (`data/token-costs.json`), read only when the list is cut. */
  tokenCostsUrl?: string | undefined;
}

export function listingReport(inputs: ListingInputs): ListingReport {
  const { all, served, options } = inputs;
  const listed = inputs.listed.length - inputs.metaEntries;
  const listable = served.filter((tool) => isListable(tool, options.metaToolName));
  const outsidePolicy = all.length - served.length;
  const cut = options.mode === 'auto' && listable.length + 1 > options.threshold;
  const meta = inputs.metaEntries === 1 ? 'the meta-tool' : `${inputs.metaEntries} meta-tool entries`;
  const withheld = served.length - listable.length;
  const notes = [
    ...(outsidePolicy > 0 ? [`${outsidePolicy} outside the tool policy (${describePolicy(inputs.policy.policy)})`] : []),
    ...(withheld > 0 ? [`${withheld} withheld from the list by name`] : []),
    ...(listable.length - listed > 0 ? [`${listable.length - listed} reachable through the meta-tool only`] : []),
  ];
  const line = `tools/list shows ${listed} of ${all.length} tools plus ${meta}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`;
  let warning: string | null = null;
  if (cut) {
    const costs = inputs.tokenCostsUrl === undefined ? null : readTokenCostsSync(new URL(inputs.tokenCostsUrl));
    const listedSlugs = new Set(inputs.listed.map((tool) => tool.name));
    const figures =
      costs === null
        ? ''
        : ` It costs about ${
            costs.metaOnly +
            sumOf(
              costs,
              listable.filter((tool) => listedSlugs.has(tool.slug)),
            )
          } tokens ` +
          `(${costs.encoding}) instead of about ${listable.length === Object.keys(costs.perTool).length ? costs.total : costs.metaOnly + sumOf(costs, listable)} for every tool.`;
    warning =
      `${listable.length} tools are more than the ${options.threshold - 1} a host takes in one tool list besides the meta-tool (VS Code and OpenAI ` +
      `take at most 128 tools), so tools/list shows ${meta}${listed > 0 ? ` and ${listed} pinned tool(s)` : ''}; every tool stays reachable ` +
      `through it.${figures} Set ${inputs.vars.tools}=all to list every tool (in pages), or ${inputs.vars.pinnedTools} to list chosen tools beside it.`;
  }
  return { listed, metaEntries: inputs.metaEntries, total: all.length, outsidePolicy, cut, line, warning };
}

function sumOf(costs: TokenCosts, tools: readonly ServedTool[]): number {
  return tools.reduce((sum, tool) => sum + (costs.perTool[tool.slug] ?? 0), 0);
}
