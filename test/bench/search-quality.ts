// Search quality on real APIs: our ranking and a BM25 baseline (MiniSearch over the same fields) on the six catalogues
// of test/fixtures/search-eval/, each query set split into a tuning half and a held-out half, and pooled over the sets
// (each set weighing the same).
import { readFileSync } from 'node:fs';
import MiniSearch from 'minisearch';
import type { Manifest, ServedTool } from '../../src/runtime/shared/contracts.js';
import { packagedSearchIndex } from '../../src/pipeline/emit/search-index-file.js';
import { createToolSearch, type SearchIndexData } from '../../src/runtime/search/index.js';
import { SHIPPED_LEVERS, type RankingLevers } from '../../src/runtime/search/levers.js';

const FIXTURES = new URL('../fixtures/search-eval/', import.meta.url);
export const EVAL_APIS = ['stripe', 'jira', 'gitlab', 'gitea', 'zoom', 'kubernetes'] as const;
/** The label of the rows that pool every set, each set weighing the same whatever its number of queries. */
export const POOLED = 'pooled (sets weigh equally)';

export interface EvalQuery {
  query: string;
  expected: string;
  alternates: string[];
}

export interface EvalSet {
  api: string;
  tools: ServedTool[];
  queries: EvalQuery[];
}

export interface Scores {
  queries: number;
  top1: number;
  top3: number;
  top5: number;
  mrr10: number;
}

/** Which half a query is in: even positions tune the ranking, odd positions are held out and never tuned on. */
export type Half = 'tuning' | 'held-out';
export const halfOf = (position: number): Half => (position % 2 === 0 ? 'tuning' : 'held-out');

export function servedToolsOfBundle(manifests: Manifest[]): ServedTool[] {
  return manifests
    .map((manifest) => ({ slug: manifest.slug, manifest, identifier: manifest.slug, withheldReason: null }))
    .sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
}

export function loadEvalSet(api: string): EvalSet {
  const bundle = JSON.parse(readFileSync(new URL(`${api}.catalogue.json`, FIXTURES), 'utf8')) as { tools: Manifest[] };
  const queries = JSON.parse(readFileSync(new URL(`${api}.queries.json`, FIXTURES), 'utf8')) as EvalQuery[];
  return { api, tools: servedToolsOfBundle(bundle.tools), queries };
}

/** A ranker: the slugs it returns for a query, best first. */
export type Ranker = (query: string, limit: number) => string[];

/** Our search as a generated server runs it: from the index data the generator ships, WordNet synonyms included. */
export function oursFor(
  tools: readonly ServedTool[],
  data: SearchIndexData = packagedSearchIndex(tools),
  levers: RankingLevers = SHIPPED_LEVERS,
): Ranker {
  const search = createToolSearch(
    () => tools,
    () => data,
    levers,
  );
  return (query, limit) => search.search(query, limit).map((hit) => hit.slug);
}

/** BM25 as a plain full-text engine does it: MiniSearch over slug, name, description, tags and parameter names. */
export function bm25For(tools: readonly ServedTool[]): Ranker {
  const engine = new MiniSearch<{ id: number; slug: string; name: string; description: string; tags: string; params: string }>({
    fields: ['slug', 'name', 'description', 'tags', 'params'],
    storeFields: [],
    tokenize: (text) =>
      text
        .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
        .split(/[^\p{L}\p{N}]+/u)
        .filter(Boolean),
  });
  engine.addAll(
    tools.map((tool, id) => ({
      id,
      slug: tool.slug,
      name: tool.manifest.name,
      description: tool.manifest.description,
      tags: [tool.manifest.category, ...tool.manifest.tags].join(' '),
      params: Object.keys((tool.manifest.input_schema?.properties as object | undefined) ?? {}).join(' '),
    })),
  );
  return (query, limit) =>
    engine
      .search(query)
      .slice(0, limit)
      .map((result) => (tools[result.id as number] as ServedTool).slug);
}

export function score(
  ranker: Ranker,
  queries: readonly EvalQuery[],
): Scores & { misses: { query: string; want: string; got: string[] }[] } {
  let top1 = 0;
  let top3 = 0;
  let top5 = 0;
  let mrr = 0;
  const misses: { query: string; want: string; got: string[] }[] = [];
  for (const { query, expected, alternates } of queries) {
    const accepted = new Set([expected, ...alternates]);
    const got = ranker(query, 10);
    const rank = got.findIndex((slug) => accepted.has(slug));
    if (rank === 0) top1 += 1;
    else misses.push({ query, want: expected, got: got.slice(0, 5) });
    if (rank >= 0 && rank < 3) top3 += 1;
    if (rank >= 0 && rank < 5) top5 += 1;
    if (rank >= 0) mrr += 1 / (rank + 1);
  }
  const n = queries.length || 1;
  return { queries: queries.length, top1: top1 / n, top3: top3 / n, top5: top5 / n, mrr10: mrr / n, misses };
}

export interface QualityRow {
  api: string;
  half: Half | 'all';
  ranker: 'ours' | 'bm25';
  scores: Scores;
}

export function measureQuality(): { rows: QualityRow[]; misses: Record<string, { query: string; want: string; got: string[] }[]> } {
  const rows: QualityRow[] = [];
  const misses: Record<string, { query: string; want: string; got: string[] }[]> = {};
  for (const api of EVAL_APIS) {
    const set = loadEvalSet(api);
    const rankers = { ours: oursFor(set.tools), bm25: bm25For(set.tools) };
    for (const half of ['tuning', 'held-out', 'all'] as const) {
      const queries = set.queries.filter((_, position) => half === 'all' || halfOf(position) === half);
      for (const name of ['ours', 'bm25'] as const) {
        const { misses: missed, ...scores } = score(rankers[name], queries);
        rows.push({ api, half, ranker: name, scores });
        // Only the tuning halves' misses are ever shown: the held-out halves stay unseen.
        if (name === 'ours' && half === 'tuning') misses[`${api} ${half}`] = missed;
      }
    }
  }
  for (const half of ['tuning', 'held-out', 'all'] as const) {
    for (const ranker of ['ours', 'bm25'] as const)
      rows.push({
        api: POOLED,
        half,
        ranker,
        scores: pooledScores(rows.filter((row) => row.half === half && row.ranker === ranker).map((row) => row.scores)),
      });
  }
  return { rows, misses };
}

/** The mean of per-set scores, each set weighing the same; `queries` is their total. */
export function pooledScores(perSet: readonly Scores[]): Scores {
  const mean = (pick: (s: Scores) => number): number => perSet.reduce((sum, s) => sum + pick(s), 0) / (perSet.length || 1);
  return {
    queries: perSet.reduce((sum, s) => sum + s.queries, 0),
    top1: mean((s) => s.top1),
    top3: mean((s) => s.top3),
    top5: mean((s) => s.top5),
    mrr10: mean((s) => s.mrr10),
  };
}

const percent = (value: number): string => `${(value * 100).toFixed(1)}%`;

export function qualityTable(rows: readonly QualityRow[]): string {
  const lines = ['| API | queries | ranker | top-1 | top-3 | top-5 | MRR@10 |', '|---|---|---|---|---|---|---|'];
  for (const { api, half, ranker, scores } of rows) {
    lines.push(
      `| ${api} (${half}) | ${scores.queries} | ${ranker === 'ours' ? 'ours' : 'BM25 (MiniSearch)'} | ${percent(scores.top1)} | ${percent(scores.top3)} | ${percent(scores.top5)} | ${scores.mrr10.toFixed(2)} |`,
    );
  }
  return lines.join('\n');
}
