// Tool lists that carry their own slug index: a call names its tool, and a linear scan over thousands of tools on
// every call is time the agent waits for. The lists a server keeps (the catalogue store's, the policy's view of it)
// are made with toolList(), so the index is built once, with the list, and goes where the list goes.

import type { ServedTool } from '../shared/contracts.js';

const SLUG_INDEX = Symbol('slug index');
const ADVERTISED = Symbol('advertised subset');

/** A list of served tools with the index of its slugs and, made on first use, its advertised subset. */
export interface ToolList extends ReadonlyArray<ServedTool> {
  readonly [SLUG_INDEX]: ReadonlyMap<string, ServedTool>;
  readonly [ADVERTISED]: () => ToolList;
}

/**
 * `tools` (copied) as a ToolList. Slugs are unique in a checked catalogue; should two ever share one, the first wins,
 * as a scan would have it; a mapped tool name (see ServedTool.toolName) reaches its tool too.
 */
export function toolList(tools: readonly ServedTool[]): ToolList {
  const index = new Map<string, ServedTool>();
  for (const tool of tools) if (!index.has(tool.slug)) index.set(tool.slug, tool);
  for (const tool of tools) if (tool.toolName !== undefined && !index.has(tool.toolName)) index.set(tool.toolName, tool);
  let advertised: ToolList | undefined;
  const list = [...tools];
  // Not enumerable: the list still compares, copies and serializes as the plain array of its tools.
  Object.defineProperty(list, SLUG_INDEX, { value: index });
  Object.defineProperty(list, ADVERTISED, { value: () => (advertised ??= toolList(list.filter((tool) => tool.withheldReason === null))) });
  return list as unknown as ToolList;
}

function isToolList(tools: readonly ServedTool[]): tools is ToolList {
  return SLUG_INDEX in tools;
}

/** The tool whose slug (or mapped tool name) is exactly `slug`, or undefined: one lookup in a ToolList, else a scan. */
export function toolBySlug(tools: readonly ServedTool[], slug: string): ServedTool | undefined {
  if (isToolList(tools)) return tools[SLUG_INDEX].get(slug);
  return tools.find((tool) => tool.slug === slug) ?? tools.find((tool) => tool.toolName === slug);
}

/**
 * The advertised tools of `tools` (slug inside the tool-name grammar): a call that is not an exact advertised slug
 * resolves among them. Of a ToolList, made once and indexed in turn; of a plain array, filtered anew.
 */
export function advertisedSubset(tools: readonly ServedTool[]): readonly ServedTool[] {
  return isToolList(tools) ? tools[ADVERTISED]() : tools.filter((tool) => tool.withheldReason === null);
}
