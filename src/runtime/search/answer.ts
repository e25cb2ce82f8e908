// What the meta-tool's search answers: each hit with its purpose, why it matched, its required parameters and whether
// it only reads or destroys; near ties flagged; and, when nothing matches well, a plain "no good match" with next steps.
import type { ServedTool } from '../shared/contracts.js';
import type { SearchHit } from './ranking.js';

/** Below this share of the query's words matched by the best hit, the answer says there is no good match. */
export const GOOD_MATCH_COVERAGE = 0.5;
const CATEGORIES_SUGGESTED = 8;

export interface SearchAnswer {
  text: string;
  data: Record<string, unknown>;
}

export interface SearchAnswerContext {
  metaToolName: string;
  tools: readonly ServedTool[];
  uriOf(slug: string): string;
}

/** The categories with the most tools, most first (then by name): where to browse when search found nothing good. */
export function largestCategories(tools: readonly ServedTool[], limit = CATEGORIES_SUGGESTED): string[] {
  const counts = new Map<string, number>();
  for (const tool of tools) {
    const category = String(tool.manifest.category ?? '').trim();
    if (category !== '') counts.set(category, (counts.get(category) ?? 0) + 1);
  }
  return [...counts]
    .sort(([a, m], [b, n]) => n - m || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, limit)
    .map(([category]) => category);
}

const effectOf = (hit: SearchHit): 'read-only' | 'destructive' | 'writes' | 'unknown' =>
  hit.readOnly === true ? 'read-only' : hit.destructive === true ? 'destructive' : hit.readOnly === false ? 'writes' : 'unknown';

export function searchAnswer(query: string, hits: readonly SearchHit[], ctx: SearchAnswerContext): SearchAnswer {
  const good = hits.length > 0 && (hits[0] as SearchHit).coverage >= GOOD_MATCH_COVERAGE;
  const categories = good ? [] : largestCategories(ctx.tools);
  const results = hits.map((hit, position) => ({
    rank: position + 1,
    slug: hit.slug,
    name: hit.name,
    purpose: hit.purpose,
    score: hit.score,
    reason: hit.reason,
    matched: hit.matched,
    parameters: { required: hit.requiredParams, total: hit.totalParams },
    required_parameters: hit.required,
    effect: effectOf(hit),
    ...(hit.nearTie ? { near_tie: true } : {}),
    ...(hit.deprecated ? { deprecated: true } : {}),
    withheld: hit.withheld,
    uri: ctx.uriOf(hit.slug),
  }));
  const meta = ctx.metaToolName;
  const listCall = `{"command":"list"}`;
  const lines: string[] = [];
  if (!hits.length) {
    lines.push(`No tool matches ${JSON.stringify(query)}. Try other words, or ${listCall} on ${meta} for every tool.`);
  } else {
    lines.push(
      good
        ? `${hits.length} tools match ${JSON.stringify(query)}, best first:`
        : `No good match for ${JSON.stringify(query)}: the closest tools below match only some of its words.`,
    );
    for (const hit of results) {
      const required = hit.required_parameters.length ? `required: ${hit.required_parameters.join(', ')}` : 'no required parameters';
      const flags = [
        hit.effect,
        ...(hit.near_tie ? ['near tie: compare with its neighbour'] : []),
        ...(hit.deprecated ? ['deprecated'] : []),
        ...(hit.withheld ? ['not in tool list: call with {"command":"run"}'] : []),
      ];
      lines.push(
        `${hit.rank}. ${hit.slug}: ${hit.purpose} [${required}; ${hit.parameters.required}/${hit.parameters.total} params] [${flags.join('; ')}] (${hit.reason})`,
      );
    }
    if (results.slice(0, 2).every((hit) => hit.near_tie === true) && results.length > 1) {
      lines.push(`The first two score within a few percent of each other: read both schemas before choosing.`);
    }
    lines.push(
      `Next: {"command":"schema","slug":${JSON.stringify(hits[0]?.slug)}} on ${meta} gives exact parameters and a ready-to-send call.`,
    );
  }
  if (!good) {
    lines.push(
      categories.length
        ? `Browse instead: ${listCall} lists every tool; categories with the most tools: ${categories.join(', ')}.`
        : `Browse instead: ${listCall} lists every tool.`,
    );
  }
  return {
    text: lines.join('\n'),
    data: {
      query,
      count: results.length,
      good_match: good,
      results,
      ...(good ? {} : { suggestions: { list: { command: 'list' }, categories } }),
    },
  };
}
