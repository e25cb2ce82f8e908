// `npm run bench:search`: search quality on the real-API evaluation sets and latency at 3,000 tools, without the
// generation and server measures of `npm run bench`. `--misses` prints the queries whose expected tool is not first
// (of the tuning and held-out halves of Stripe and Jira; never of the held-out APIs).
import { syntheticCatalogue } from './catalogue.js';
import { measureSearch } from './search-latency.js';
import { measureHeldOut } from './search-held-out.js';
import { measureQuality, qualityTable } from './search-quality.js';

const { rows, misses } = measureQuality();
process.stdout.write(`${qualityTable(rows)}\n`);
process.stdout.write(`\nHeld-out APIs, never tuned on (misses not printed):\n\n${qualityTable(measureHeldOut())}\n`);
const latency = measureSearch(syntheticCatalogue(3000), 200);
const ms = (value: number): string => `${value.toFixed(2)} ms`;
process.stdout.write(
  `\nlatency at ${latency.tools} tools, ${latency.queries} warm queries: median ${ms(latency.medianMs)}, max ${ms(latency.maxMs)}; ` +
    `index built in memory ${ms(latency.firstQueryMs)}, prebuilt file ${latency.indexFileBytes} bytes loaded in ${ms(latency.indexLoadMs)}, ` +
    `first query on it ${ms(latency.firstQueryPrebuiltMs)}\n`,
);
if (process.argv.includes('--misses')) process.stdout.write(`${JSON.stringify(misses, null, 1)}\n`);
