// The package's `data/catalogue-index.json`: what a server needs of each tool before any manifest, as the runtime
// reads it (src/runtime/catalogue/catalogue-index.ts).

import { CATALOGUE_INDEX_FORMAT, traitsOf } from '../../runtime/catalogue/catalogue-index.js';
import type { ServedTool } from '../../runtime/shared/contracts.js';
import { joinedText } from './package-text.js';

/** The index of `tools`, one tool a line, in their order (the served catalogue's). */
export function catalogueIndexFileText(tools: readonly ServedTool[]): string {
  const lines = tools.map((tool) =>
    JSON.stringify({
      slug: tool.slug,
      identifier: tool.identifier,
      withheldReason: tool.withheldReason,
      ...(tool.toolName === undefined ? {} : { toolName: tool.toolName }),
      traits: traitsOf(tool),
    }),
  );
  return joinedText(`{"format":${JSON.stringify(CATALOGUE_INDEX_FORMAT)},"tools":[\n`, lines, ',\n', '\n]}\n');
}
