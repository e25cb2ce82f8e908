// Search quality on the held-out real APIs (GitLab, Gitea, Zoom, Kubernetes; test/fixtures/search-eval/): whole query sets that
// no ranking change is tuned on, scored for our search and the BM25 baseline in the same process. Their misses are
// not printed, so that nobody tunes on them.
import { bm25For, loadEvalSet, oursFor, score, type QualityRow, type Scores } from './search-quality.js';

export const HELD_OUT_APIS = ['gitlab', 'gitea', 'zoom', 'kubernetes'] as const;

/** The label of the row that pools every held-out query (each query counts once, whatever its set). */
export const POOLED = HELD_OUT_APIS.join(' + ');

function pooled(rows: readonly QualityRow[], ranker: QualityRow['ranker']): Scores {
  const mine = rows.filter((row) => row.ranker === ranker);
  const queries = mine.reduce((sum, row) => sum + row.scores.queries, 0);
  const mean = (pick: (s: Scores) => number): number =>
    mine.reduce((sum, row) => sum + pick(row.scores) * row.scores.queries, 0) / (queries || 1);
  return { queries, top1: mean((s) => s.top1), top3: mean((s) => s.top3), top5: mean((s) => s.top5), mrr10: mean((s) => s.mrr10) };
}

/** One row per held-out API and ranker, then the pooled rows. */
export function measureHeldOut(): QualityRow[] {
  const rows: QualityRow[] = [];
  for (const api of HELD_OUT_APIS) {
    const set = loadEvalSet(api);
    const rankers = { ours: oursFor(set.tools), bm25: bm25For(set.tools) };
    for (const name of ['ours', 'bm25'] as const) {
      const { queries, top1, top3, top5, mrr10 } = score(rankers[name], set.queries);
      rows.push({ api: `${api}, ${set.tools.length} tools`, half: 'held-out', ranker: name, scores: { queries, top1, top3, top5, mrr10 } });
    }
  }
  return [
    ...rows,
    ...(['ours', 'bm25'] as const).map((ranker) => ({ api: POOLED, half: 'held-out' as const, ranker, scores: pooled(rows, ranker) })),
  ];
}
