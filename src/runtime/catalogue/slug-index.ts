// Tools by exact slug, indexed once per tool array: a call names its tool, and a linear scan over thousands of tools
// on every call is time the agent waits for.

import type { ServedTool } from '../shared/contracts.js';

const indexes = new WeakMap<readonly ServedTool[], ReadonlyMap<string, ServedTool>>();

/**
 * The tool whose slug is exactly `slug`, or undefined. Meant for the arrays a server keeps (the catalogue store's,
 * replaced as a whole on refresh): the index lives as long as its array, and a new array gets a new index.
 */
export function toolBySlug(tools: readonly ServedTool[], slug: string): ServedTool | undefined {
  let index = indexes.get(tools);
  if (index === undefined) {
    // Slugs are unique in a checked catalogue; should two ever share one, the first wins, as a scan would have it.
    const map = new Map<string, ServedTool>();
    for (const tool of tools) if (!map.has(tool.slug)) map.set(tool.slug, tool);
    // A mapped tool name (see ServedTool.toolName) reaches its tool too; the plan keeps it apart from every slug.
    for (const tool of tools) if (tool.toolName !== undefined && !map.has(tool.toolName)) map.set(tool.toolName, tool);
    indexes.set(tools, (index = map));
  }
  return index.get(slug);
}

const advertisedSubsets = new WeakMap<readonly ServedTool[], readonly ServedTool[]>();

/**
 * The advertised tools of `tools` (slug inside the tool-name grammar), one array per `tools` array: a call that is
 * not an exact advertised slug resolves among them, and their own slug index is then built once, not on every call.
 */
export function advertisedSubset(tools: readonly ServedTool[]): readonly ServedTool[] {
  let subset = advertisedSubsets.get(tools);
  if (subset === undefined) advertisedSubsets.set(tools, (subset = tools.filter((tool) => tool.withheldReason === null)));
  return subset;
}
