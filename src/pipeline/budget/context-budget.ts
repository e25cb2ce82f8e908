// The context budget: what the advertised tools/list costs an agent in tokens, per tool, in total, and meta-tool only.

import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { advertisedListLineInputs } from '../emit/advertised-list.js';
import {
  createToolAdvertiser,
  DEFAULT_TOOLS_THRESHOLD,
  listedCatalogueTools,
  type ToolAdvertiser,
} from '../../runtime/catalogue/advertise.js';
import type { ServedTool, ServerNames } from '../../runtime/shared/contracts.js';
import { DEFAULT_HOST_PROFILE } from '../../runtime/schema/host-profiles.js';
import { metaToolDefinition } from '../../runtime/surface/meta-tool-definition.js';
import type { SurfaceContext } from '../../runtime/surface/surface.js';
import { toolList } from '../../runtime/catalogue/slug-index.js';
import { contentKey, type BuildCache } from '../cache/build-cache.js';
import { BUDGET_ENCODING, loadBatchCounter, type BatchCounter } from './token-count.js';

export interface ContextBudget {
  encoding: typeof BUDGET_ENCODING;
  /** Tokens of the whole tools/list answer (`{"tools":[…]}`) with every advertisable tool and the meta-tool. */
  total: number;
  /** Tokens of the tools/list answer that lists only the meta-tool (`<P>MCP_TOOLS=meta`, or `auto` past the threshold). */
  metaOnly: number;
  /** Each listed catalogue tool's own JSON, most expensive first, then by slug (code unit order). */
  perTool: Array<{ slug: string; tokens: number }>;
}

export const BUDGET_CACHE_KIND = 'budget';

/**
 * What one entry of tools/list costs: `tokens` for its JSON on its own, and `share` for its part of the whole
 * answer's text, that is its JSON after the opening `{"` followed by what comes next in the list (`,{"` before
 * another entry, `]}` at the end).
 *
 * The tokenizer splits text into chunks before it encodes them, and a run of two or more punctuation characters
 * followed by a letter always ends a chunk right before that letter. Every entry starts with `{"` and a letter
 * (`{"name":…`) and follows `[` or `,`, so the whole answer's chunks are exactly the head's (`{"tools":[{"`) and each
 * share's, and its count is their sum. That lets every entry's count be cached by content: a rebuild counts only the
 * tools that changed, and loads no tokenizer when none did. An entry of any other shape falls back to whole counts.
 * The same rule splits an entry once more near its end (see lastChunkStart), so that the text `tokens` and `share`
 * have in common is counted once.
 */
interface EntryCost {
  tokens: number;
  share: number;
}

