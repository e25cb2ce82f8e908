// The quality floor of search on six real APIs (test/fixtures/search-eval/), against BM25 in the same process: a
// regression guard over whole sets. `npm run bench:search` prints the full table, split into tuning and held-out halves.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bm25For, EVAL_APIS, loadEvalSet, oursFor, score } from '../bench/search-quality.js';

/** Floors a query or so under what the ranking reaches now, so that a change that loses ground fails. */
const FLOOR: Readonly<Record<string, { top1: number; top5: number }>> = {
  stripe: { top1: 0.61, top5: 0.84 },
  jira: { top1: 0.6, top5: 0.83 },
  gitlab: { top1: 0.53, top5: 0.68 },
  gitea: { top1: 0.58, top5: 0.79 },
  zoom: { top1: 0.5, top5: 0.73 },
  kubernetes: { top1: 0.37, top5: 0.6 },
};
/** The sets on which ours is also ahead of BM25 at top-5: all of them. */
const AHEAD_AT_TOP5 = new Set<string>(EVAL_APIS);

describe('search quality on real APIs', () => {
  for (const api of EVAL_APIS) {
    it(`${api}: at least the floor, and ahead of BM25 at top-1`, () => {
      const set = loadEvalSet(api);
      assert.ok(set.tools.length >= 300 && set.queries.length >= 50, `${set.tools.length} tools, ${set.queries.length} queries`);
      const ours = score(oursFor(set.tools), set.queries);
      const bm25 = score(bm25For(set.tools), set.queries);
      const floor = FLOOR[api] ?? assert.fail(`no floor for ${api}`);
      const summary = `ours ${JSON.stringify({ top1: ours.top1, top5: ours.top5 })}, BM25 ${JSON.stringify({ top1: bm25.top1, top5: bm25.top5 })}`;
      assert.ok(ours.top1 >= floor.top1 && ours.top5 >= floor.top5, summary);
      assert.ok(ours.top1 > bm25.top1, summary);
      if (AHEAD_AT_TOP5.has(api)) assert.ok(ours.top5 > bm25.top5, summary);
    });
  }
});
