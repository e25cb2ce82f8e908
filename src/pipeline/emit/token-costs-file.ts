// The package's `data/token-costs.json`: the build's token figures for tools/list, as the listing report reads them
// (src/runtime/listing/report.ts).

import { byCodeUnit } from '../../runtime/shared/order.js';
import { TOKEN_COSTS_FORMAT, type TokenCosts } from '../../runtime/listing/index.js';

/** Per-tool figures sorted by slug, so the same build writes the same bytes. */
export function tokenCostsFileText(costs: TokenCosts): string {
  const perTool = Object.fromEntries(Object.entries(costs.perTool).sort(([a], [b]) => byCodeUnit(a, b)));
  return `${JSON.stringify({ format: TOKEN_COSTS_FORMAT, encoding: costs.encoding, total: costs.total, metaOnly: costs.metaOnly, perTool })}\n`;
}
