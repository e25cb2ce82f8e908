// Slug resolution that never guesses: exact match or an unambiguous prefix, else an error naming close matches.
import { distance } from 'fastest-levenshtein';
import { toolFailure, type ServedTool, type ToolFailure } from '../shared/contracts.js';
import { searchTools, type ToolSearch } from '../search/index.js';
import type { ToolList } from './slug-index.js';
import { byCodeUnit } from '../shared/order.js';

export type SlugResolution = { ok: true; tool: ServedTool } | { ok: false; failure: ToolFailure };

export interface ResolveOptions {
  /** Accept only the exact slug (prompts: a named tool is a deliberate user choice). */
  exactOnly?: boolean;
  /** Name of the meta-tool, for the "use search" hint. */
  metaToolName?: string;
  /**
   * The variable that switches to the live catalogue (`<prefix>MCP_CATALOGUE`), set while the server serves the list
   * pinned at build time: a slug missing from that list may still be published, so "not found" must not say otherwise.
   */
  pinnedCatalogueVar?: string;
  /** The server's search over the same tools, for ranking a slug written as prose; without it an index is built. */
  search?: ToolSearch;
}

/** The options of a lookup made for an agent: the meta-tool's name, and the catalogue switch when the list is pinned. */
export function agentResolveOptions(ctx: {
  names: { metaToolName: string };
  pinnedCatalogueVar?: string;
  search?: ToolSearch;
}): ResolveOptions {
  const options: ResolveOptions = { metaToolName: ctx.names.metaToolName };
  if (ctx.pinnedCatalogueVar !== undefined) options.pinnedCatalogueVar = ctx.pinnedCatalogueVar;
  if (ctx.search !== undefined) options.search = ctx.search;
  return options;
}

const MAX_CLOSEST = 3;
const MAX_LISTED_CANDIDATES = 10;

/** Up to three slugs close to `wanted`, closest first: edit distance, with prefix and substring relations favoured. */
export function closestSlugs(tools: readonly ServedTool[], wanted: string, limit = MAX_CLOSEST): string[] {
  const query = wanted.toLowerCase().trim();
  if (query === '') return [];
  const scored: { slug: string; score: number }[] = [];
  for (const tool of tools) {
    const slug = tool.slug.toLowerCase();
    const editDistance = distance(query, slug);
    const related =
      slug.startsWith(query) ||
      query.startsWith(slug) ||
      (query.length >= 3 && slug.includes(query)) ||
      (slug.length >= 3 && query.includes(slug));
    const tolerance = Math.max(2, Math.ceil(Math.max(query.length, slug.length) * 0.34));
    if (!related && editDistance > tolerance) continue;
    // A related slug outranks an equally distant unrelated one; the fraction keeps edit distance the main key.
    const score = editDistance / Math.max(query.length, slug.length, 1) - (related ? 0.25 : 0);
    scored.push({ slug: tool.slug, score });
  }
  scored.sort((a, b) => a.score - b.score || byCodeUnit(a.slug, b.slug));
  return scored.slice(0, limit).map((entry) => entry.slug);
}

export function notFoundFailure(wanted: string, closest: readonly string[], options: ResolveOptions = {}): ToolFailure {
  const { metaToolName, pinnedCatalogueVar } = options;
  const searchHint = metaToolName
    ? `Use the ${metaToolName} tool with {"command":"search","query":"<what you want to do>"} to find tools.`
    : 'Use {"command":"search","query":"<what you want to do>"} to find tools.';
  const matches = closest.length ? ` Closest matches: ${closest.join(', ')}.` : '';
  const where =
    pinnedCatalogueVar === undefined
      ? 'is published'
      : `is in this server's catalogue (the tool list pinned when this package was built; a tool the API published since is ` +
        `served after setting ${pinnedCatalogueVar}=live)`;
  return toolFailure('TOOL_NOT_FOUND', `No tool named ${JSON.stringify(wanted)} ${where}.${matches} ${searchHint}`, {
    slug: wanted,
    closest: [...closest],
  });
}

export function resolveSlug(list: ToolList, wanted: string, options: ResolveOptions = {}): SlugResolution {
  const exact = list.bySlug(wanted);
  const { tools } = list;
  if (exact) return { ok: true, tool: exact };
  if (!options.exactOnly && wanted !== '') {
    const candidates = tools.filter((tool) => tool.slug.startsWith(wanted));
    if (candidates.length === 1 && candidates[0]) return { ok: true, tool: candidates[0] };
    if (candidates.length > 1) {
      const slugs = candidates.map((tool) => tool.slug).sort(byCodeUnit);
      const listed = slugs.slice(0, MAX_LISTED_CANDIDATES);
      const more = slugs.length > listed.length ? ` and ${slugs.length - listed.length} more` : '';
      return {
        ok: false,
        failure: toolFailure(
          'AMBIGUOUS_SLUG',
          `${JSON.stringify(wanted)} is a prefix of ${slugs.length} tools: ${listed.join(', ')}${more}. Give the full slug.`,
          { slug: wanted, candidates: slugs },
        ),
      };
    }
  }
  // A slug written as prose ("validate env") is far from every slug by edit distance; rank by intent instead.
  const nearBySpelling = closestSlugs(tools, wanted);
  const closest = nearBySpelling.length
    ? nearBySpelling
    : (options.search ? options.search.search(wanted, MAX_CLOSEST) : searchTools(tools, wanted, MAX_CLOSEST)).map((hit) => hit.slug);
  const failure = notFoundFailure(wanted, closest, options);
  if (options.exactOnly && closest.length) failure.error += ' Only an exact slug is accepted here.';
  return { ok: false, failure };
}
