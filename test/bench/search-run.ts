// `npm run bench:search`: search quality on the real-API evaluation sets and latency at 3,000 tools, without the
// generation and server measures of `npm run bench`. `--misses` prints the queries of the tuning halves whose expected
// tool is not first (never of the held-out halves); `--ablate` measures each ranking lever off against the shipped
// ranking on the pooled tuning halves; `--tune` runs the deterministic lever search (search-tune.ts) on them.
import { syntheticCatalogue } from './catalogue.js';
import { measureSearch } from './search-latency.js';
import { ablationTable } from './search-ablation.js';
import { measureQuality, qualityTable } from './search-quality.js';
import { tuneLevers, tuneReport } from './search-tune.js';

if (process.argv.includes('--ablate')) {
  process.stdout.write(`${ablationTable()}\n`);
} else if (process.argv.includes('--tune')) {
  process.stdout.write(`${tuneReport(tuneLevers(undefined, (line) => process.stderr.write(`${line}\n`)))}\n`);
} else {
  const { rows, misses } = measureQuality();
  process.stdout.write(`${qualityTable(rows)}\n`);
  const latency = measureSearch(syntheticCatalogue(3000), 200);
  const ms = (value: number): string => `${value.toFixed(2)} ms`;
  process.stdout.write(
    `\nlatency at ${latency.tools} tools, ${latency.queries} warm queries: median ${ms(latency.medianMs)}, max ${ms(latency.maxMs)}; ` +
      `index built in memory ${ms(latency.firstQueryMs)}, prebuilt file ${latency.indexFileBytes} bytes loaded in ${ms(latency.indexLoadMs)}, ` +
      `first query on it ${ms(latency.firstQueryPrebuiltMs)}\n`,
  );
  if (process.argv.includes('--misses')) process.stdout.write(`${JSON.stringify(misses, null, 1)}\n`);
}
