// `data/tools-list.json`: each advertisable tool's default-profile form as JSON text, cached by content; the token
// budget counts the same text instead of building every form a second time. The server reads it (catalogue/advertise.ts).

import { ADVERTISED_LIST_FORMAT, advertisedDescription, advertisedForm, isAdvertised } from '../../runtime/catalogue/advertise.js';
import { DEFAULT_HOST_PROFILE } from '../../runtime/schema/host-profiles.js';
import type { ServedTool } from '../../runtime/shared/contracts.js';
import { contentKey } from '../cache/build-cache.js';
import type { ToolJob } from '../parallel/work.js';
import { lazyJoinedText, wholeText, type PackageText } from './package-text.js';

/**
 * `data/tools-list.json`: the default-profile form of every advertisable tool, prepared by the generator so that a
 * server listing every tool does no schema work at start-up. One tool a line, in the catalogue's order; each line made
 * as the file is written (package-text.ts).
 */
export function advertisedListFile(tools: readonly ServedTool[], lineOf: (tool: ServedTool) => string = advertisedListLine): PackageText {
  return lazyJoinedText(
    `{"format":${JSON.stringify(ADVERTISED_LIST_FORMAT)},"profile":${JSON.stringify(DEFAULT_HOST_PROFILE)},"tools":[\n`,
    tools.filter(isAdvertised),
    lineOf,
    ',\n',
    '\n]}\n',
    // A line is made of its tool's list parts, which LIST_PARTS_JOB keeps by the same key.
    advertisedListLineKey,
  );
}

/** The text of advertisedListFile, whole. */
export function advertisedListFileText(tools: readonly ServedTool[], lineOf: (tool: ServedTool) => string = advertisedListLine): string {
  return wholeText(advertisedListFile(tools, lineOf));
}

/**
 * One advertisable tool's default-profile form as JSON texts: `tool` is exactly the tools/list entry, which the
 * generator's token budget counts, and with `aliases` it makes the tool's line of `data/tools-list.json`.
 */
export interface AdvertisedListParts {
  tool: string;
  aliases: string;
}

export function advertisedListParts(tool: ServedTool): AdvertisedListParts {
  const form = advertisedForm(tool, DEFAULT_HOST_PROFILE);
  return { tool: JSON.stringify(form.tool), aliases: JSON.stringify(form.aliases) };
}

/** The line the parts make: the same text as `JSON.stringify({ tool, aliases })` of the form. */
export function advertisedListLineOf(parts: AdvertisedListParts): string {
  return `{"tool":${parts.tool},"aliases":${parts.aliases}}`;
}

/** One advertisable tool's line of `data/tools-list.json` (the generator caches its parts by advertisedListLineInputs). */
export function advertisedListLine(tool: ServedTool): string {
  return advertisedListLineOf(advertisedListParts(tool));
}

/** The cache key of a tool's list parts, and so of its line of `data/tools-list.json`. */
function advertisedListLineKey(tool: ServedTool): string {
  return contentKey(...advertisedListLineInputs(tool));
}

/** Everything advertisedListParts reads of a tool, for a cache key. */
export function advertisedListLineInputs(tool: ServedTool): unknown[] {
  const { manifest } = tool;
  // The schemas by their memoised digests; the rest as one JSON text, cheaper than a digest of the annotations.
  return [
    JSON.stringify([
      ADVERTISED_LIST_FORMAT,
      DEFAULT_HOST_PROFILE,
      tool.slug,
      tool.toolName ?? null,
      manifest.name,
      advertisedDescription(manifest),
      manifest.annotations ?? null,
    ]),
    manifest.input_schema,
    manifest.output_schema ?? null,
  ];
}

/** Its schema transforms are most of a large rebuild's emit; they need the runtime's advertiser, so stay in-process. */
export const LIST_PARTS_JOB: ToolJob<ServedTool, AdvertisedListParts> = {
  kind: 'list-parts',
  key: advertisedListLineKey,
  run: advertisedListParts,
  threads: false,
};
