// `npm run bench:search`: search quality on the real-API evaluation sets and latency at 3,000 tools, without the
// generation and server measures of `npm run bench`. `--misses` prints the queries whose expected tool is not first.
import { measureQuality, qualityTable } from './search-quality.js';

const { rows, misses } = measureQuality();
process.stdout.write(`${qualityTable(rows)}\n`);
if (process.argv.includes('--misses')) process.stdout.write(`${JSON.stringify(misses, null, 1)}\n`);
