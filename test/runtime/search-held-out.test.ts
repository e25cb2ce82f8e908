// The search evaluation sets (test/fixtures/search-eval/): well-formed; and on the four added last (GitLab, Gitea, Zoom,
// Kubernetes) a loose floor over the whole set (ours at least BM25 at top-1). `npm run bench:search` prints the figures.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HELD_OUT_APIS } from '../bench/search-held-out.js';
import { bm25For, EVAL_APIS, loadEvalSet, oursFor, score } from '../bench/search-quality.js';

describe('search evaluation sets', () => {
  for (const api of EVAL_APIS) {
    it(`${api}: 300 to 1,500 tools, every expected and alternate tool in the catalogue, no query twice`, () => {
      const set = loadEvalSet(api);
      const slugs = new Set(set.tools.map((tool) => tool.slug));
      assert.ok(set.tools.length >= 300 && set.tools.length <= 1500, `${set.tools.length} tools`);
      assert.equal(slugs.size, set.tools.length, 'slugs are unique');
      const unknown = set.queries.flatMap(({ query, expected, alternates }) =>
        [expected, ...alternates].filter((slug) => !slugs.has(slug)).map((slug) => `${query} → ${slug}`),
      );
      assert.deepEqual(unknown, []);
      const selfAlternate = set.queries.filter(
        ({ expected, alternates }) => alternates.includes(expected) || new Set(alternates).size !== alternates.length,
      );
      assert.deepEqual(selfAlternate, []);
      const phrasings = set.queries.map(({ query }) => query.toLowerCase());
      const twice = phrasings.filter((query, position) => phrasings.indexOf(query) !== position);
      assert.deepEqual(twice, []);
    });
  }

  for (const api of HELD_OUT_APIS) {
    it(`${api} (held out): 60+ queries, and ours at least BM25 at top-1`, () => {
      const set = loadEvalSet(api);
      assert.ok(set.queries.length >= 60, `${set.queries.length} queries`);
      const ours = score(oursFor(set.tools), set.queries);
      const bm25 = score(bm25For(set.tools), set.queries);
      assert.ok(ours.top1 >= bm25.top1, `top-1: ours ${ours.top1.toFixed(3)}, BM25 ${bm25.top1.toFixed(3)}`);
    });
  }
});
