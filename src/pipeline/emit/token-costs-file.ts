// The package's `data/token-costs.json`: the build's token figures for tools/list, as the listing report reads them
// (src/runtime/listing/report.ts).

import { byCodeUnit } from '../../runtime/shared/order.js';
import { TOKEN_COSTS_FORMAT, type TokenCosts } from '../../runtime/listing/report.js';

/** The file's text: the totals on the first line, then one tool a line (sorted by code unit) so diffs stay per tool. */
export function tokenCostsFileText(costs: TokenCosts): string {
  const perTool = Object.entries(costs.perTool).sort(([a], [b]) => byCodeUnit(a, b));
  const header = JSON.stringify({
    format: TOKEN_COSTS_FORMAT,
    encoding: costs.encoding,
    total: costs.total,
    metaOnly: costs.metaOnly,
  }).slice(0, -1);
  const lines = perTool.map(([slug, tokens]) => `${JSON.stringify(slug)}:${tokens}`);
  return `${header},"perTool":{${lines.length ? `\n${lines.join(',\n')}\n` : ''}}}\n`;
}
