// Tools by exact slug, indexed once per tool array: a call names its tool, and a linear scan over thousands of tools
// on every call is time the agent waits for.

import type { ServedTool } from './contracts.js';

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
    indexes.set(tools, (index = map));
  }
  return index.get(slug);
}
