// Records the current search results for the pinned cases into `search-ranking.fixture.json`. Run it only when a ranking
// change is intended: `npx tsx test/runtime/search-ranking-record.ts`.
import { writeFileSync } from 'node:fs';
import { packagedSearchIndex } from '../../src/pipeline/emit/search-index-file.js';
import { createToolSearch } from '../../src/runtime/search/index.js';
import {
  RANKING_CATALOGUES,
  RANKING_FIXTURE_URL,
  RANKING_LIMIT,
  RANKING_QUERIES,
  recordedHits,
  type RankingFixture,
} from './search-ranking-cases.js';

const fixture: RankingFixture = {};
for (const catalogue of RANKING_CATALOGUES) {
  const tools = catalogue.tools();
  const data = packagedSearchIndex(tools);
  const search = createToolSearch(
    () => tools,
    () => data,
  );
  const cases: RankingFixture[string] = {};
  for (const query of RANKING_QUERIES) cases[query] = recordedHits(search.search(query, RANKING_LIMIT));
  fixture[catalogue.name] = cases;
}

// One case per line keeps the file readable and its diffs small.
const lines = Object.entries(fixture).map(([name, cases]) => {
  const rows = Object.entries(cases).map(([key, hits]) => `    ${JSON.stringify(key)}: ${JSON.stringify(hits)}`);
  return `  ${JSON.stringify(name)}: {\n${rows.join(',\n')}\n  }`;
});
writeFileSync(RANKING_FIXTURE_URL, `{\n${lines.join(',\n')}\n}\n`);
process.stderr.write(`wrote ${RANKING_FIXTURE_URL.pathname}\n`);