const HEAD = '{"tools":[{"';
const OPEN = '{"';
const SPLITTABLE = /^\{"[A-Za-z]/;

const isAsciiLetter = (code: number): boolean => (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
/** ASCII characters that are neither letters, digits nor white space. */
const isAsciiPunctuation = (code: number): boolean =>
  (code >= 33 && code <= 47) || (code >= 58 && code <= 64) || (code >= 91 && code <= 96) || (code >= 123 && code <= 126);

/**
 * The index of the last ASCII letter that follows two ASCII punctuation characters in `text`, or -1. A chunk always
 * starts there, so `text` counts as the sum of the parts before and from it, whatever comes after `text`.
 */
export function lastChunkStart(text: string): number {
  for (let index = text.length - 1; index >= 2; index -= 1) {
    if (
      isAsciiLetter(text.charCodeAt(index)) &&
      isAsciiPunctuation(text.charCodeAt(index - 1)) &&
      isAsciiPunctuation(text.charCodeAt(index - 2))
    )
      return index;
  }
  return -1;
}

/**
 * The texts whose counts make up an entry's cost: its JSON is `{"` + body, and the body's last chunk start splits off
 * a short tail. See entryCost for how the counts add up.
 */
function entryTexts(json: string, next: string): string[] {
  const body = json.slice(OPEN.length);
  const at = lastChunkStart(body);
  if (at <= 0) return [json, `${body}${next}`];
  const tail = body.slice(at);
  return [body.slice(0, at), tail, `${tail}${next}`];
}

/** An entry's cost from the counts of its entryTexts; `open` is the count of `{"`. */
function entryCost(counts: readonly number[], open: number): EntryCost {
  if (counts.length === 2) return { tokens: counts[0]!, share: counts[1]! };
  const [bulk, tail, tailAndNext] = counts as [number, number, number];
  return { tokens: open + bulk + tail, share: bulk + tailAndNext };
}

/** Counts groups of texts in one batch, and gives each group its own counts. */
async function countEach(count: BatchCounter, groups: ReadonlyArray<readonly string[]>): Promise<number[][]> {
  const counts = await count(groups.flat());
  let at = 0;
  return groups.map((group) => counts.slice(at, (at += group.length)));
}

export interface BudgetOptions {
  /** Per-entry counts from earlier builds, by content. */
  cache?: BuildCache;
  /** Called only when some count is not cached: the tokenizer in this thread by default (see counting-thread.ts). */
  counter?: () => Promise<BatchCounter>;
  /**
   * The JSON of a listed tool's tools/list entry, for a caller that has it already (what the build emitted); where
   * it gives none, the runtime's advertiser makes it.
   */
  entryJsonOf?: (tool: ServedTool) => string | undefined;
}

/**
 * The budget of the tools/list a server built from `tools` answers with by default (`spec` profile, every tool
 * listed), computed with the runtime's own advertiser so it is exactly what the server sends.
 */
export async function contextBudget(tools: readonly ServedTool[], names: ServerNames, options: BudgetOptions = {}): Promise<ContextBudget> {
  const { cache } = options;
  const { advertiser, metaTool } = defaultAdvertiser(names, tools);
  const listedTools = listedCatalogueTools(tools, LISTING(names));
  // An entry is its tool's advertised form: the same inputs as that form's, whose schema hashes are memoised already.
  const keys = listedTools.map((tool) => contentKey(BUDGET_ENCODING, ...advertisedListLineInputs(tool)));
  const entryJsonOf = (tool: ServedTool): string => options.entryJsonOf?.(tool) ?? JSON.stringify(advertiser.list([tool], metaTool)[0]);
  const metaJson = JSON.stringify(advertiser.list([], metaTool)[0]);
  const metaKey = contentKey(BUDGET_ENCODING, DEFAULT_HOST_PROFILE, 'meta-tool', metaJson);
  const costs = keys.map((key) => cache?.get<EntryCost>(BUDGET_CACHE_KIND, key));
  let metaCost = cache?.get<EntryCost>(BUDGET_CACHE_KIND, metaKey);
  const headKey = contentKey(BUDGET_ENCODING, 'head', HEAD);
  let head = cache?.get<number>(BUDGET_CACHE_KIND, headKey);
  if (head === undefined || metaCost === undefined || costs.includes(undefined)) {
    const count = await (options.counter ?? loadBatchCounter)();
    const missing = costs.flatMap((cost, index) => (cost === undefined ? [index] : []));
    const jsons = missing.map((index) => entryJsonOf(listedTools[index]!));
    if ((metaCost === undefined && !SPLITTABLE.test(metaJson)) || jsons.some((json) => !SPLITTABLE.test(json)))
      return countWhole(tools, names, count);
    const groups = await countEach(count, [
      [HEAD, OPEN],
      metaCost === undefined ? entryTexts(metaJson, ']}') : [],
      ...jsons.map((json) => entryTexts(json, ',{"')),
    ]);
    const [headCount, open] = groups[0] as [number, number];
    if (head === undefined) {
      head = headCount;
      cache?.set(BUDGET_CACHE_KIND, headKey, head);
    }
    if (metaCost === undefined) {
      metaCost = entryCost(groups[1]!, open);
      cache?.set(BUDGET_CACHE_KIND, metaKey, metaCost);
    }
    missing.forEach((index, i) => {
      costs[index] = entryCost(groups[i + 2]!, open);
      cache?.set(BUDGET_CACHE_KIND, keys[index]!, costs[index]);
    });
  }
  const known = costs as EntryCost[];
  return {
    encoding: BUDGET_ENCODING,
    total: head + known.reduce((sum, cost) => sum + cost.share, 0) + metaCost.share,
    metaOnly: head + metaCost.share,
    perTool: listedTools.map((tool, index) => ({ slug: tool.slug, tokens: known[index]!.tokens })).sort(byCostThenSlug),
  };
}

/** The plain way, one count over each whole text: for entries the piecewise sum cannot split (see EntryCost). */
async function countWhole(tools: readonly ServedTool[], names: ServerNames, count: BatchCounter): Promise<ContextBudget> {
  const { listed, metaOnly } = advertisedSurface(tools, names);
  const catalogueTools = listed.slice(0, -1);
  const [total, meta, ...each] = await count([
    JSON.stringify({ tools: listed }),
    JSON.stringify({ tools: metaOnly }),
    ...catalogueTools.map((tool) => JSON.stringify(tool)),
  ]);
  return {
    encoding: BUDGET_ENCODING,
    total: total!,
    metaOnly: meta!,
    perTool: catalogueTools.map((tool, index) => ({ slug: tool.name, tokens: each[index]! })).sort(byCostThenSlug),
  };
}

const byCostThenSlug = (a: { slug: string; tokens: number }, b: { slug: string; tokens: number }): number =>
  b.tokens - a.tokens || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);

const LISTING = (names: ServerNames) => ({
  mode: 'all' as const,
  threshold: Number.POSITIVE_INFINITY,
  pinned: [],
  metaToolName: names.metaToolName,
});

function defaultAdvertiser(names: ServerNames, tools: readonly ServedTool[]): { advertiser: ToolAdvertiser; metaTool: Tool } {
  // metaToolDefinition reads only the names and the tools (its annotations) from its context; the rest of a surface
  // (runner, history) is not needed here.
  const metaTool: Tool = metaToolDefinition({ names, getTools: () => toolList(tools) } as SurfaceContext);
  return { advertiser: createToolAdvertiser({ profile: DEFAULT_HOST_PROFILE, ...LISTING(names) }), metaTool };
}

/** The tools/list answers of a server over `tools` in the default profile: everything listed, and the meta-tool alone. */
export function advertisedSurface(tools: readonly ServedTool[], names: ServerNames): { listed: Tool[]; metaOnly: Tool[] } {
  const { advertiser, metaTool } = defaultAdvertiser(names, tools);
  return { listed: advertiser.list(tools, metaTool), metaOnly: advertiser.list([], metaTool) };
}

/** The failure message when the listed surface is over `maxTokens`, or null when it fits. */
export function overBudgetMessage(budget: ContextBudget, maxTokens: number, envPrefix: string): string | null {
  if (budget.total <= maxTokens) return null;
  const largest = budget.perTool
    .slice(0, 5)
    .map((tool) => `${tool.slug} (${tool.tokens})`)
    .join(', ');
  return (
    `tools/list costs ${budget.total} tokens (${budget.encoding}), over --max-tokens ${maxTokens}. ` +
    `Largest tools: ${largest || 'none'}. The meta-tool alone costs ${budget.metaOnly}; ` +
    `the server lists only it past ${envPrefix}MCP_TOOLS_THRESHOLD tools when ${envPrefix}MCP_TOOLS=auto (the default).`
  );
}

/** Human lines for the build output: the total, the meta-only cost and the five most expensive tools. */
export function budgetLines(budget: ContextBudget): string[] {
  const lines = [`Context budget (${budget.encoding}): tools/list ${budget.total} tokens; meta-tool only ${budget.metaOnly}.`];
  for (const tool of budget.perTool.slice(0, 5)) lines.push(`  ${String(tool.tokens).padStart(6)}  ${tool.slug}`);
  return lines;
}

/** Human lines for what the built server lists by default: every tool up to the hosts' limit, else the meta-tool alone. */
export function listingLines(
  listing: { shows: 'all' | 'meta'; listed: number; outsidePolicy: number; policy: string; tokens: number },
  total: number,
  envPrefix: string,
): string[] {
  const policy =
    listing.outsidePolicy > 0
      ? ` Tool policy: ${listing.policy} (${listing.outsidePolicy} of ${total} tools outside it, served nowhere).`
      : '';
  if (listing.shows === 'all')
    return [`Listed by default: ${listing.listed} of ${total} tools plus the meta-tool (${listing.tokens} tokens).${policy}`];
  return [
    `Listed by default: the meta-tool only (${listing.tokens} tokens): more tools than the ${DEFAULT_TOOLS_THRESHOLD} a host takes in one list ` +
      `(VS Code, OpenAI); every tool stays reachable through it. ${envPrefix}MCP_TOOLS=all lists them all, in pages; ${envPrefix}MCP_PINNED_TOOLS lists chosen ones beside it.${policy}`,
  ];
}
