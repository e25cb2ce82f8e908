// Tool lists that carry their own slug index: a call names its tool, and a linear scan over thousands of tools on
// every call is time the agent waits for. The lists a server keeps (the catalogue store's, the policy's view of it)
// are ToolLists made with toolList(), so the index is built once, with the list, and goes where the list goes.

import type { ServedTool } from '../shared/contracts.js';

/** A list of served tools with the index of its slugs and, made on first use, its advertised subset. */
export interface ToolList {
  /** The tools, in the order given; the same array for the life of the list (search indexes follow it). */
  readonly tools: readonly ServedTool[];
  /** The tool whose slug (or mapped tool name, see ServedTool.toolName) is exactly `slug`, or undefined. */
  bySlug(slug: string): ServedTool | undefined;
  /**
   * The advertised tools (slug inside the tool-name grammar), made once and indexed in turn: a call that is not an
   * exact advertised slug resolves among them.
   */
  advertised(): ToolList;
}

/**
 * `tools` (copied) as a ToolList. Slugs are unique in a checked catalogue; should two ever share one, the first wins,
 * as a scan would have it; a mapped tool name reaches its tool too.
 */
export function toolList(tools: readonly ServedTool[]): ToolList {
  const index = new Map<string, ServedTool>();
  for (const tool of tools) if (!index.has(tool.slug)) index.set(tool.slug, tool);
  for (const tool of tools) if (tool.toolName !== undefined && !index.has(tool.toolName)) index.set(tool.toolName, tool);
  const list: readonly ServedTool[] = [...tools];
  let advertised: ToolList | undefined;
  return {
    tools: list,
    bySlug: (slug) => index.get(slug),
    advertised: () => (advertised ??= toolList(list.filter((tool) => tool.withheldReason === null))),
  };
}
